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
"""An app-server SoftwareComponent on a DeployedServer, end to end.

The server side is real: os-collect-config polls Heat with the credentials
Heat made for the server and runs heat-lifecycle-agent, whose script hook
runs the component's scripts; signals go back through heat-api.
"""

import os
import time

from heat_lifecycle_fixtures import deployed_server
from tests.e2e.conftest import example

DEMO = example('demo.yaml')


def journal_lines(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def test_each_action_runs_its_script_once_in_order(driver, tmp_path):
    journal = str(tmp_path / 'journal')
    params = {'journal': journal, 'install_seconds': 0}
    stack_id = driver.create(DEMO, params, servers=['server'])
    assert journal_lines(journal) == ['install port=8080']
    assert driver.outputs(stack_id)['root_url'] == 'http://127.0.0.1:8080/'

    driver.update(stack_id, DEMO, dict(params, http_port=9090))
    assert journal_lines(journal)[1:] == ['reconfigure port=9090']
    assert driver.outputs(stack_id)['root_url'] == 'http://127.0.0.1:9090/'

    driver.action(stack_id, 'SUSPEND')
    driver.action(stack_id, 'RESUME')
    driver.delete(stack_id)
    assert journal_lines(journal) == [
        'install port=8080', 'reconfigure port=9090', 'drain', 'resume',
        'remove']


def test_progress_event_is_visible_before_completion(driver, heat, tmp_path):
    journal = str(tmp_path / 'journal')
    stack_id = driver.create(DEMO, {'journal': journal,
                                    'install_seconds': 6},
                             servers=['server'], wait=False)
    seen_while_running = None
    deadline = time.time() + 120
    while seen_while_running is None and time.time() < deadline:
        deployment = heat.resources.get(stack_id, 'deployment')
        if deployment.resource_status in ('CREATE_COMPLETE',
                                          'CREATE_FAILED'):
            break
        progress = [e for e in driver.events(stack_id)
                    if e.resource_name == 'deployment' and
                    e.resource_status == 'SIGNAL_IN_PROGRESS' and
                    'started script hook' in (e.resource_status_reason or '')]
        if progress:
            seen_while_running = progress[0]
        time.sleep(0.3)
    driver.wait(stack_id, 'CREATE')
    assert seen_while_running is not None, driver.timeline(stack_id)
    assert journal_lines(journal) == ['install port=8080']


def test_agent_example_on_a_server_of_another_stack(driver, heat):
    """examples/agent.yaml as the demo deploys it.

    The server is another stack's DeployedServer, whose agent runs the CREATE
    and DELETE.
    """
    server_stack = driver.create(deployed_server.SERVER_STACK,
                                 servers=['server'])
    server_id = driver.outputs(server_stack)['id']
    stack_id = driver.create(example('agent.yaml'), {'server': server_id})
    outputs = driver.outputs(stack_id)
    assert outputs['root_url'].endswith(':8080/')
    assert outputs['install_log'] == (
        'configuring the app server on port 8080\n')
    # The DELETE waits for the agent's signal on the live server.
    driver.delete(stack_id)
    driver.delete(server_stack)
