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
"""Workflow outputs larger than a resource data value (TEXT, 64 KiB).

The engine's database is a real MariaDB in strict mode, where a longer
value fails the write. Outputs up to [heat_lifecycle_plugins]
mistral_max_output_bytes are kept whole (in parts); larger ones fail the
action naming their size and the limit, and keep the resource_id so that
DELETE cleans up.
"""

from heat.db import api as db_api
from oslo_serialization import jsonutils
import sqlalchemy

from tests.functional.external_resource.conftest import create_template
from tests.functional.external_resource.conftest import executions_of

BIG = create_template('create_big', 'tens', update='echo_update')
BIG_SIZE_4 = create_template('create_big', 'tens', update='echo_update',
                             more_input={'size': 4})


def _longest_resource_data(ident, heat):
    """The longest value of the stack's resource data, as stored."""
    engine = db_api.get_engine()
    with engine.connect() as conn:
        return conn.execute(sqlalchemy.text(
            'SELECT MAX(LENGTH(rd.value)) FROM resource_data rd JOIN '
            'resource r ON rd.resource_id = r.id WHERE r.stack_id = :s'),
            {'s': ident['stack_id']}).scalar()


def test_outputs_over_a_data_value_are_kept_whole(heat, mistral,
                                                  thing_store):
    # 300000 characters: more than four times a TEXT column.
    ident = heat.create(BIG, params={'store': thing_store.url,
                                     'tens': 30000})
    assert heat.outputs(ident)['blob'] == '0123456789' * 30000
    assert _longest_resource_data(ident, heat) <= 65535
    thing_id = heat.physical_ids(ident)['thing']
    assert thing_store.things()[thing_id]['state'] == 'big'

    # The next execution gets them all in its environment; the merged
    # outputs stay whole.
    heat.update(ident, BIG_SIZE_4, params={'store': thing_store.url,
                                           'tens': 30000})
    update = mistral.client().executions.get(
        executions_of(mistral, 'echo_update')[-1].id)
    seen = update.output
    assert '"size_seen": 4' in seen and len(seen) > 300000
    assert heat.outputs(ident)['blob'] == '0123456789' * 30000
    heat.delete(ident)
    assert thing_id not in thing_store.things()


def test_outputs_over_the_limit_fail_naming_size_and_limit(
        heat, mistral, thing_store, options):
    options(mistral_max_output_bytes=100000)
    ident = heat.create(BIG, params={'store': thing_store.url,
                                     'tens': 20000}, expect='FAILED')
    execution = executions_of(mistral, 'create_big')[-1]
    thing_id = heat.physical_ids(ident)['thing']
    size = len(jsonutils.dumps({'resource_id': thing_id,
                                'blob': '0123456789' * 20000}))
    reason = heat.show(ident)['stack_status_reason']
    assert ('BadWorkflowResult: resources.thing: workflow create_big '
            'returned outputs of %d bytes as JSON (with the outputs '
            'kept before): more than the 100000 bytes Heat keeps for this '
            'resource ([heat_lifecycle_plugins] mistral_max_output_bytes); '
            'they were not stored, Mistral execution %s still has them'
            % (size, execution.id)) in reason
    # Nothing cut: no blob at all, but the thing's id, for DELETE.
    rsrc = heat.resource(ident, 'thing', with_attr=['output'])
    assert rsrc['attributes']['output'] == {'resource_id': thing_id}
    assert thing_store.things()[thing_id]['state'] == 'big'
    heat.delete(ident)
    assert thing_id not in thing_store.things()
