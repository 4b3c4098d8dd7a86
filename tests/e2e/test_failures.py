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
"""One failure per type, checked as a user sees it.

`stack show` and the events API through python-heatclient.
"""


from heat_lifecycle_fixtures import hot
from tests.e2e.test_external_resource import stack_users
from tests.e2e import test_resource_chain as chain

FAILING_COMPONENT = hot.template(hot.with_server(
    appserver={'type': 'OS::Heat::SoftwareComponent', 'properties': {
        'configs': [{'actions': ['CREATE'], 'tool': 'script', 'config':
                     '#!/bin/sh\necho "installing"\n'
                     'echo "disk full" >&2\nexit 3\n'}]}},
    deployment=hot.deployment('appserver')))


def failed_events(driver, stack_id, resource_name):
    return [e for e in driver.events(stack_id)
            if e.resource_name == resource_name and
            e.resource_status.endswith('_FAILED')]


def test_failing_component_script(driver, heat):
    stack_id = driver.create(FAILING_COMPONENT, servers=['server'],
                             expect='FAILED')
    stack = heat.stacks.get(stack_id)
    assert stack.stack_status == 'CREATE_FAILED'
    [event] = failed_events(driver, stack_id, 'deployment')
    assert event.resource_status == 'CREATE_FAILED'
    # What `openstack stack show` and `stack event list` print: the agent's
    # reason, the status code and the end of the script's stderr.
    # The hook is named by its group, so the reason fits the 255
    # characters Heat keeps of an event's reason wherever it is installed.
    cause = ('hook script: the tool exited with status 3, Deployment exited '
             'with non-zero status code: 3, stderr: disk full')
    assert event.resource_status_reason == (
        'Error: resources.deployment: Deployment to server failed: ' + cause)
    assert stack.stack_status_reason == (
        'Resource CREATE failed: ' + event.resource_status_reason)
    # Nothing lost: the tool's own output is on the deployment's attributes.
    deployment = heat.resources.get(
        stack_id, 'deployment',
        with_attr=['deploy_stderr', 'deploy_stdout', 'deploy_status_code'])
    assert deployment.attributes['deploy_status_code'] == 3
    assert deployment.attributes['deploy_stdout'] == 'installing\n'
    assert deployment.attributes['deploy_stderr'] == (
        'disk full\n\n[heat-lifecycle-agent] hook script: the tool exited '
        'with status 3')


def test_failing_chain_member(driver, heat):
    steps = {'step1': ['steps/loadbalancer.yaml', 'steps/broken.yaml',
                       'steps/db.yaml']}
    files = dict(chain.FILES, **{'steps/broken.yaml':
                                 chain.read('steps/broken.yaml')})
    stack_id = driver.create(chain.TEMPLATE, {'steps': steps}, files=files,
                             expect='FAILED')
    reason = heat.stacks.get(stack_id).stack_status_reason
    assert 'resources.DeploymentStep1' in reason, reason
    assert 'Test Resource failed' in reason, reason
    [event] = failed_events(driver, stack_id, 'DeploymentStep1')
    assert 'Test Resource failed' in event.resource_status_reason
    # The chain is serial: the member after the broken one never started.
    configured = [r.resource_type for r in
                  heat.resources.list(stack_id, nested_depth=1)]
    assert 'steps/db.yaml' not in configured or all(
        r.resource_status == 'INIT_COMPLETE'
        for r in heat.resources.list(stack_id, nested_depth=1)
        if r.resource_type == 'steps/db.yaml')


FAILING_THING = hot.one_thing({'CREATE': 'thing_create_refused'},
                              hot.params(store='string'),
                              input=hot.from_params('store'))


def test_failing_external_resource_workflow(driver, heat, cloud,
                                            thing_store, mistral_workflows):
    posts_before = [e[0] for e in thing_store.log()].count('POST')
    stack_id = driver.create(FAILING_THING, {'store': thing_store.url},
                             expect='FAILED')
    stack = heat.stacks.get(stack_id)
    [event] = failed_events(driver, stack_id, 'thing')
    execution = [e for e in mistral_workflows.executions.list(
        limit=-1) if e.workflow_name == 'thing_create_refused'][-1]
    reason = ('WorkflowFailed: resources.thing: Mistral workflow '
              'thing_create_refused ended ERROR: task refuse failed: quota '
              'of things exceeded (execution %s)' % execution.id)
    assert event.resource_status_reason == reason
    assert stack.stack_status_reason == 'Resource CREATE failed: ' + reason
    # The refused thing was never made; the failed stack deletes cleanly,
    # with the signed URL's user Mistral was told through.
    assert [e[0] for e in thing_store.log()].count('POST') == posts_before
    assert len(stack_users(cloud, stack.stack_name)) == 1
    driver.delete(stack_id)
    assert stack_users(cloud, stack.stack_name) == []
