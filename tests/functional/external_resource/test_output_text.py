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
"""Workflow outputs Heat must not pass on, and outputs it must.

Every action after CREATE sends the merged outputs to Mistral (its
environment's heat_extresource_data). An output holding a lone surrogate
(Mistral's JSON can return "\\udce9") fails the action that returned it,
by name, and is neither stored nor sent; text above U+FFFF is kept and
sent (JSON carries it as a surrogate pair). Such an output stored by an
earlier version is kept but not sent, and an event says so.
"""

from heat.db import api as db_api
from oslo_serialization import jsonutils
import sqlalchemy

from heat_lifecycle_fixtures import hot
from tests.functional.external_resource.conftest import executions_of

ASTRAL = 'n\U0001f600'


def _template(create, size=1):
    return hot.one_thing(
        {'CREATE': create, 'UPDATE': 'echo_update', 'DELETE': 'thing_delete'},
        hot.params(store='string'),
        {'word': {'value': {'get_attr': ['thing', 'output', 'word']}}},
        input=dict(hot.from_params('store'), size=size))


def _env_of_last(mistral, workflow):
    """The environment the workflow's last execution got."""
    execution = mistral.client().executions.get(
        executions_of(mistral, workflow)[-1].id)
    return jsonutils.loads(execution.params)['env']


def test_a_lone_surrogate_in_an_output_fails_create_by_name(
        heat, mistral, thing_store):
    ident = heat.create(_template('create_lone_word'),
                        params={'store': thing_store.url}, expect='FAILED')
    execution = executions_of(mistral, 'create_lone_word')[-1]
    assert ("BadWorkflowResult: resources.thing: CREATE workflow "
            "create_lone_word returned output 'word', where 'caf\\udce9' "
            "holds a lone surrogate, a character no UTF-8 text can carry: "
            "Heat cannot pass it on to the next workflow; the execution's "
            "outputs were not stored, Mistral execution %s still has them"
            % execution.id) in heat.show(ident)['stack_status_reason']
    # Nothing of it stored: the attribute holds the thing's id alone.
    thing_id = heat.physical_ids(ident)['thing']
    assert thing_store.things()[thing_id]['state'] == 'lone-word'
    rsrc = heat.resource(ident, 'thing', with_attr=['output'])
    assert rsrc['attributes']['output'] == {'resource_id': thing_id}

    heat.delete(ident)
    assert thing_id not in thing_store.things()
    sent = _env_of_last(mistral, 'thing_delete')['heat_extresource_data']
    assert sent == {'resource_id': thing_id}


def test_text_above_u_ffff_in_an_output_is_kept_and_passed_on(
        heat, mistral, thing_store):
    params = {'store': thing_store.url}
    ident = heat.create(_template('create_astral_word'), params=params)
    assert heat.outputs(ident)['word'] == ASTRAL

    heat.update(ident, _template('create_astral_word', size=2),
                params=params)
    sent = _env_of_last(mistral, 'echo_update')['heat_extresource_data']
    assert sent['word'] == ASTRAL
    assert heat.outputs(ident)['word'] == ASTRAL
    thing_id = heat.physical_ids(ident)['thing']
    heat.delete(ident)
    assert thing_id not in thing_store.things()


def _store_outputs_as_an_earlier_version(ident, outputs):
    """The thing's stored outputs replaced, as ASCII JSON, in the database.

    Earlier versions stored outputs holding a lone surrogate this way.
    """
    with db_api.get_engine().begin() as conn:
        changed = conn.execute(sqlalchemy.text(
            "UPDATE resource_data rd JOIN resource r ON rd.resource_id = "
            "r.id SET rd.value = :v WHERE r.stack_id = :s AND r.name = "
            "'thing' AND rd.`key` = 'outputs'"),
            {'v': jsonutils.dumps(outputs, ensure_ascii=True),
             's': ident['stack_id']}).rowcount
    assert changed == 1


def test_a_stored_lone_surrogate_is_kept_but_never_sent_again(
        heat, mistral, thing_store):
    params = {'store': thing_store.url}
    ident = heat.create(_template('create_astral_word'), params=params)
    thing_id = heat.physical_ids(ident)['thing']
    _store_outputs_as_an_earlier_version(
        ident, {'resource_id': thing_id, 'word': 'caf\udce9'})

    heat.update(ident, _template('create_astral_word', size=2),
                params=params)
    sent = _env_of_last(mistral, 'echo_update')['heat_extresource_data']
    assert sent == {'resource_id': thing_id}
    reasons = [e['resource_status_reason']
               for e in heat.events(ident, 'thing')]
    assert ("UPDATE workflow echo_update was not sent the held output "
            "'word': each holds a lone surrogate, stored by an earlier "
            "version, that no workflow can be sent; the output attribute "
            "still has it") in reasons
    output = heat.resource(ident, 'thing', with_attr=['output'])[
        'attributes']['output']
    assert output['word'] == 'caf\udce9' and output['size_seen'] == 2

    heat.delete(ident)
    assert thing_id not in thing_store.things()
    sent = _env_of_last(mistral, 'thing_delete')['heat_extresource_data']
    assert 'word' not in sent and sent['resource_id'] == thing_id
