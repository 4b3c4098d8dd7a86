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
"""The stored form of a component and the checks of its configs list."""

from heat_lifecycle_plugins.resources import component_config as cc


def entry(tool, actions=None, config='x'):
    e = {'tool': tool, 'config': config}
    if actions is not None:
        e['actions'] = actions
    return e


def test_each_entry_gets_shared_options_and_only_its_tool_section():
    configs = [entry('puppet', ['CREATE']), entry('chef', ['DELETE']),
               entry('script', ['SUSPEND'])]
    options = {'puppet': {'modulepath': '/m'}, 'chef': {'runlist': ['r']},
               'debug': True}
    stored = cc.stored_configs(configs, options)
    assert [s['options'] for s in stored] == [
        {'puppet': {'modulepath': '/m'}, 'debug': True},
        {'chef': {'runlist': ['r']}, 'debug': True},
        {'debug': True},
    ]
    assert [s['actions'] for s in stored] == [['CREATE'], ['DELETE'],
                                              ['SUSPEND']]


def test_a_key_named_like_an_unused_tool_is_shared():
    stored = cc.stored_configs([entry('script', ['CREATE'])],
                               {'ansible': {'v': 1}})
    assert stored[0]['options'] == {'ansible': {'v': 1}}


def test_missing_actions_are_stored_as_the_default():
    stored = cc.stored_configs([entry('script')], None)
    assert stored == [{'actions': ['CREATE', 'UPDATE'], 'config': 'x',
                       'tool': 'script', 'options': {}}]


def test_handled_actions_of_a_stored_component():
    sc = {'group': 'component', 'config': {'configs': cc.stored_configs(
        [entry('a', ['CREATE', 'RESUME']), entry('b', ['DELETE'])], {})}}
    assert cc.is_component(sc)
    assert cc.handled_actions(sc) == {'CREATE', 'RESUME', 'DELETE'}
    assert not cc.is_component({'group': 'script', 'config': 'x'})


def test_problems_are_all_reported_with_index_and_value():
    found = cc.problems([entry('', ['create', 'CREATE']), 'oops',
                         entry('t', ['CREATE', None])])
    assert found == [
        "configs[0].tool is required and must not be empty (got '')",
        "configs[0].actions: 'create' is not an action; did you mean "
        "'CREATE'? (actions are CREATE, DELETE, SUSPEND, RESUME, UPDATE or "
        "custom upper-case identifiers such as BACKUP ([A-Z][A-Z0-9_]*))",
        "configs[1] must be a map with actions, config and tool, not 'oops'",
        "configs[2].actions: action 'CREATE' is already handled by "
        "configs[0]; an action may appear in at most one entry (an entry "
        "without actions handles CREATE and UPDATE)",
    ]


def test_custom_actions_are_handled_like_lifecycle_ones():
    configs = [entry('a', ['CREATE', 'BACKUP']), entry('b', ['DRAIN'])]
    assert cc.problems(configs) == []
    sc = {'group': 'component', 'config': {'configs': cc.stored_configs(
        configs, {})}}
    assert cc.handled_actions(sc) == {'CREATE', 'BACKUP', 'DRAIN'}
    assert cc.problems([entry('a', ['BACKUP']), entry('b', ['BACKUP'])]) == [
        "configs[1].actions: action 'BACKUP' is already handled by "
        "configs[0]; an action may appear in at most one entry (an entry "
        "without actions handles CREATE and UPDATE)"]


def test_unresolved_values_are_left_for_later():
    assert cc.problems(None) == []
    assert cc.problems([entry('t', [None])]) == []


def test_an_integer_or_boolean_config_is_stored_as_text_as_in_tree():
    """An integer or boolean config is stored as text, as in-tree.

    The in-tree entry's config is a string property, which turns 5 and true
    into "5" and "True"; ours accepts them the same way.
    """
    configs = [entry('script', ['CREATE'], config=5),
               entry('script', ['DELETE'], config=True)]
    assert cc.problems(configs) == []
    assert [s['config'] for s in cc.stored_configs(configs, {})] == [
        '5', 'True']


def test_a_list_or_float_config_is_refused_naming_the_entry():
    assert cc.problems([entry('script', config=1.5)]) == [
        'configs[0].config must be a string or a map, not 1.5']
    assert cc.problems([entry('script', config=['a'])]) == [
        "configs[0].config must be a string or a map, not ['a']"]
