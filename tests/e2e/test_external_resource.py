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
"""OS::Mistral::ExternalResource through heat-api and a real Mistral.

An unmodified heat-engine (our loader in plugin_dirs) runs it. Mistral runs
behind Keystone (keystonemiddleware) and heat-engine finds it in the
catalog as `workflowv2`, with the demo user's token (or the stack's trust):
the example's workflows, registered by the demo user, create, change,
check and delete a thing in a store the test can look into.
"""

import json
import time
import urllib.request
import uuid

from heatclient import exc
import pytest
import yaml

from heat_lifecycle_fixtures import faults
from heat_lifecycle_fixtures import process
from tests.e2e.conftest import example

TEMPLATE = example('external_resource.yaml')
WORKFLOWS = example('external_resource_workflows.yaml')

OTHER_PASSWORD = 'other-secret'
PRIVATE = """
version: '2.0'
others_private_create:
  tasks:
    noop:
      action: std.noop
"""


def physical_id(heat, stack_id):
    return heat.resources.get(stack_id, 'thing').physical_resource_id


def test_example_create_update_suspend_resume_check_delete(
        driver, heat, cloud, thing_store, mistral_workflows):
    params = {'store': thing_store.url, 'size': 2}
    logged = len(thing_store.log())  # the store serves the whole session
    stack_id = driver.create(TEMPLATE, params)
    outputs = driver.outputs(stack_id)
    thing_id = outputs['thing_id']
    assert thing_store.things()[thing_id] == {
        'id': thing_id, 'size': 2, 'color': 'red', 'state': 'active'}
    assert outputs['output'] == {'resource_id': thing_id, 'size': 2,
                                 'color': 'red'}
    assert physical_id(heat, stack_id) == thing_id

    driver.update(stack_id, TEMPLATE, dict(params, size=5))
    thing = thing_store.things()[thing_id]
    assert thing['size'] == 5 and thing['note'] == 'updated by heat'
    assert thing['previous_input'] == {'store': thing_store.url, 'size': 2,
                                       'color': 'red'}
    # The UPDATE workflow returned no resource_id: the id is stable.
    assert physical_id(heat, stack_id) == thing_id
    assert driver.outputs(stack_id)['size'] == 5

    driver.action(stack_id, 'SUSPEND')
    assert thing_store.things()[thing_id]['state'] == 'suspended'
    driver.action(stack_id, 'RESUME')
    assert thing_store.things()[thing_id]['state'] == 'active'
    assert physical_id(heat, stack_id) == thing_id
    driver.action(stack_id, 'CHECK')  # thing_check: in sync

    events = [e for e in driver.events(stack_id)
              if e.resource_name == 'thing']
    assert [e.resource_status for e in events if not ours(e)] == [
        'CREATE_IN_PROGRESS', 'CREATE_COMPLETE',
        'UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE',
        'SUSPEND_IN_PROGRESS', 'SUSPEND_COMPLETE',
        'RESUME_IN_PROGRESS', 'RESUME_COMPLETE',
        'CHECK_IN_PROGRESS', 'CHECK_COMPLETE']
    # Every workflow ran in the demo project, as the demo user.
    ran = {e.workflow_name: e for e in mistral_workflows.executions.list(
        limit=-1)}
    assert {'thing_create', 'thing_update', 'thing_suspend', 'thing_resume',
            'thing_check'} <= set(ran)
    project = heat.stacks.get(stack_id).parameters['OS::project_id']
    assert ran['thing_create'].project_id == project
    assert_told(cloud, events, ran)
    users = stack_users(cloud, heat.stacks.get(stack_id).stack_name)
    assert len(users) == 1  # the signed URL's, made on first use
    driver.delete(stack_id)
    assert thing_id not in thing_store.things()
    assert stack_users(cloud, heat.stacks.get(stack_id).stack_name) == []
    deletes = [entry for entry in thing_store.log()[logged:]
               if entry[0] == 'DELETE']
    assert deletes == [['DELETE', '/things/%s' % thing_id, None]]


def ours(event):
    """An event of ours: how an execution is waited for, a notice."""
    return (event.resource_status_reason or '').startswith(
        ('Mistral execution', 'Mistral: execution', 'signal ignored'))


def fetches(cloud, execution_id):
    """How many times Mistral was asked for that execution (its API log)."""
    with open(cloud.mistral.log_path, errors='replace') as f:
        return f.read().count('Fetch execution [id=%s' % execution_id)


def assert_told(cloud, events, ran):
    """Each action Heat takes signals for was told, SUSPEND polled.

    Told, its execution was read once, at the notice.
    """
    reasons = [e.resource_status_reason for e in events if ours(e)]
    for action, workflow in (('CREATE', 'thing_create'),
                             ('UPDATE', 'thing_update'),
                             ('RESUME', 'thing_resume'),
                             ('CHECK', 'thing_check')):
        execution = ran[workflow].id
        assert ('Mistral execution %s of workflow \'%s\' started; Mistral '
                'tells its end to heat-api-cfn (fallback poll every 30 s)'
                % (execution, workflow)) in reasons, action
        assert 'Mistral: execution %s ended (WORKFLOW_SUCCEEDED)' % (
            execution) in reasons, action
        assert 'Mistral execution %s ended: told by Mistral' % (
            execution) in reasons, action
        assert fetches(cloud, execution) == 1, action
    suspend = ran['thing_suspend'].id
    assert ('Mistral execution %s of workflow \'thing_suspend\' started; '
            'polling it: Heat refuses signals during SUSPEND' % suspend
            ) in reasons
    assert fetches(cloud, suspend) >= 1


def stack_users(cloud, stack_name):
    """Names of the stack-domain users of that stack's resources."""
    admin = cloud.keystone.admin_client()
    return sorted(u.name for u in admin.users.list(
        domain=cloud.keystone.heat_domain_id)
        if u.name.startswith(stack_name + '-'))


def _refused(heat, template):
    with pytest.raises(exc.HTTPBadRequest) as refused:
        heat.stacks.create(stack_name='e2e-refused', template=template,
                           parameters={'store': 'http://127.0.0.1:1'})
    return str(refused.value)


def assert_names_the_workflow(message, action, workflow, cloud):
    # Heat 24.x leaves out its "Property error: : " prefix here.
    expected = (
        'resources.thing.properties.actions.%s.workflow: : workflow "%s" '
        'does not exist in Mistral at %s, or project demo may not use it (it '
        'is private to another project)' % (action, workflow,
                                            cloud.mistral.url))
    assert message in ('ERROR: ' + expected,
                       'ERROR: Property error: : ' + expected), message


def test_a_missing_workflow_is_refused_when_the_stack_is_validated(
        heat, cloud, mistral_workflows):
    template = TEMPLATE.replace('workflow: thing_delete',
                                'workflow: no_such_workflow')
    # What `openstack stack create` prints (Heat's own ": :" included).
    assert_names_the_workflow(
        _refused(heat, template), 'DELETE', 'no_such_workflow', cloud)
    assert 'e2e-refused' not in [s.stack_name for s in heat.stacks.list()]


def test_a_workflow_private_to_another_project_is_refused(
        heat, cloud, mistral_workflows):
    cloud.keystone.add_user('other', OTHER_PASSWORD, 'other')
    other = cloud.mistral_client(cloud.keystone.session(
        'other', OTHER_PASSWORD, project_name='other'))
    other.workflows.create(PRIVATE)
    template = TEMPLATE.replace('workflow: thing_create',
                                'workflow: others_private_create')
    assert_names_the_workflow(
        _refused(heat, template), 'CREATE', 'others_private_create', cloud)


DECIDE = """
version: '2.0'
%s:
  input: [store: null, size: 1, color: null]
  output:
    replace: <%% $.size < env().heat_extresource_previous_input.size %%>
  tasks:
    decide:
      action: std.noop
"""


def _put(url, body):
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method='PUT',
        headers={'Content-Type': 'application/json'})
    urllib.request.urlopen(request, timeout=10).close()


def test_drift_check_and_replace_decision_through_keystone(
        driver, heat, cloud, thing_store, mistral_workflows):
    # Mistral behind Keystone: the demo user's workflows, run with the
    # stack's credentials, for CHECK (drift) and replace_decision.
    decide = 'e2e_replace_if_shrinks_%s' % uuid.uuid4().hex[:6]
    mistral_workflows.workflows.create(DECIDE % decide)
    template = yaml.safe_load(TEMPLATE)
    template['resources']['thing']['properties']['replace_decision'] = {
        'workflow': decide}
    template = yaml.safe_dump(template)
    params = {'store': thing_store.url, 'size': 2}
    stack_id = driver.create(template, params)
    thing_id = driver.outputs(stack_id)['thing_id']

    _put('%s/things/%s' % (thing_store.url, thing_id), {'size': 9})
    driver.action(stack_id, 'CHECK', expect='FAILED')
    reason = heat.resources.get(stack_id, 'thing').resource_status_reason
    assert ('CHECK workflow thing_check found the external thing '
            'different: the store has size 9 and color red, Heat set 2 '
            'and red') in reason, reason
    driver.update(stack_id, template, params)  # repairs it in place
    assert physical_id(heat, stack_id) == thing_id
    assert thing_store.things()[thing_id]['size'] == 2

    driver.update(stack_id, template, dict(params, size=5))  # grows
    assert physical_id(heat, stack_id) == thing_id
    stack_name = heat.stacks.get(stack_id).stack_name
    [first_user] = stack_users(cloud, stack_name)
    driver.update(stack_id, template, dict(params, size=3))  # shrinks
    replaced = physical_id(heat, stack_id)
    assert replaced != thing_id
    # The replaced resource's signed URL user went with it.
    users = stack_users(cloud, stack_name)
    assert len(users) == 1 and users != [first_user], (first_user, users)
    things = thing_store.things()
    assert thing_id not in things and things[replaced]['size'] == 3
    decided = [e for e in mistral_workflows.executions.list(limit=-1)
               if e.workflow_name == decide]
    assert len(decided) == 2
    project = heat.stacks.get(stack_id).parameters['OS::project_id']
    assert {e.project_id for e in decided} == {project}
    driver.delete(stack_id)
    assert stack_users(cloud, stack_name) == []


SLOW_WORKFLOW = """
version: '2.0'
%s:
  output:
    resource_id: made-slowly
  tasks:
    wait:
      action: std.sleep
      input: {seconds: 6}
"""


def test_a_lost_notification_is_caught_by_the_fallback_poll(
        driver, heat, cloud, mistral_workflows):
    """A webhook Mistral could not deliver: the fallback poll ends CREATE.

    heat-api-cfn is down when the workflow ends; Mistral never sends a
    failed notification again. The poll comes every 30 s.
    """
    workflow = 'e2e_slow_create_%s' % uuid.uuid4().hex[:8]
    mistral_workflows.workflows.create(SLOW_WORKFLOW % workflow)
    template = yaml.safe_dump({
        'heat_template_version': '2018-08-31',
        'resources': {'thing': {
            'type': 'OS::Mistral::ExternalResource',
            'properties': {'actions': {'CREATE': {'workflow': workflow}}}}}})
    stack_id = driver.create(template, wait=False)
    with faults.outage(cloud.heat.part('heat-api-cfn')):
        execution = process.wait_until(
            lambda: next((e for e in mistral_workflows.executions.list(
                limit=-1) if e.workflow_name == workflow and
                e.state == 'SUCCESS'), None), 60, 'the workflow to end',
            interval=0.5)
        ended = time.monotonic()
        time.sleep(2)  # Mistral's webhook meets a closed port
    driver.wait(stack_id, 'CREATE')
    assert time.monotonic() - ended <= 30 + 5  # one fallback period
    reasons = [e.resource_status_reason for e in driver.events(stack_id)
               if e.resource_name == 'thing']
    assert ('Mistral execution %s ended: found by the fallback poll (no '
            'notification came)' % execution.id) in reasons
    assert not [r for r in reasons if r.startswith('Mistral: execution')]
    assert fetches(cloud, execution.id) == 1  # the fallback poll
    driver.delete(stack_id)
