# Licensed under the Apache License, Version 2.0 (the "License"); you may
# not use this file except in compliance with the License. You may obtain
# a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
# License for the specific language governing permissions and limitations
# under the License.
"""The Lifecycle tab (heat-dashboard's StackDetailTabs, via EXTRA_TABS)."""

from django.utils.translation import gettext_lazy as _

from horizon import tabs
from openstack_dashboard import policy

from heat_lifecycle_dashboard import content


class LifecycleTab(tabs.Tab):
    name = _("Lifecycle")
    slug = "lifecycle"
    template_name = "heat_lifecycle_dashboard/_lifecycle.html"
    # Loaded when opened, as the Topology tab: it reads every nested stack.
    preload = False

    def allowed(self, request):
        return policy.check((("orchestration", "stacks:show"),), request)

    def get_context_data(self, request):
        return content.tab_context(request, self.tab_group.kwargs['stack_id'])
