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
"""Names, tokens and ids that Heat stores as they are, bad at run time.

A deployment's `name` (the derived config's name, VARCHAR(255)) and a
request token (resource data, events) reach Heat's database whole, so a
bad one is refused by name when the action runs; an execution id Mistral
returns becomes the physical id and is quoted in events, written by Heat;
a replace_decision is decided before Heat records an UPDATE. Each comes
through get_attr (validation cannot see it); the stack ends with a reason
naming what was wrong, stored as the database holds it, and deletes.
"""

import copy
import json

import pytest

from heat_lifecycle_fixtures import mistral_server
from tests.functional.external_resource import conftest as external
from tests.fuzz import checks_templates
from tests.fuzz import templates

BAD_TEXT = {'300 characters': 'n' * 300, 'above U+FFFF': 'n\U0001f600'}
# What the refusal of each says.
SAYS = {'300 characters': 'Heat stores at most 255',
        'above U+FFFF': 'cannot store'}
GET_ATTR = {'get_attr': [templates.BAD, 'value']}
# Text no UTF-8 carries, which no Mistral can take, and what its refusal
# says: the value escaped.
LONE = 'caf\udce9'
LONE_SAID = ('thing', 'lone surrogate', repr(LONE)[1:-1])


def _engine():
    return checks_templates.ENGINE


def _with_value(template, value):
    template = copy.deepcopy(template)
    template['resources'][templates.BAD] = {
        'type': 'OS::Heat::Value', 'properties': {'value': value}}
    return template


def _deployment(**props):
    template = templates.template('component',
                                  templates.RUN_TIME['component'])
    template['resources']['deployment']['properties'].update(props)
    return template


def _ended(ident, action, expect='FAILED'):
    state = _engine().show(ident, resolve_outputs=False)
    assert (state['stack_action'], state['stack_status']) == (
        action, expect), state
    checks_templates.reasons_are_storable(ident)
    return state['stack_status_reason']


def _says(reason, *parts):
    for part in parts:
        assert part in reason, (part, reason)


def _create_fails(template, *parts):
    engine = _engine()
    ident = engine.create(template, expect=None)
    try:
        _says(_ended(ident, 'CREATE'), *parts)
    finally:
        engine.delete(ident)


def _update_fails(before, after, *parts):
    engine = _engine()
    ident = engine.create(before)
    try:
        engine.update(ident, after, expect=None)
        _says(_ended(ident, 'UPDATE'), *parts)
    finally:
        engine.delete(ident)


# -- a deployment's name -----------------------------------------------------

@pytest.mark.parametrize('bad', sorted(BAD_TEXT))
def test_a_bad_deployment_name_fails_create_by_name_and_deletes(
        checked_engine, bad):
    """Once "RemoteError" (the derived config's VARCHAR(255) name)."""
    _create_fails(_with_value(_deployment(name=GET_ATTR), BAD_TEXT[bad]),
                  'deployment', 'Properties.name', SAYS[bad])


@pytest.mark.parametrize('bad', sorted(BAD_TEXT))
def test_a_deployment_name_made_bad_by_an_update_fails_it_and_deletes(
        checked_engine, bad):
    """DELETE's derived config is named as CREATE's was: it completes."""
    template = _deployment(name=GET_ATTR)
    _update_fails(_with_value(template, 'deploy-1'),
                  _with_value(template, BAD_TEXT[bad]),
                  'deployment', 'Properties.name', SAYS[bad])


# -- a request token ---------------------------------------------------------

def _token_places():
    external = templates.template('external', templates.RUN_TIME['external'])
    return {'SoftwareDeployment': (_deployment(), 'deployment'),
            'ExternalResource': (external, 'thing')}


@pytest.mark.parametrize('bad', sorted(BAD_TEXT))
@pytest.mark.parametrize('type_name', ['ExternalResource',
                                       'SoftwareDeployment'])
def test_a_bad_request_token_fails_the_update_by_name_and_deletes(
        checked_engine, type_name, bad):
    """Once the update failed with a database error as its reason."""
    template, resource = _token_places()[type_name]
    after = copy.deepcopy(template)
    after['resources'][resource]['properties']['action_request'] = GET_ATTR
    _update_fails(template, _with_value(after, BAD_TEXT[bad]), resource,
                  'Properties.action_request', SAYS[bad])


@pytest.mark.parametrize('type_name', ['ExternalResource',
                                       'SoftwareDeployment'])
def test_a_bad_request_token_fails_create_by_name_and_deletes(
        checked_engine, type_name):
    template, resource = _token_places()[type_name]
    template['resources'][resource]['properties']['action_request'] = \
        GET_ATTR
    _create_fails(_with_value(template, 'n' * 300), resource,
                  'Properties.action_request', SAYS['300 characters'])


# -- an execution id Mistral returns ----------------------------------------

def _thing(description, size=1):
    """An ExternalResource with CREATE, UPDATE and DELETE workflows.

    The fixture's Mistral starts an execution whose description begins
    with mistral_server.CHOSEN_ID with the rest as its id.
    """
    workflow = {'workflow': 'echo_size_only'}
    return _with_value({
        'heat_template_version': '2016-10-14',
        'resources': {'thing': {
            'type': 'OS::Mistral::ExternalResource', 'properties': {
                'actions': {'CREATE': workflow, 'UPDATE': workflow,
                            'DELETE': workflow},
                'input': {'size': size}, 'description': GET_ATTR}}}},
        description)


def _chosen(bad):
    return mistral_server.CHOSEN_ID + BAD_TEXT[bad]


UNKEPT = ('thing', 'an execution Heat cannot keep')


@pytest.mark.parametrize('bad', sorted(BAD_TEXT))
def test_an_execution_id_heat_cannot_keep_fails_create_and_deletes(
        checked_engine, bad):
    """Nothing held: DELETE has nothing to clean up and runs no workflow."""
    _create_fails(_thing(_chosen(bad)), *UNKEPT)


def test_a_description_mistral_cannot_take_fails_create_by_name(
        checked_engine):
    """A lone surrogate (the long fuzz search's find, 2026-11-28).

    Once Mistral answered HTTP 500; now it is refused before it is sent.
    """
    _create_fails(_thing(mistral_server.CHOSEN_ID + LONE), *LONE_SAID)


@pytest.mark.parametrize('bad', sorted(BAD_TEXT))
def test_an_execution_id_heat_cannot_keep_fails_update_and_deletes(
        checked_engine, bad):
    """The UPDATE workflow's execution; DELETE runs with the CREATE id."""
    engine = _engine()
    ident = engine.create(_thing('a thing'))
    try:
        engine.update(ident, _thing(_chosen(bad), size=2), expect=None)
        _says(_ended(ident, 'UPDATE'), *UNKEPT)
        # Heat keeps the failed update's description: DELETE would start
        # its execution with the same id; a good one lets it delete.
        engine.update(ident, _thing('a thing', size=3), expect=None)
    finally:
        engine.delete(ident)


@pytest.mark.parametrize('bad', sorted(BAD_TEXT))
def test_an_execution_id_heat_cannot_keep_fails_delete_then_deletes(
        checked_engine, mistral, bad):
    """DELETE_FAILED by name, nothing wedged; deleted once Mistral is fixed.

    Changing the description alone starts no execution. Heat updates no
    stack whose DELETE failed: the fixed Mistral lets it delete.
    """
    engine = _engine()
    ident = engine.create(_thing('a thing'))
    try:
        engine.update(ident, _thing(_chosen(bad)))
        engine.delete(ident, expect='FAILED')
        _says(_ended(ident, 'DELETE'), *UNKEPT)
    finally:
        mistral.fix_ids()
        try:
            engine.delete(ident)
        finally:
            mistral.fix_ids(False)


# -- replace_decision -------------------------------------------------------

def _deciding(size, actions=None):
    """A thing whose input change asks a workflow that fails quoting it."""
    return _with_value({
        'heat_template_version': '2016-10-14',
        'resources': {'thing': {
            'type': 'OS::Mistral::ExternalResource', 'properties': {
                'actions': actions or {'CREATE': {'workflow': 'echo_create'}},
                'replace_decision': {'workflow': 'fail_quoting_size'},
                'input': {'size': GET_ATTR}}}}}, size)


def test_a_replace_decision_failing_on_text_above_u_ffff_fails_the_update(
        checked_engine):
    """The workflow fails quoting the value: the reason is storable."""
    _update_fails(_deciding(2), _deciding('n\U0001f600'), 'thing',
                  'fail_quoting_size ended ERROR', 'size n\ufffd')


def test_an_input_heat_refuses_in_the_replace_decision_fails_the_update(
        checked_engine):
    """Read before Heat records the UPDATE: once not a ResourceFailure."""
    template = _deciding(2)
    after = copy.deepcopy(template)
    after['resources']['thing']['properties']['input'] = GET_ATTR
    _update_fails(template, _with_value(after, 'n\U0001f600'), 'thing',
                  'input')


def test_a_replace_decision_input_mistral_cannot_take_fails_the_update(
        checked_engine, mistral):
    """The long fuzz search's find (2026-11-28): Mistral stopped answering.

    The decision runs before Heat checks the update's properties: refused
    there, naming the input, before anything is sent.
    """
    workflow = {'workflow': 'echo_create'}
    actions = {'CREATE': workflow, 'DELETE': workflow}
    before = len(external.executions_of(mistral, 'echo_create'))
    _update_fails(_deciding(2, actions), _deciding(LONE, actions),
                  'properties.input', *LONE_SAID)
    # CREATE, then DELETE with the input the thing was created with.
    ran = external.executions_of(mistral, 'echo_create')[before:]
    assert [json.loads(e.input)['size'] for e in ran] == [2, 2]


def test_requested_inputs_mistral_cannot_take_fail_the_update(
        checked_engine):
    """action_inputs of a request, through get_attr."""
    template = templates.template('external', templates.RUN_TIME['external'])
    after = copy.deepcopy(template)
    after['resources']['thing']['properties'].update(
        action_request='rotate-1', action_inputs=GET_ATTR)
    _update_fails(template, _with_value(after, {'size': [LONE]}),
                  'action_inputs', *LONE_SAID)
