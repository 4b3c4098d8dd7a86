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
"""Cancel and delete during a running execution.

Also the errors reported at stack-validate time. (Mistral outages:
test_outage.)
"""

import json

from oslo_config import cfg
import pytest

from heat_lifecycle_fixtures import hot
from heat_lifecycle_fixtures.process import wait_until
from tests.functional.external_resource.conftest import executions_of
from tests.functional.external_resource.conftest import SLOW_CREATE as SLOW


def _running_execution(mistral, thing_store):
    """The create_slowly execution once it made its thing and sleeps."""
    def sleeping():
        for execution in executions_of(mistral, 'create_slowly'):
            if execution.state != 'RUNNING':
                continue
            tasks = mistral.client().tasks.list(
                workflow_execution_id=execution.id)
            if any(t.name == 'wait' and t.state == 'RUNNING' for t in tasks):
                return execution
    execution = wait_until(sleeping, 30, 'a sleeping create_slowly execution')
    half_made = [i for i, t in thing_store.things().items()
                 if t['state'] == 'being-made']
    return execution, half_made


def _state(mistral, execution_id):
    return mistral.client().executions.get(execution_id).state


def test_stack_cancel_cancels_a_paused_execution(heat, mistral,
                                                 thing_store):
    ident = heat.create(SLOW, params={'store': thing_store.url}, wait=False)
    execution, half_made = _running_execution(mistral, thing_store)
    # PAUSED counts as running: it is cancelled too.
    mistral.client().executions.update(execution.id, 'PAUSED')
    wait_until(lambda: _state(mistral, execution.id) == 'PAUSED', 30, 'PAUSED')

    heat.cancel_update(ident)
    heat.wait(ident, 'CREATE', expect='FAILED')
    wait_until(lambda: _state(mistral, execution.id) == 'CANCELLED',
               30, 'the execution cancelled in Mistral')
    rsrc = wait_until(lambda: (lambda r: r if r['resource_status'] == 'FAILED'
                               else None)(heat.resource(ident, 'thing')),
                      30, 'the resource FAILED')
    assert 'cancelled' in rsrc['resource_status_reason']
    info = mistral.client().executions.get(execution.id).state_info
    assert 'Heat' in info

    # The thing made before the cancel is cleaned up by DELETE.
    [thing_id] = [t for t in half_made if t == rsrc['physical_resource_id']]
    heat.delete(ident)
    assert thing_id not in thing_store.things()


def test_delete_during_create_cancels_the_execution(heat, mistral,
                                                    thing_store):
    ident = heat.create(SLOW, params={'store': thing_store.url}, wait=False)
    execution, half_made = _running_execution(mistral, thing_store)
    heat.delete(ident)
    assert _state(mistral, execution.id) == 'CANCELLED'
    things = thing_store.things()
    assert half_made and not [t for t in half_made if t in things]


def test_stack_timeout_cancels_the_execution(heat, mistral, thing_store):
    # Without timeout_mins a stack times out after stack_action_timeout
    # seconds, which (unlike timeout_mins) can be short enough for a test.
    before = {e.id for e in executions_of(mistral, 'create_slowly')}
    cfg.CONF.set_override('stack_action_timeout', 4)
    try:
        ident = heat.create(SLOW, params={'store': thing_store.url},
                            expect='FAILED')
    finally:
        cfg.CONF.clear_override('stack_action_timeout')
    assert 'Timed out' in heat.show(ident)['stack_status_reason']
    [execution] = [e for e in executions_of(mistral, 'create_slowly')
                   if e.id not in before]
    wait_until(lambda: _state(mistral, execution.id) == 'CANCELLED',
               30, 'the execution cancelled in Mistral')
    rsrc = heat.resource(ident, 'thing')
    assert rsrc['resource_status'] == 'FAILED'
    thing_id = rsrc['physical_resource_id']
    assert thing_store.things()[thing_id]['state'] == 'being-made'
    heat.delete(ident)
    assert thing_id not in thing_store.things()


MISSING = hot.one_thing({'CREATE': 'echo_create',
                         'DELETE': 'no_such_workflow'})

NAMED_ENV = hot.one_thing({'CREATE': 'echo_create', 'UPDATE': {
    'workflow': 'echo_update', 'params': {'env': 'my-named-environment'}}})

FROM_ANOTHER_RESOURCE = '''
heat_template_version: 2016-10-14
resources:
  name:
    type: OS::Heat::Value
    properties: {value: echo_create}
  thing:
    type: OS::Mistral::ExternalResource
    properties:
      actions:
        CREATE: {workflow: {get_attr: [name, value]}}
outputs:
  output: {value: {get_attr: [thing, output]}}
'''


def test_missing_workflow_is_reported_when_the_stack_is_validated(
        heat, mistral):
    # Template validation (validate_template) never checks property values;
    # stack create, update and preview validate them before any action.
    with pytest.raises(Exception) as refused:
        heat.create(MISSING)
    error = str(refused.value)
    assert 'resources.thing.properties.actions.DELETE.workflow' in error
    assert ('workflow "no_such_workflow" does not exist in Mistral at %s, '
            'or project test_tenant may not use it (it is private to '
            'another project)' % mistral.url) in error


def one_input(workflow):
    """A CREATE `workflow` given store, size and color."""
    return hot.one_thing({'CREATE': workflow}, outputs=hot.attr_outputs(
        'thing', 'output'), input={'store': 'http://127.0.0.1:1', 'size': 3,
                                   'color': 'red'})


def test_each_workflow_gets_only_the_inputs_it_declares(heat, mistral):
    # Mistral refuses an input a workflow does not declare: before, every
    # workflow had to declare every key of `input`.
    ident = heat.create(one_input('echo_size_only'))
    assert heat.outputs(ident)['output']['size_seen'] == 3
    [execution] = executions_of(mistral, 'echo_size_only')
    assert json.loads(execution.input) == {'size': 3}
    heat.delete(ident)


def test_a_workflow_input_the_resource_lacks_is_refused_naming_both(heat):
    with pytest.raises(Exception) as refused:
        heat.create(one_input('needs_owner'))
    error = str(refused.value)
    assert 'resources.thing.properties.actions.CREATE.workflow' in error
    assert ('workflow "needs_owner" declares input owner without a '
            'default, which property input of resource thing lacks') in error


def test_params_env_must_be_a_map(heat):
    with pytest.raises(Exception) as refused:
        heat.create(NAMED_ENV)
    error = str(refused.value)
    assert 'resources.thing.properties.actions.UPDATE.params.env' in error
    assert 'must be a map' in error and '"my-named-environment"' in error


def test_workflow_from_a_resource_not_yet_created_is_not_checked(heat):
    ident = heat.create(FROM_ANOTHER_RESOURCE)
    assert heat.outputs(ident)['output']['note'] == 'created'
    heat.delete(ident)
