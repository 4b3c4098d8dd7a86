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
"""examples/agent.yaml: a deployment to a DeployedServer of another stack.

As operators and TripleO do, in a cloud without a compute service.
"""

import os

import yaml

from tests.functional.software_component import helpers

AGENT_EXAMPLE = os.path.join(helpers.HERE, '..', '..', '..', 'examples',
                             'agent.yaml')
SERVER_STACK = {
    'heat_template_version': '2016-04-08',
    'resources': {'server': {
        'type': 'OS::Heat::DeployedServer',
        'properties': {'software_config_transport': 'POLL_SERVER_HEAT'}}},
    'outputs': {'id': {'value': {'get_resource': 'server'}}},
}
DEPLOYMENT = 'appserver_deployment'


def test_delete_waits_for_the_server_of_another_stack(engine):
    with open(AGENT_EXAMPLE) as f:
        template = yaml.safe_load(f)
    server_stack = engine.create(SERVER_STACK)
    server_id = engine.outputs(server_stack)['id']
    ident = engine.create(template, params={'server': server_id}, wait=False)
    helpers.wait_for_delivery(engine, ident, 'CREATE', name=DEPLOYMENT,
                              server_ident=server_stack)
    engine.signal(ident, DEPLOYMENT, helpers.final_signal(
        root_url='http://app:8080/'))
    engine.wait(ident, 'CREATE')
    assert engine.outputs(ident)['root_url'] == 'http://app:8080/'

    # The server lives on: the DELETE config is delivered and awaited
    # (in-tree, asking the absent Nova about the server fails the delete).
    engine.delete(ident, wait=False)
    helpers.wait_for_delivery(engine, ident, 'DELETE', name=DEPLOYMENT,
                              server_ident=server_stack)
    res = engine.resource(ident, DEPLOYMENT, with_attr=False)
    assert (res['resource_action'], res['resource_status']) == (
        'DELETE', 'IN_PROGRESS')
    engine.signal(ident, DEPLOYMENT, helpers.final_signal())
    engine.wait(ident, 'DELETE')
    engine.delete(server_stack)
