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
"""Segments of a long chain, planned without Heat (chain_segments)."""

from heat_lifecycle_plugins.resources import chain_plan
from heat_lifecycle_plugins.resources import chain_segments as cs


def plan(old_types, old_names, old_segments, new_types, size=3):
    names = chain_plan.plan_member_names(old_types, old_names, new_types,
                                         by_position=False)
    return cs.plan_segments(old_names, old_segments, names, size)


def test_short_chains_are_not_segmented():
    assert cs.initial_segments(3, 3) is None
    assert cs.initial_segments(1000, 0) is None


def test_long_chains_are_split_evenly():
    assert cs.initial_segments(7, 3) == ['s0'] * 3 + ['s1'] * 2 + ['s2'] * 2
    assert cs.initial_segments(6, 3) == ['s0'] * 3 + ['s1'] * 3


TYPES = ['A', 'B', 'C', 'A', 'B', 'C']
NAMES = ['0', '1', '2', '3', '4', '5']
SEGS = ['s0', 's0', 's0', 's1', 's1', 's1']


def test_unchanged_list_keeps_names_and_segments():
    assert plan(TYPES, NAMES, SEGS, TYPES) == (NAMES, SEGS)


def test_insert_into_full_segments_makes_a_new_one():
    names, segs = plan(TYPES, NAMES, SEGS, ['X'] + TYPES)
    assert names == ['6'] + NAMES
    assert segs == ['s2'] + SEGS


def test_insert_joins_a_neighbour_with_room():
    segs5 = ['s0', 's0', 's1', 's1', 's1']
    names, segs = plan(TYPES[:5], NAMES[:5], segs5,
                       ['A', 'B', 'X', 'C', 'A', 'B'])
    assert names == ['0', '1', '5', '2', '3', '4']
    assert segs == ['s0', 's0', 's0', 's1', 's1', 's1']


def test_insert_inside_a_segment_stays_in_it_even_past_the_size():
    names, segs = plan(TYPES, NAMES, SEGS, ['A', 'X', 'B', 'C', 'A', 'B',
                                            'C'])
    assert names == ['0', '6', '1', '2', '3', '4', '5']
    assert segs == ['s0'] * 4 + ['s1'] * 3


def test_removal_keeps_the_others_and_drops_empty_segments():
    assert plan(TYPES, NAMES, SEGS, ['A', 'B', 'C']) == (
        NAMES[:3], SEGS[:3])
    # Matched in order: C A B C is the old list without its first two.
    assert plan(TYPES, NAMES, SEGS, ['C', 'A', 'B', 'C']) == (
        ['2', '3', '4', '5'], ['s0', 's1', 's1', 's1'])
    # Every member of s0 removed: s0 is gone.
    assert plan(list('ABCDEF'), NAMES, SEGS, ['E', 'F']) == (
        ['4', '5'], ['s1', 's1'])


def test_a_member_moved_across_segments_is_recreated_with_a_fresh_name():
    # X (s1) moves to the front, before the members of s0.
    types = ['A', 'B', 'C', 'X', 'B', 'C']
    names, segs = plan(types, NAMES, SEGS, ['X', 'A', 'B', 'C', 'B', 'C'])
    assert names[1:] == ['0', '1', '2', '4', '5']
    assert names[0] not in NAMES
    assert segs[1:] == SEGS[:3] + ['s1', 's1']
    # It does not go back to s1, which lost it.
    assert segs[0] not in ('s1',)


def test_every_segment_is_one_contiguous_run():
    types = ['A', 'B'] * 6
    names = [str(i) for i in range(12)]
    segs = cs.initial_segments(12, 3)
    new_types = ['B', 'A'] * 3 + ['X'] + ['A', 'B'] * 3
    new_names, new_segs = plan(types, names, segs, new_types)
    runs = [s for i, s in enumerate(new_segs)
            if i == 0 or new_segs[i - 1] != s]
    assert len(runs) == len(set(runs))
    assert len(new_names) == len(set(new_names)) == 13


def test_member_locations_index_within_the_segment():
    assert cs.member_locations(['s0', 's0', 's2', 's2', 's2']) == [
        ('s0', 0), ('s0', 1), ('s2', 0), ('s2', 1), ('s2', 2)]


def test_segment_limit_keeps_the_chain_within_its_limit():
    assert cs.segment_limit(3, 10) == 3
    assert cs.segment_limit(40, 10) == 1
    assert cs.segment_limit(2, 0) == 0


def test_segmented_template_sequential_and_concurrent():
    tmpl = cs.segmented_template('OS::Heat::ResourceChain', ['A', 'B', 'C'],
                                 ['s0', 's0', 's1'], {'v': 1}, False, 10,
                                 ['refs', ('resource.2', 'kind')])
    res = tmpl['resources']
    assert res['s0']['properties'] == {
        'resources': ['A', 'B'], 'concurrent': False,
        'concurrency_limit': 5, 'resource_properties': {'v': 1}}
    assert res['s1']['depends_on'] == ['s0']
    assert tmpl['outputs']['refs']['value'] == [
        {'get_attr': ['s0', 'resource.0']}, {'get_attr': ['s0', 'resource.1']},
        {'get_attr': ['s1', 'resource.0']}]
    assert tmpl['outputs']['resource.2, kind']['value'] == {
        'get_attr': ['s1', 'resource.0', 'kind']}
    tmpl = cs.segmented_template('T', ['A', 'B', 'C'], ['s0', 's0', 's1'],
                                 None, True, 10)
    res = tmpl['resources']
    assert res['s0']['depends_on'] == res['s1']['depends_on'] == [
        chain_plan.START_GATE]
    assert 'resource_properties' not in res['s0']['properties']


# -- a flat chain grown past the flat size: direct members and segments ---

D = cs.DIRECT
FLAT_NAMES = ['0', '1', '2', '3']
FLAT_TYPES = ['A', 'B', 'C', 'A']


def grow(new_types, old_types=FLAT_TYPES, old_names=FLAT_NAMES,
         old_segments=None):
    return plan(old_types, old_names,
                old_segments or [D] * len(old_names), new_types)


def test_a_grown_flat_chain_keeps_its_members_direct_and_named():
    names, segments = grow(FLAT_TYPES + ['B', 'C', 'A', 'B', 'C'])
    assert names[:4] == FLAT_NAMES
    assert segments == [D] * 4 + ['s0'] * 3 + ['s1'] * 2
    # Fresh names for the new members: no direct member's name again.
    assert not set(names[4:]) & set(FLAT_NAMES)


def test_new_entries_among_direct_members_go_into_segments():
    names, segments = grow(['X'] + FLAT_TYPES[:2] + ['X'] + FLAT_TYPES[2:])
    assert [n for n, s in zip(names, segments) if s is D] == FLAT_NAMES
    assert segments == ['s0', D, D, 's1', D, D]


def test_a_grown_chain_updated_keeps_direct_and_segment_members():
    types = FLAT_TYPES + ['B', 'C', 'A', 'B', 'C']
    names, segments = grow(types)
    # Change no type, delete a direct member and a segment member, add one.
    new_types = types[:1] + types[2:5] + types[6:] + ['X']
    new_names, new_segments = plan(types, names, segments, new_types)
    assert new_names[:3] == [names[0]] + names[2:4]
    assert new_segments[:3] == [D, D, D]
    kept = dict(zip(names, segments))
    for name, seg in zip(new_names, new_segments):
        if name in kept:
            assert seg == kept[name], name
    assert new_segments[3:] == ['s0', 's0', 's1', 's1', 's1']


def test_direct_members_never_move_nor_take_new_entries():
    segments = [D, D, 's0', 's0']
    names, new = plan(['A', 'B', 'C', 'A'], ['0', '1', '7', '8'], segments,
                      ['A', 'X', 'B', 'C', 'A'])
    assert names[0] == '0' and names[2] == '1'
    assert new == [D, 's1', D, 's0', 's0']


def test_direct_members_in_the_template_and_its_outputs():
    tmpl = cs.segmented_template('T', ['A', 'B', 'C', 'A'],
                                 [D, D, 's0', 's0'], None, False, 10,
                                 ['refs', ('resource.1', 'kind')],
                                 names=['0', '5', '7', '8'])
    res = tmpl['resources']
    assert set(res) == {'0', '5', 's0'}
    assert res['0'] == {'type': 'A'}
    assert res['5']['depends_on'] == ['0']
    assert res['s0']['depends_on'] == ['5']
    assert res['s0']['properties']['resources'] == ['C', 'A']
    assert tmpl['outputs']['refs']['value'] == [
        {'get_resource': '0'}, {'get_resource': '5'},
        {'get_attr': ['s0', 'resource.0']}, {'get_attr': ['s0', 'resource.1']}]
    assert tmpl['outputs']['resource.1, kind']['value'] == {
        'get_attr': ['5', 'kind']}
    tmpl = cs.segmented_template('T', ['A', 'B', 'C'], [D, D, 's0'], None,
                                 True, 10, names=['0', '1', '2'])
    res = tmpl['resources']
    assert res['0']['depends_on'] == res['s0']['depends_on'] == [
        chain_plan.START_GATE]
    assert cs.member_locations([D, 's0', 's0'], ['4', '5', '6']) == [
        (D, '4'), ('s0', 0), ('s0', 1)]
    assert cs.segment_order([D, 's0', D, 's1']) == ['s0', 's1']


def test_direct_members_and_segments_share_the_concurrency_limit():
    # 9 direct members and a segment fill 10 lanes: one member at a time
    # in the segment keeps the chain within its limit of 10.
    tmpl = cs.segmented_template('T', ['A'] * 12, [D] * 9 + ['s0'] * 3,
                                 None, True, 10, names=[str(i) for i in
                                                        range(12)])
    assert tmpl['resources']['s0']['properties']['concurrency_limit'] == 1
    tmpl = cs.segmented_template('T', ['A'] * 8, [D] * 2 + ['s0'] * 6,
                                 None, True, 10, names=[str(i) for i in
                                                        range(8)])
    assert tmpl['resources']['s0']['properties']['concurrency_limit'] == 3
