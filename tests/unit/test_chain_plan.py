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
"""A resource chain's nested stack, planned without Heat.

Member names, dependencies, the template and what each attribute is made
of.
"""

import pytest

from heat_lifecycle_plugins.resources import chain_plan
from heat_lifecycle_plugins.resources.chain_plan import plan_member_names

OLD_TYPES = ['A', 'B', 'C']
OLD_NAMES = ['0', '1', '2']


def plan(new_types, old_types=OLD_TYPES, old_names=OLD_NAMES):
    return plan_member_names(old_types, old_names, new_types)


def test_unchanged_list_keeps_every_name():
    assert plan(['A', 'B', 'C']) == ['0', '1', '2']


def test_insert_mid_list_adds_one_fresh_name():
    # Position 1 is the kept B's name: the new entry gets a fresh one.
    assert plan(['A', 'X', 'B', 'C']) == ['0', '3', '1', '2']


def test_remove_mid_list_keeps_the_others():
    assert plan(['A', 'C']) == ['0', '2']


def test_reorder_recreates_the_moved_and_keeps_the_order():
    # Kept members never swap places (a cycle for Heat's convergence).
    assert plan(['C', 'A', 'B']) == ['3', '0', '1']
    assert plan(['B', 'A', 'C']) in (['1', '3', '2'], ['3', '0', '2'])


def test_alternating_types_keep_their_order():
    types = ['N', 'R'] * 5
    names = [str(i) for i in range(10)]
    removed = plan(types[:5] + types[6:], types, names)
    assert removed == ['0', '1', '2', '3', '4', '6', '7', '8', '9']
    inserted = plan(['R'] + types, types, names)
    assert inserted == ['10'] + names


def _random_plans(count=300, seed=7):
    """(old types, old names, new types, planned names), at random."""
    import random
    rng = random.Random(seed)
    for _ in range(count):
        old = [rng.choice('ABC') for _ in range(rng.randint(0, 12))]
        new = [rng.choice('ABC') for _ in range(rng.randint(0, 12))]
        names = [str(i) for i in range(len(old))]
        rng.shuffle(names)
        yield old, names, new, plan(new, old, names)


def test_kept_names_are_always_in_their_old_order():
    for old, names, new, got in _random_plans():
        type_of = dict(zip(names, old))
        kept = [names.index(n) for n, rtype in zip(got, new)
                if type_of.get(n) == rtype]
        assert kept == sorted(kept)
        assert len(set(got)) == len(got)


def test_every_new_member_takes_its_position_name_where_free():
    for old, names, new, got in _random_plans():
        type_of = dict(zip(names, old))
        kept = set(n for n, rtype in zip(got, new) if type_of.get(n) == rtype)
        for pos, (rtype, name) in enumerate(zip(new, got)):
            if name in kept:
                continue
            free = str(pos) not in kept and type_of.get(str(pos)) != rtype
            assert (name == str(pos)) == free, (old, names, new, got)


def test_a_chain_that_keeps_no_member_is_named_by_position():
    # The in-tree type's names: Heat replaces each same-named member whose
    # type changed and deletes the rest.
    assert plan(['N'], ['R', 'R'], ['0', '1']) == ['0']
    assert plan(['N'], ['R', 'R', 'R'], ['0', '1', '2']) == ['0']
    assert plan(['X', 'Y'], ['A', 'B'], ['7', '3']) == ['0', '1']


def test_an_insert_before_kept_members_keeps_their_names():
    assert plan(['X', 'A', 'B', 'C']) == ['3', '0', '1', '2']


def test_changed_type_takes_its_position_name():
    assert plan(['A', 'Y', 'C']) == ['0', '1', '2']


def test_a_position_name_held_by_a_kept_member_stays_fresh():
    # 'B' keeps '1' at position 0; the new entry at position 1 cannot
    # have '1', and '0' belongs to no kept member but is not its position.
    assert plan(['B', 'X'], ['A', 'B'], ['0', '1']) == ['1', '2']


def test_a_removed_member_of_the_same_type_keeps_its_name_to_itself():
    # A moved entry matched to nothing: at position 0 the old member '0'
    # is of its own type, which Heat would keep in place, with the
    # dependencies of its old position (a cycle with the kept 'A').
    assert plan(['B', 'A'], ['A', 'B'], ['3', '0']) == ['4', '3']


def test_duplicates_match_in_order():
    assert plan(['A', 'A'], ['A', 'B', 'A'], ['0', '1', '2']) == ['0', '2']
    assert plan(['A', 'A', 'A'], ['A', 'A'], ['0', '5']) == ['0', '5', '2']


def test_fresh_names_never_reuse_a_current_name():
    assert plan_member_names(['A', 'B'], ['7', '3'], ['X', 'Y'],
                             by_position=False) == ['8', '9']
    assert plan(['A', 'X', 'Y'], ['A', 'B'], ['1', '2']) == ['1', '3', '2']


def test_from_and_to_an_empty_chain():
    assert plan([], OLD_TYPES, OLD_NAMES) == []
    assert plan(['A', 'B'], [], []) == ['0', '1']


def test_index_names_are_the_in_tree_names():
    assert chain_plan.index_names(['A', 'B', 'A']) == ['0', '1', '2']
    assert chain_plan.index_names([]) == []


# -- dependencies ------------------------------------------------------------

NAMES = ['0', '1', '2', '3', '4']


def test_sequential_members_each_wait_for_the_one_before():
    deps = chain_plan.member_dependencies(NAMES, concurrent=False, limit=2)
    assert deps == {'0': [], '1': ['0'], '2': ['1'], '3': ['2'], '4': ['3']}


def test_concurrent_members_are_dealt_into_lanes():
    deps = chain_plan.member_dependencies(NAMES, concurrent=True, limit=2)
    assert deps == {'0': ['chain_start'], '1': ['chain_start'],
                    '2': ['0'], '3': ['1'], '4': ['2']}


def test_no_limit_is_one_lane_per_member():
    deps = chain_plan.member_dependencies(NAMES, concurrent=True, limit=0)
    assert deps == {name: ['chain_start'] for name in NAMES}


def test_a_concurrent_chain_of_one_needs_no_gate():
    assert chain_plan.member_dependencies(['7'], True, 10) == {'7': []}


def test_lanes_follow_list_order_not_names():
    deps = chain_plan.member_dependencies(['5', '0', '9'], True, 1)
    assert deps == {'5': ['chain_start'], '0': ['5'], '9': ['0']}


# -- template ----------------------------------------------------------------

def test_sequential_template():
    tmpl = chain_plan.chain_template(['A', 'B'], ['3', '1'], {'p': 1},
                                     concurrent=False, limit=10)
    assert tmpl == {
        'heat_template_version': '2015-04-30',
        'resources': {
            '3': {'type': 'A', 'properties': {'p': 1}},
            '1': {'type': 'B', 'properties': {'p': 1}, 'depends_on': ['3']},
        },
        'outputs': {},
    }


def test_concurrent_template_hangs_the_lanes_between_gates():
    types = ['A', 'B', 'C', 'D', 'E']
    tmpl = chain_plan.chain_template(types, NAMES, None, concurrent=True,
                                     limit=2)
    resources = tmpl['resources']
    assert resources['chain_start'] == {'type': 'OS::Heat::None'}
    # The last member of each lane: the others finish before those.
    assert resources['chain_end'] == {'type': 'OS::Heat::None',
                                      'depends_on': ['3', '4']}
    assert resources['0'] == {'type': 'A', 'depends_on': ['chain_start']}
    assert resources['4'] == {'type': 'E', 'depends_on': ['2']}
    assert 'properties' not in resources['2']


def test_more_lanes_than_members_ends_on_every_member():
    tmpl = chain_plan.chain_template(['A', 'B'], ['0', '1'], {}, True, 10)
    assert tmpl['resources']['chain_end']['depends_on'] == ['0', '1']


def test_an_empty_chain_is_an_empty_template():
    tmpl = chain_plan.chain_template([], [], {'p': 1}, True, 10,
                                     ['refs', ('attributes', 'x')])
    assert tmpl['resources'] == {}
    assert tmpl['outputs'] == {'refs': {'value': []},
                               'attributes, x': {'value': {}}}


# -- attributes --------------------------------------------------------------

MEMBERS = ['4', '0', '7']  # list positions 0, 1, 2 after some updates


def outputs(*referenced):
    return chain_plan.attribute_outputs(MEMBERS, referenced)


def test_refs_output_is_the_whole_list_whatever_the_path():
    refs = [{'get_resource': n} for n in MEMBERS]
    assert outputs('refs', ('refs', 1)) == {
        'refs': {'value': refs}, 'refs, 1': {'value': refs}}


def test_member_outputs_go_by_list_position():
    assert outputs('resource.1') == {
        'resource.1': {'value': {'get_resource': '0'}}}
    assert outputs('resource.2.kind', ('resource.0', 'kind', 'x')) == {
        'resource.2.kind': {'value': {'get_attr': ['7', 'kind']}},
        'resource.0, kind, x': {'value': {'get_attr': ['4', 'kind', 'x']}}}


def test_attributes_output_is_keyed_by_position():
    assert outputs(('attributes', 'kind')) == {'attributes, kind': {
        'value': {'0': {'get_attr': ['4', 'kind']},
                  '1': {'get_attr': ['0', 'kind']},
                  '2': {'get_attr': ['7', 'kind']}}}}


def test_any_other_attribute_is_a_list_of_the_members_attribute():
    assert outputs(('value', 'x')) == {'value, x': {'value': [
        {'get_attr': ['4', 'value', 'x']}, {'get_attr': ['0', 'value', 'x']},
        {'get_attr': ['7', 'value', 'x']}]}}


@pytest.mark.parametrize('referenced', [
    'resource.3', 'resource.9.kind', 'resource.x', 'resource.-1',
    'attributes'])
def test_attributes_without_a_value_get_no_output(referenced):
    assert outputs(referenced) == {}


@pytest.mark.parametrize('key, path, expected', [
    ('resource.1', (), True),
    ('resource.2.kind', (), True),
    ('resource.3', (), False),
    ('resource.first', (), False),
    ('attributes', (), False),
    ('attributes', ('kind',), True),
    ('refs', (), True),
    ('anything', (), True),
])
def test_has_value(key, path, expected):
    assert chain_plan.has_value(MEMBERS, key, path) is expected


def test_member_values_come_from_the_same_rules():
    # The accessors a chain uses when it reads its members directly.
    def ref(name):
        return 'id-%s' % name

    def attr(name, *path):
        return '%s:%s' % (name, '/'.join(path))

    def value(key, *path):
        return chain_plan.attribute_value(MEMBERS, key, path, ref, attr)

    assert value('refs') == ['id-4', 'id-0', 'id-7']
    assert value('refs', 1) == ['id-4', 'id-0', 'id-7']  # selected later
    assert value('resource.2') == 'id-7'
    assert value('resource.2.kind') == '7:kind'
    assert value('resource.0', 'kind', 'x') == '4:kind/x'
    assert value('attributes', 'kind') == {'0': '4:kind', '1': '0:kind',
                                           '2': '7:kind'}
    assert value('kind') == ['4:kind', '0:kind', '7:kind']


def test_output_names():
    assert chain_plan.output_name('refs') == 'refs'
    assert chain_plan.output_name('resource.0', 'a', 1) == 'resource.0, a, 1'
