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
"""OS::Mistral::ExternalResource through its whole life.

Against a real Mistral whose workflows manage things in a real HTTP store.
"""

from heat.db import api as db_api
from heat.engine import resources
import sqlalchemy

from heat_lifecycle_fixtures import hot
from tests.functional.external_resource.conftest import EXAMPLE_TEMPLATE
from tests.functional.external_resource.conftest import executions_of
from tests.functional.external_resource.conftest import SLOW_CREATE

with open(EXAMPLE_TEMPLATE) as f:
    EXAMPLE = f.read()

NO_RESOURCE_ID = hot.one_thing(
    {'CREATE': 'echo_create', 'UPDATE': 'echo_update'},
    hot.params(size={'type': 'number', 'default': 1},
               store={'type': 'string', 'default': 'unused'}),
    hot.attr_outputs('thing', 'output'), input=hot.from_params('size'))


def test_our_type_replaces_the_in_tree_one(heat):
    cls = resources.global_env().get_class('OS::Mistral::ExternalResource')
    assert cls.__module__ == ('heat_lifecycle_plugins.resources.'
                              'external_resource')


def test_example_full_lifecycle(heat, thing_store):
    ident = heat.create(EXAMPLE, params={'store': thing_store.url,
                                         'size': 2})
    outputs = heat.outputs(ident)
    thing_id = outputs['thing_id']
    assert thing_store.things()[thing_id]['size'] == 2
    # The attribute is a real map, not a JSON string.
    assert outputs['output'] == {'resource_id': thing_id, 'size': 2,
                                 'color': 'red'}
    assert outputs['size'] == 2

    heat.update(ident, EXAMPLE, params={'store': thing_store.url,
                                        'size': 5})
    thing = thing_store.things()[thing_id]
    assert thing['size'] == 5
    # UPDATE saw the previous input, the current outputs and its own env.
    assert thing['previous_input'] == {'store': thing_store.url, 'size': 2,
                                       'color': 'red'}
    assert thing['seen_outputs']['resource_id'] == thing_id
    assert thing['note'] == 'updated by heat'
    # The UPDATE workflow returned no resource_id: the physical id stays.
    assert heat.physical_ids(ident) == {'thing': thing_id}
    assert heat.outputs(ident)['output'] == {
        'resource_id': thing_id, 'size': 5, 'color': 'red'}

    # SUSPEND and RESUME have no params.env: they get the outputs anyway.
    heat.suspend(ident)
    assert thing_store.things()[thing_id]['state'] == 'suspended'
    heat.resume(ident)
    assert thing_store.things()[thing_id]['state'] == 'active'
    assert heat.physical_ids(ident) == {'thing': thing_id}

    heat.delete(ident)
    assert thing_id not in thing_store.things()
    events = heat.events(ident, resource_name='thing')
    assert [(e['resource_action'], e['resource_status'])
            for e in events][-1] == ('DELETE', 'COMPLETE')
    # After CREATE the physical id never changed, DELETE included.
    assert {e['physical_resource_id'] for e in events
            if e['resource_action'] != 'CREATE'} == {thing_id}


def test_create_execution_id_is_the_id_when_none_is_returned(heat, mistral):
    ident = heat.create(NO_RESOURCE_ID, params={'size': 3})
    created = executions_of(mistral, 'echo_create')[-1]
    assert heat.physical_ids(ident) == {'thing': created.id}
    assert heat.outputs(ident)['output'] == {'note': 'created',
                                             'size_seen': 3}

    heat.update(ident, NO_RESOURCE_ID, params={'size': 4})
    updated = executions_of(mistral, 'echo_update')[-1]
    assert updated.id != created.id
    assert heat.physical_ids(ident) == {'thing': created.id}
    output = heat.outputs(ident)['output']
    assert output['note'] == 'updated' and output['size_seen'] == 4
    # Every action after CREATE gets the outputs, with no params.env too.
    assert output['update_env']['heat_extresource_data'] == {
        'note': 'created', 'size_seen': 3}
    heat.delete(ident)


def test_outputs_are_written_once_per_execution_not_per_poll(
        heat, thing_store):
    """Watches the SQL the engine sends to its real database."""
    statements = []

    def record(conn, cursor, statement, parameters, context, executemany):
        if 'resource_data' in statement and statement.split()[0] in (
                'INSERT', 'UPDATE'):
            statements.append(statement.split()[0])

    db_engine = db_api.get_engine()
    sqlalchemy.event.listen(db_engine, 'before_cursor_execute', record)
    try:
        ident = heat.create(SLOW_CREATE, params={'store': thing_store.url,
                                                 'sleep': 2})
    finally:
        sqlalchemy.event.remove(db_engine, 'before_cursor_execute', record)
    # A 2 s execution polled every 0.1 s: one write, when it ended.
    assert len(statements) == 1
    thing_id = heat.physical_ids(ident)['thing']
    assert thing_store.things()[thing_id]['state'] == 'being-made'
    heat.delete(ident)
    assert thing_id not in thing_store.things()
