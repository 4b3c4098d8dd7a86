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
"""Values that arrive through get_attr end a stack, never wedge it.

Heat validates properties again when the action runs, so a message about
a value known only then becomes the resource's and the stack's stored
reason; one the database cannot hold left the stack IN_PROGRESS for good.
These run on every series (the fuzz tier, which found them, on the newest
only): each of our four types given a value above U+FFFF, a lone
surrogate or an over-long value through an OS::Heat::Value, then deleted.
"""

import pytest

from tests.fuzz import checks_templates
from tests.fuzz import templates

VALUES = {'above U+FFFF': '\U0001f600', 'lone surrogate': 'caf\udce9',
          'over-long': 'x' * 70000}
GET_ATTR = {'get_attr': [templates.BAD, 'value']}
# (template, resource, property, where in it the value goes); a
# component's config is a string or a map: a list is quoted back.
PLACES = {
    'SoftwareComponent': ('config', 'component', 'configs',
                          ('configs', 0, 'config')),
    'SoftwareDeployment': ('component', 'deployment', 'actions',
                           ('actions', 0)),
    'ResourceChain': ('chain', 'chain', 'resources', ('resources', 0)),
    # Heat's own wording quotes it: '"..." is not a list'.
    'ResourceChain list': ('chain', 'chain', 'resources', ('resources',)),
    'ExternalResource': ('external', 'thing', 'actions',
                         ('actions', 'CREATE', 'workflow')),
    # The long fuzz search's find (2026-11-26): the whole map a string;
    # the DELETE's error quoted it and the stack stayed DELETE_IN_PROGRESS.
    'ExternalResource map': ('external', 'thing', 'actions', ('actions',)),
    # The next search's find (2026-11-26): the DELETE workflow's name came
    # at run time after CREATE made the thing; DELETE failed for good.
    # CREATE now checks it first and fails; nothing made, DELETE completes.
    'ExternalResource DELETE': ('external', 'thing', 'actions',
                                ('actions', 'DELETE', 'workflow')),
    # The hour-long search's find (2026-11-26): the DELETE's params.env a
    # string at run time; every DELETE failed on it. CREATE (and UPDATE)
    # now check each env once resolved; nothing made, DELETE completes.
    'ExternalResource DELETE env': ('external', 'thing', 'actions',
                                    ('actions', 'DELETE', 'params', 'env')),
    # The hour-long search's find (2026-11-27): the deployment's config id
    # at run time. CREATE failed; DELETE looked the id up, MariaDB refused
    # the comparison (utf8mb4 text, utf8mb3 column): DELETE_FAILED for good.
    'SoftwareDeployment config': ('component', 'deployment', 'config',
                                  ('config',)),
    # The next hour's find (2026-11-27): input_values a string at run time.
    # CREATE failed before delivering anything; DELETE built the DELETE
    # entry's config from the same property and failed for good. Nothing
    # delivered, nothing to undo: DELETE now runs no config then.
    'SoftwareDeployment input_values': ('component', 'deployment',
                                        'input_values', ('input_values',)),
    # The focused search's find (2026-11-27): signal_transport not allowed.
    # CREATE failed before storing; DELETE stored a deployment and waited
    # for a signal no agent could send. A deployment never stored whose
    # properties fail now delivers no DELETE.
    'SoftwareDeployment signal_transport': (
        'component', 'deployment', 'signal_transport',
        ('signal_transport',)),
    # Where the next focused search's 1 MiB input went (below).
    'ExternalResource input': ('external', 'thing', 'input',
                               ('input', 'size')),
}


def run_time_case(type_name, value):
    name, resource, prop, path = PLACES[type_name]
    template = templates.template(name, templates.RUN_TIME[name])
    if type_name == 'SoftwareComponent':
        value = [value]
    template['resources'][templates.BAD] = {
        'type': 'OS::Heat::Value', 'properties': {'value': value}}
    parent = template['resources'][resource]['properties']
    for step in path[:-1]:
        parent = (parent.setdefault(step, {}) if isinstance(parent, dict)
                  else parent[step])
    parent[path[-1]] = GET_ATTR
    return (name, template, {}, resource, prop)


@pytest.mark.parametrize('value', sorted(VALUES))
@pytest.mark.parametrize('type_name', sorted(PLACES))
def test_a_bad_value_through_get_attr_fails_and_deletes(checked_engine,
                                                        type_name, value):
    checks_templates.run_time_value(run_time_case(type_name, VALUES[value]))


# -- cases the fuzz tier's long runs found, each once a defect ---------------

def test_a_workflow_echoing_an_input_too_big_to_keep_deletes(
        checked_engine):
    """The focused search's find (2026-11-27): DELETE_FAILED for good.

    An input of 1 MiB through get_attr, which the workflows echo: CREATE
    fails on outputs over mistral_max_output_bytes; DELETE's workflow
    echoed it too and failed on them at every retry.
    """
    checks_templates.run_time_value(
        run_time_case('ExternalResource input', 'x' * 1048576))


@pytest.mark.parametrize('prop', ['config', 'server'])
def test_an_id_the_database_cannot_hold_is_refused_by_name(checked_engine,
                                                           prop):
    """Once a traceback in the engine (its lookup by a lone surrogate)."""
    template = templates.template('component')
    template['resources']['deployment']['properties'][prop] = 'caf\udce9'
    checks_templates.refused_by_name(
        ('component', template, 'deployment', prop))


def test_a_chain_update_quoting_text_above_u_ffff_fails_and_deletes(
        checked_engine):
    """Once a stack UPDATE_IN_PROGRESS for good, then DELETE_IN_PROGRESS.

    The members' validation quoted the value; its U+22098 failed the write
    of the chain's UPDATE_FAILED reason inside check_resource.
    """
    template = templates.template('chain')
    template['resources']['chain']['properties'] = {
        'resources': ['OS::Heat::Value', 'OS::Heat::Value'],
        'concurrent': False,
        'concurrency_limit': 2,
        'resource_properties': {
            'type': 'string',
            'value': [{'\xa9': False}, [True],
                      ['', None, 4.102222777577726e+16, None],
                      {'\xb7\x0c\x83\x02\U00022098' '6': None}]}}
    checks_templates.update_keeps_the_rest(
        ('chain', template, 'chain', 'resource_properties'))


def test_an_unknown_property_above_u_ffff_is_refused_by_name(
        checked_engine):
    """Named as the database holds it: the create's check quotes it so."""
    template = templates.template('chain')
    template['resources']['chain']['properties']['\U00010000'] = None
    checks_templates.dry_run(('chain', template, 'chain', '\U00010000'))


def test_an_update_whose_new_value_heat_refuses_fails_and_deletes(
        checked_engine):
    """Heat's check of the new properties, before handle_update, quotes it.

    The chain's list comes from a Value the same update changes into text
    above U+FFFF: '"..." is not a list' is the chain's UPDATE_FAILED
    reason, written as storable text.
    """
    engine = checks_templates.ENGINE

    def template(value):
        return {'heat_template_version': '2016-10-14', 'resources': {
            templates.BAD: {'type': 'OS::Heat::Value',
                            'properties': {'value': value}},
            'chain': {'type': 'OS::Heat::ResourceChain',
                      'properties': {'resources': GET_ATTR}}}}
    ident = engine.create(template(['OS::Heat::None']))
    try:
        engine.update(ident, template('\U0001f600'), expect=None)
        state = engine.show(ident, resolve_outputs=False)
        assert (state['stack_action'], state['stack_status']) == (
            'UPDATE', 'FAILED'), state
        assert '\ufffd' in state['stack_status_reason'], state
        checks_templates.reasons_are_storable(ident)
    finally:
        engine.delete(ident)


@pytest.mark.parametrize('place, good, bad', [
    ('SoftwareDeployment signal_transport', 'NO_SIGNAL', '\U0001f600'),
    ('SoftwareDeployment input_values', {'label': 'y'}, 'caf\udce9')])
def test_a_delivered_deployment_updated_to_a_bad_value_deletes(
        checked_engine, place, good, bad):
    """A deployment stored, then an update Heat refuses: DELETE completes.

    The refused properties are never the deployment's: its DELETE is built
    from those CREATE delivered with.
    """
    engine = checks_templates.ENGINE
    ident = engine.create(run_time_case(place, good)[1])
    try:
        engine.update(ident, run_time_case(place, bad)[1], expect='FAILED')
        checks_templates.reasons_are_storable(ident)
    finally:
        engine.delete(ident)
