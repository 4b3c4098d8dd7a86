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
"""Updates of OS::Mistral::ExternalResource.

Replacement, always_update, failed resources, cleared input.
"""

import urllib.request

from oslo_serialization import jsonutils
import pytest

from heat_lifecycle_fixtures import hot
from heat_lifecycle_fixtures.stacks import StackFailed
from tests.functional.external_resource.conftest import EXAMPLE_TEMPLATE
from tests.functional.external_resource.conftest import executions_of

with open(EXAMPLE_TEMPLATE) as f:
    EXAMPLE = f.read()

TEMPLATE = hot.one_thing(
    {'CREATE': {'workflow': {'get_param': 'create'}},
     'UPDATE': 'thing_update', 'DELETE': 'thing_delete'},
    hot.params(store='string', size={'type': 'number', 'default': 1},
               create={'type': 'string', 'default': 'thing_create'},
               always_update={'type': 'boolean', 'default': False}),
    input=hot.from_params('store', 'size'),
    always_update={'get_param': 'always_update'})

ECHO = hot.one_thing({'CREATE': 'echo_create', 'UPDATE': 'echo_update'},
                     hot.params(input='json'), input={'get_param': 'input'})


def _puts(thing_store, thing_id):
    return [entry for entry in thing_store.log()
            if entry[0] == 'PUT' and entry[1] == '/things/%s' % thing_id]


def test_replace_on_change_inputs_creates_new_then_deletes_old(
        heat, thing_store):
    params = {'store': thing_store.url, 'color': 'red'}
    ident = heat.create(EXAMPLE, params=params)
    old_id = heat.outputs(ident)['thing_id']

    heat.update(ident, EXAMPLE, params=dict(params, color='blue'))
    new_id = heat.outputs(ident)['thing_id']
    assert new_id != old_id
    things = thing_store.things()
    assert old_id not in things
    assert things[new_id]['color'] == 'blue'
    assert _puts(thing_store, old_id) == []  # no UPDATE workflow ran
    log = [(method, path) for method, path, body in thing_store.log()]
    created = log.index(('POST', '/things'), max(
        i for i, entry in enumerate(log) if entry == ('POST', '/things')))
    assert created < log.index(('DELETE', '/things/%s' % old_id))

    # A change of another input updates in place.
    heat.update(ident, EXAMPLE, params=dict(params, color='blue', size=9))
    assert heat.outputs(ident)['thing_id'] == new_id
    assert thing_store.things()[new_id]['size'] == 9
    heat.delete(ident)
    assert new_id not in thing_store.things()


def test_always_update_runs_update_with_unchanged_input(heat, thing_store):
    params = {'store': thing_store.url}
    ident = heat.create(TEMPLATE, params=params)
    thing_id = heat.physical_ids(ident)['thing']
    heat.update(ident, TEMPLATE, params=params)
    assert _puts(thing_store, thing_id) == []

    heat.update(ident, TEMPLATE, params=dict(params, always_update=True))
    assert len(_puts(thing_store, thing_id)) == 1
    heat.update(ident, TEMPLATE, params=dict(params, always_update=True))
    assert len(_puts(thing_store, thing_id)) == 2
    assert heat.physical_ids(ident) == {'thing': thing_id}
    heat.delete(ident)
    assert thing_id not in thing_store.things()


def test_failed_create_keeps_its_id_and_is_replaced_not_repaired(
        heat, thing_store):
    params = {'store': thing_store.url, 'always_update': True,
              'create': 'create_then_fail'}
    ident = heat.create(TEMPLATE, params=params, expect='FAILED')
    reason = heat.show(ident)['stack_status_reason']
    assert 'resources.thing' in reason
    assert 'workflow create_then_fail ended ERROR' in reason
    assert 'task boom failed' in reason
    assert 'the thing could not be finished' in reason

    # The half-made thing's id, published before the failure, is kept.
    half_made = heat.physical_ids(ident)['thing']
    assert thing_store.things()[half_made]['state'] == 'half-made'
    rsrc = heat.resource(ident, 'thing', with_attr=['output'])
    assert rsrc['attributes']['output'] == {'resource_id': half_made}

    # always_update does not "repair" a FAILED resource with UPDATE: Heat
    # replaces it, and the DELETE workflow cleans the half-made thing up.
    heat.update(ident, TEMPLATE, params=dict(params, create='thing_create'))
    new_id = heat.physical_ids(ident)['thing']
    assert new_id != half_made
    assert _puts(thing_store, half_made) == []
    things = thing_store.things()
    assert half_made not in things and new_id in things
    heat.delete(ident)


def test_failed_create_is_cleaned_up_by_stack_delete(heat, thing_store):
    ident = heat.create(TEMPLATE, params={'store': thing_store.url,
                                          'create': 'create_then_fail'},
                        expect='FAILED')
    half_made = heat.physical_ids(ident)['thing']
    assert half_made in thing_store.things()
    heat.delete(ident)
    assert half_made not in thing_store.things()


def test_input_cleared_to_empty_is_sent_empty(heat, mistral):
    ident = heat.create(ECHO, params={'input': {'size': 7}})
    heat.update(ident, ECHO, params={'input': {}})
    execution = executions_of(mistral, 'echo_update')[-1]
    execution = mistral.client().executions.get(execution.id)
    assert jsonutils.loads(execution.input) == {
        'store': None, 'size': 1, 'color': None}  # Mistral's defaults
    rsrc = heat.resource(ident, 'thing', with_attr=['output'])
    assert rsrc['attributes']['output']['size_seen'] == 1
    env = rsrc['attributes']['output']['update_env']
    assert env['heat_extresource_previous_input'] == {'size': 7}
    heat.delete(ident)


def test_bad_resource_id_from_a_workflow_is_a_clear_failure(heat):
    template = ECHO.replace('echo_create', 'echo_bad_id')
    ident = heat.create(template, params={'input': {}}, expect='FAILED')
    reason = heat.show(ident)['stack_status_reason']
    assert 'resources.thing' in reason
    assert 'echo_bad_id returned resource_id ["not", "a", "string"]' in \
        reason
    heat.delete(ident)


def test_update_failure_message(heat, thing_store, mistral):
    params = {'store': thing_store.url}
    ident = heat.create(TEMPLATE, params=params)
    thing_id = heat.physical_ids(ident)['thing']
    # The thing disappears behind Heat's back: the UPDATE's PUT gets 404.
    urllib.request.urlopen(urllib.request.Request(
        '%s/things/%s' % (thing_store.url, thing_id), method='DELETE'))
    with pytest.raises(StackFailed) as failure:
        heat.update(ident, TEMPLATE, params=dict(params, size=3))
    reason = str(failure.value)
    assert 'workflow thing_update ended ERROR' in reason
    assert 'task put failed' in reason
    assert '404' in reason
    assert heat.physical_ids(ident) == {'thing': thing_id}


def test_example_delete_skips_a_thing_that_never_existed(heat, mistral,
                                                         thing_store):
    ident = heat.create(TEMPLATE, params={'store': thing_store.url,
                                          'create': 'refuse_to_create'},
                        expect='FAILED')
    [refused] = executions_of(mistral, 'refuse_to_create')[-1:]
    assert heat.physical_ids(ident) == {'thing': refused.id}
    before = len(thing_store.log())
    heat.delete(ident)
    # The DELETE workflow ran with no resource_id and skipped cleanly.
    deleted = mistral.client().executions.get(
        executions_of(mistral, 'thing_delete')[-1].id)
    assert deleted.state == 'SUCCESS'
    assert jsonutils.loads(deleted.params)['env'][
        'heat_extresource_data'] == {}
    assert thing_store.log()[before:] == [['GET', '/log', None]]


DECIDED = hot.one_thing(
    {'CREATE': 'thing_create', 'UPDATE': 'thing_update',
     'DELETE': 'thing_delete'},
    hot.params(store='string', size={'type': 'number', 'default': 1},
               decide={'type': 'string', 'default': 'replace_if_shrinks'}),
    input=hot.from_params('store', 'size'), replace_decision={
        'workflow': {'get_param': 'decide'},
        'params': {'env': {'asked_by': 'heat'}}})


def test_replace_decision_workflow_chooses_update_or_replace(
        heat, mistral, thing_store):
    params = {'store': thing_store.url, 'size': 2}
    ident = heat.create(DECIDED, params=params)
    first = heat.physical_ids(ident)['thing']

    # Growing: the workflow says false, UPDATE runs in place.
    heat.update(ident, DECIDED, params=dict(params, size=5))
    assert heat.physical_ids(ident)['thing'] == first
    assert thing_store.things()[first]['size'] == 5
    decision = mistral.client().executions.get(
        executions_of(mistral, 'replace_if_shrinks')[-1].id)
    assert jsonutils.loads(decision.input)['size'] == 5
    env = jsonutils.loads(decision.output)['seen_env']
    assert env['heat_extresource_previous_input'] == {
        'store': thing_store.url, 'size': 2}
    assert env['heat_extresource_data']['resource_id'] == first
    assert env['asked_by'] == 'heat'

    # Shrinking: true, the thing is replaced (CREATE new, DELETE old).
    heat.update(ident, DECIDED, params=dict(params, size=3))
    second = heat.physical_ids(ident)['thing']
    assert second != first
    things = thing_store.things()
    assert first not in things and things[second]['size'] == 3
    assert _puts(thing_store, second) == []

    # An unchanged input asks nothing.
    asked = len(executions_of(mistral, 'replace_if_shrinks'))
    heat.update(ident, DECIDED, params=dict(params, size=3))
    assert len(executions_of(mistral, 'replace_if_shrinks')) == asked
    heat.delete(ident)
    assert second not in thing_store.things()


def test_a_decision_that_is_not_a_boolean_fails_the_update(heat,
                                                           thing_store):
    params = {'store': thing_store.url, 'size': 5,
              'decide': 'replace_maybe'}
    ident = heat.create(DECIDED, params=params)
    thing_id = heat.physical_ids(ident)['thing']
    with pytest.raises(StackFailed) as failure:
        heat.update(ident, DECIDED, params=dict(params, size=3))
    reason = str(failure.value)
    assert ('Resource UPDATE failed: BadWorkflowResult: resources.thing: '
            'replace_decision workflow replace_maybe returned replace = '
            '"maybe": it must be true (replace the resource) or false '
            '(update it in place)') in reason
    # Nothing was changed: the thing, its id, its size.
    assert heat.physical_ids(ident) == {'thing': thing_id}
    assert thing_store.things()[thing_id]['size'] == 5
    # A working decision lets the next update through: shrinking replaces.
    heat.update(ident, DECIDED, params=dict(params, size=3,
                                            decide='replace_if_shrinks'))
    assert heat.physical_ids(ident)['thing'] != thing_id
    heat.delete(ident)
