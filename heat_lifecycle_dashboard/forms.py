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
"""The day-two action form: the request `openstack lifecycle action run`
sends, chosen from the actions the stack's resources define."""

import logging

from django.utils.translation import gettext_lazy as _
from heat_dashboard.api import heat

from horizon import forms
from horizon import messages

from heat_lifecycle_dashboard import content
from heat_lifecycle_dashboard import lifecycle_data

LOG = logging.getLogger(__name__)
SEPARATOR = ' '


def _choice(resource, action):
    return '%s%s%s' % (resource, SEPARATOR, action)


class RunActionForm(forms.SelfHandlingForm):
    stack_id = forms.CharField(widget=forms.HiddenInput())
    target = forms.ChoiceField(label=_("Resource and action"))
    inputs = forms.CharField(
        label=_("Inputs"), required=False, widget=forms.Textarea(
            attrs={'rows': 4}),
        help_text=_("One KEY=VALUE a line: inputs of this run only."))

    def __init__(self, request, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        stack_id = self.initial.get('stack_id') or self.data.get('stack_id')
        choices = []
        try:
            choices = lifecycle_data.actions(heat.heatclient(request),
                                             stack_id)
        except lifecycle_data.Refused:
            messages.error(request, content.REFUSED)
        except Exception as exc:
            LOG.warning('actions of stack %s: %s', stack_id, exc)
            messages.error(request, _('Heat could not be read: %s') % exc)
        self.fields['target'].choices = [
            (_choice(resource, action), '%s: %s' % (resource, action))
            for resource, action in choices]

    def handle(self, request, data):
        resource, _sep, action = data['target'].rpartition(SEPARATOR)
        inputs = [line.strip() for line in data['inputs'].splitlines()
                  if line.strip()]
        try:
            said = lifecycle_data.run(heat.heatclient(request),
                                      data['stack_id'], resource, action,
                                      inputs)
        except lifecycle_data.Refused:
            messages.error(request, _(
                'The cloud\'s policy refused %(action)s of %(resource)s: '
                'your role may not update this stack.') % {
                    'action': action, 'resource': resource})
            return False
        except lifecycle_data.UserSideError as exc:
            messages.error(request, str(exc))
            return False
        messages.success(request, said)
        return True
