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
"""Why a stack failed, or what it waits for: read as its user, explained.

heat_api reads the stack with its nested stacks, events and software
deployments; diagnosis.explain says why it failed (for a stack still in
progress, waiting.explain says what it waits for). `heat-lifecycle-plugins
why`, `openstack lifecycle cause list` and the dashboard show the same
findings, each its own way (report.py renders them).
"""

from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.user_side import diagnosis
from heat_lifecycle_plugins.user_side import heat_api
from heat_lifecycle_plugins.user_side import waiting


def diagnose(hc, stack_ref):
    """(stack, findings): why it failed, or what it waits for.

    hc: python-heatclient as the stack's user. Heat's and the cloud's
    failures are raised as they come: heat_api.heat_errors(stack_ref)
    makes them one line.
    """
    stack, resources, events, deployments = heat_api.read_stack(hc, stack_ref)
    if not waiting.stack_in_progress(stack):
        return stack, diagnosis.explain(stack, resources, events,
                                        deployments)
    settings, configs = {}, {}
    for resource in resources:
        ident = resource.get('physical_resource_id')
        deployment = deployments.get(ident)
        if (deployment and deployment.get('status') == protocol.IN_PROGRESS
                and diagnosis.may_be_deployment(resource)):
            settings[ident] = heat_api.deadline_settings(hc, resource)
            configs[ident] = heat_api.delivered_config(hc, deployment)
    return stack, waiting.explain(stack, resources, events, deployments,
                                  settings, configs)
