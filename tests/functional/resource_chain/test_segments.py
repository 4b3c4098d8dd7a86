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
"""Chains longer than chain_segment_size: members spread over segments.

The segment size is set to 3 here, so that a chain of a few members shows
every case a chain of thousands meets (benchmarks/ runs those).
"""

from oslo_config import cfg
import pytest

from heat.engine import resources
from heat.engine.resources.openstack.heat import resource_chain as in_tree

from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import releases
from heat_lifecycle_plugins.resources import chain_shape
from heat_lifecycle_plugins.resources import resource_chain as ours
from tests.functional.resource_chain import chain_members
from tests.functional.resource_chain.templates import ATTRIBUTES
from tests.functional.resource_chain.templates import CHAIN
from tests.functional.resource_chain.templates import params

A, B, C, D, E, X, Y, Z = ('Test::Chain::%s' % n for n in 'ABCDEXYZ')
SIZE = 3
GROUP = 'heat_lifecycle_plugins'

POSITIONS = CHAIN + '''
  fifth: {value: {get_attr: [chain, resource.4]}}
  fifth_kind: {value: {get_attr: [chain, resource.4.kind]}}
  values: {value: {get_attr: [chain, value]}}
  kind_by_index: {value: {get_attr: [chain, attributes, kind]}}
'''


@pytest.fixture
def segments_of_3(chain_engine):
    cfg.CONF.set_override('chain_segment_size', SIZE, group=GROUP)
    yield chain_engine
    cfg.CONF.clear_override('chain_segment_size', group=GROUP)


def refs(engine, ident):
    return engine.outputs(ident)['refs']


def layout(engine, ident):
    """{segment: [member names]} of the chain's nested stack, and members.

    Nested depth 2: the chain's nested stack holds the segments, each
    segment's nested stack the members.
    """
    rows = engine.resources(ident, nested_depth=2)
    segments = {r['resource_name'] for r in rows
                if r.get('parent_resource') == 'chain'}
    members = [r for r in rows if r.get('parent_resource') in segments]
    return segments, members


def test_a_long_chain_is_created_in_segments_in_list_order(segments_of_3,
                                                           group):
    engine = segments_of_3
    types = [A, B, C, A, B, C, A]
    ident = engine.create(POSITIONS, params=params(types, group))
    segments, members = layout(engine, ident)
    assert segments == {'s0', 's1', 's2'}
    assert len(members) == 7
    assert chain_members.events(group) == [
        (event, rtype) for rtype in types
        for event in ('create-start', 'create-end')]
    out = engine.outputs(ident)
    assert out['kinds'] == types
    assert len(set(out['refs'])) == 7
    assert out['fifth'] == out['refs'][4]
    assert out['fifth_kind'] == B
    assert out['values'] == ['v1'] * 7
    assert out['kind_by_index'] == {str(i): t for i, t in enumerate(types)}
    # Attributes the template does not reference are read through the
    # segments.
    chain = engine.resource(ident, 'chain', with_attr=['resource.6', 'kind'])
    assert chain['attributes']['resource.6'] == out['refs'][6]
    assert chain['attributes']['kind'] == types


def test_insert_and_removal_touch_only_their_members(segments_of_3, group):
    engine = segments_of_3
    types = [A, B, C, A, B, C]
    ident = engine.create(POSITIONS, params=params(types, group))
    before = refs(engine, ident)
    seen = len(chain_members.events(group))

    # Insert at 0: a new member, no other member replaced.
    engine.update(ident, POSITIONS, params=params([X] + types, group))
    after = refs(engine, ident)
    assert after[1:] == before
    assert chain_members.events(group)[seen:] == [
        ('create-start', X), ('create-end', X)]
    assert engine.outputs(ident)['kinds'] == [X] + types
    seen = len(chain_members.events(group))

    # Remove mid-list (the third A): only that member goes.
    engine.update(ident, POSITIONS, params=params([X, A, B, C, B, C],
                                                  group))
    assert refs(engine, ident) == after[:4] + after[5:]
    assert chain_members.events(group)[seen:] == [('delete', A)]
    out = engine.outputs(ident)
    assert out['fifth'] == after[5]
    assert out['fifth_kind'] == B


def test_properties_change_in_place_in_every_segment(segments_of_3, group):
    engine = segments_of_3
    types = [A, B, C, A, B]
    ident = engine.create(POSITIONS, params=params(types, group))
    members = refs(engine, ident)
    seen = len(chain_members.events(group))
    engine.update(ident, POSITIONS, params=params(
        types, group, value='v2', concurrent=True, limit=2))
    assert refs(engine, ident) == members
    assert sorted(chain_members.events(group)[seen:]) == sorted(
        ('update', t) for t in types)
    assert engine.outputs(ident)['values'] == ['v2'] * 5


def test_concurrent_segments_stay_within_the_limit(segments_of_3, group):
    engine = segments_of_3
    types = [A, B, C, A, B, C, A]
    ident = engine.create(CHAIN, params=params(types, group, concurrent=True,
                                               limit=2, rendezvous=2))
    assert chain_members.most_creating(group) == 2
    assert engine.outputs(ident)['kinds'] == types


def test_a_reorder_across_segments_recreates_only_the_moved(segments_of_3,
                                                            group):
    engine = segments_of_3
    types = [A, B, C, X, B, C]
    ident = engine.create(CHAIN, params=params(types, group))
    a, b, c, x, b2, c2 = refs(engine, ident)
    # X moves from the second segment to the front.
    engine.update(ident, CHAIN, params=params([X, A, B, C, B, C], group))
    after = refs(engine, ident)
    assert after[1:] == [a, b, c, b2, c2]
    assert after[0] != x
    assert engine.outputs(ident)['kinds'] == [X, A, B, C, B, C]


def test_a_long_in_tree_chain_is_taken_over_as_it_is(segments_of_3, group):
    engine = segments_of_3
    env = resources.global_env()
    env.register_class('OS::Heat::ResourceChain', in_tree.ResourceChain)
    template = CHAIN.replace('      concurrency_limit: {get_param: limit}\n',
                             '')
    try:
        ident = engine.create(template, params=params([A, B, C, A], group))
    finally:
        env.register_class('OS::Heat::ResourceChain', ours.ResourceChain)
    before = refs(engine, ident)
    engine.update(ident, CHAIN, params=params([X, A, B, C, A], group,
                                              value='v2'))
    assert refs(engine, ident)[1:] == before
    # Its members stay in its one nested stack; grown past the size, the
    # new one is in a segment.
    names = {r['resource_name'] for r in engine.resources(ident,
                                                          nested_depth=1)
             if r.get('parent_resource') == 'chain'}
    assert names == {'0', '1', '2', '3', 's0'}


def test_attributes_of_a_short_segmented_chain(segments_of_3, group):
    engine = segments_of_3
    ident = engine.create(ATTRIBUTES.replace(
        '[Test::Chain::A, Test::Chain::B, Test::Chain::C]',
        '[Test::Chain::A, Test::Chain::B, Test::Chain::C, Test::Chain::A]'),
        params={'group': group})
    out = engine.outputs(ident)
    assert out['kinds'] == [A, B, C, A]
    assert out['second_ref'] == out['refs'][1]
    assert out['last_kind'] == C
    assert out['kind_by_index'] == {'0': A, '1': B, '2': C, '3': A}
    engine.delete(ident)
    assert ('delete', A) in chain_members.events(group)


def test_no_stack_spends_more_threads_than_a_segment(segments_of_3,
                                                     group):
    # Heat 25+ gives each stack 1000 threads per engine worker, one per
    # event: a flat chain of 12 would spend 2 x 12 + 3 per operation in one
    # stack; in segments of 3 no stack spends more than a segment of 3 or
    # the chain's stack of 4 segments.
    if heat_internals.heat_version() < releases.THREADS_SINCE:
        pytest.skip('eventlet engines (Heat 24.x) free their threads')
    engine = segments_of_3
    ident = engine.create(CHAIN, params=params([A] * 12, group))
    stacks = {ident['stack_id']}
    stacks.update(r['physical_resource_id']
                  for r in engine.resources(ident, nested_depth=1)
                  if r['resource_type'] == 'OS::Heat::ResourceChain')
    assert len(stacks) == 6  # the stack, the chain's, 4 segments
    engine.update(ident, CHAIN, params=params([A] * 12, group, value='v2'))
    spent = heat_internals.threads_spent(engine.service)
    per_stack = [spent[s][0] for s in stacks]
    # Create and update: two events per member (or segment) and operation
    # and three of the stack itself per operation.
    assert max(per_stack) <= 2 * (2 * 4 + 3)
    assert sum(per_stack) >= 2 * 12
    engine.delete(ident)


# -- the shape by release and length, and identity across a change of it ---

def nested_names(engine, ident):
    return {r['resource_name'] for r in engine.resources(ident,
                                                         nested_depth=1)
            if r.get('parent_resource') == 'chain'}


def test_a_chain_created_segmented_keeps_its_segments_after_the_upgrade(
        chain_engine, group):
    # Created by the old code's setting (segments of 3 standing in for the
    # old default of 50), updated under the new default (unset).
    engine = chain_engine
    types = [A, B, C, A, B, C, A]
    cfg.CONF.set_override('chain_segment_size', SIZE, group=GROUP)
    try:
        ident = engine.create(POSITIONS, params=params(types, group))
    finally:
        cfg.CONF.clear_override('chain_segment_size', group=GROUP)
    before = refs(engine, ident)
    segments, members = layout(engine, ident)
    assert segments == {'s0', 's1', 's2'}
    seen = len(chain_members.events(group))
    engine.update(ident, POSITIONS, params=params([X] + types + [B], group,
                                                  value='v2'))
    assert refs(engine, ident)[1:-1] == before
    new_segments, members = layout(engine, ident)
    assert segments <= new_segments
    assert len(members) == 9
    assert nested_names(engine, ident) == new_segments
    assert sorted(e for e in chain_members.events(group)[seen:]
                  if e[0] != 'update') == sorted([
                      ('create-start', X), ('create-end', X),
                      ('create-start', B), ('create-end', B)])
    assert engine.outputs(ident)['values'] == ['v2'] * 9


def test_a_flat_chain_grown_past_the_set_size_keeps_its_members(
        chain_engine, group):
    # Its members stay direct, the new ones go into segments.
    engine = chain_engine
    types = [A, B, C, A]
    ident = engine.create(POSITIONS, params=params(types, group))
    before = refs(engine, ident)
    assert nested_names(engine, ident) == {'0', '1', '2', '3'}
    seen = len(chain_members.events(group))
    cfg.CONF.set_override('chain_segment_size', SIZE, group=GROUP)
    try:
        engine.update(ident, POSITIONS, params=params(
            [X] + types + [B, C], group))
    finally:
        cfg.CONF.clear_override('chain_segment_size', group=GROUP)
    after = refs(engine, ident)
    assert after[1:5] == before
    assert len(set(after)) == 7
    assert chain_members.events(group)[seen:] == [
        (event, rtype) for rtype in (X, B, C)
        for event in ('create-start', 'create-end')]
    assert nested_names(engine, ident) == {'0', '1', '2', '3', 's0', 's1'}
    assert engine.outputs(ident)['kinds'] == [X] + types + [B, C]


@pytest.fixture
def flat_size_of_8(chain_engine, monkeypatch):
    """The default setting, its flat size 8 and segments of 3.

    chain_shape.FLAT_SIZE (163) and SEGMENT_SIZE (50) scaled down, as
    segments_of_3 scales the option: a chain of 164 takes minutes here.
    """
    monkeypatch.setattr(chain_shape, 'FLAT_SIZE', 8)
    monkeypatch.setattr(chain_shape, 'SEGMENT_SIZE', SIZE)
    return chain_engine


def test_the_shape_at_the_flat_size_and_past_it(flat_size_of_8, group):
    # The default setting: one nested stack up to chain_shape.FLAT_SIZE
    # members, segments past it.
    engine = flat_size_of_8
    flat = chain_shape.FLAT_SIZE
    ident = engine.create(CHAIN, params=params([A] * flat, group,
                                               concurrent=True))
    assert nested_names(engine, ident) == (
        {str(i) for i in range(flat)} | {'chain_start', 'chain_end'})
    before = refs(engine, ident)
    # Growing past it keeps every member, as direct members beside
    # segments of the new ones.
    engine.update(ident, CHAIN, params=params([B] + [A] * flat + [B], group,
                                              concurrent=True))
    assert refs(engine, ident)[1:-1] == before
    names = nested_names(engine, ident)
    direct = {str(i) for i in range(flat)} | {'chain_start', 'chain_end'}
    assert names == direct | {'s0', 's1'}
    assert engine.outputs(ident)['kinds'] == [B] + [A] * flat + [B]
    engine.delete(ident)

    ident = engine.create(CHAIN, params=params([A] * (flat + 1), group + 'l',
                                               concurrent=True))
    names = nested_names(engine, ident)
    assert names == {'s0', 's1', 's2', 'chain_start', 'chain_end'}
    members = [m for m in layout(engine, ident)[1]
               if m['resource_type'] == A]
    assert len(members) == flat + 1
    assert len(set(refs(engine, ident))) == flat + 1
    engine.delete(ident)


# -- a flat chain grown past the flat size: direct members and segments ----

GROWN = POSITIONS + '''
  twelfth: {value: {get_attr: [chain, resource.11]}}
  third_kind: {value: {get_attr: [chain, resource.2, kind]}}
'''


def outputs_but_refs(engine, ident):
    out = dict(engine.outputs(ident))
    got = out.pop('refs')
    assert out.pop('fifth') == got[4]
    assert out.pop('twelfth') == got[11]
    return out


def flat_outputs(engine, types, group, **kwargs):
    """The outputs of an equal chain created flat (no segments)."""
    cfg.CONF.set_override('chain_segment_size', 0, group=GROUP)
    try:
        ident = engine.create(GROWN, params=params(types, group, **kwargs))
    finally:
        cfg.CONF.clear_override('chain_segment_size', group=GROUP)
    out = outputs_but_refs(engine, ident)
    engine.delete(ident)
    return out


def test_a_flat_chain_grown_past_the_flat_size_keeps_every_member(
        flat_size_of_8, group):
    engine = flat_size_of_8
    # Types that repeat little, so that which member an entry keeps is
    # plain (chain_plan matches runs of equal types).
    old = [A, B, C, D, E, Y, Z, B]
    ident = engine.create(GROWN.replace('resource.11', 'resource.7'),
                          params=params(old, group))
    before = refs(engine, ident)
    seen = len(chain_members.events(group))
    # Grown to 14: one new member first, five after the old ones.
    grown = [X] + old + [C, D, E, Y, X]
    engine.update(ident, GROWN, params=params(grown, group))
    after = refs(engine, ident)
    assert after[1:9] == before
    assert len(set(after)) == 14
    # Created in list order (sequential), the old ones untouched.
    assert chain_members.events(group)[seen:] == [
        (event, rtype) for rtype in (X, C, D, E, Y, X)
        for event in ('create-start', 'create-end')]
    names = nested_names(engine, ident)
    assert names == {str(i) for i in range(8)} | {'s0', 's1', 's2'}
    segments, members = layout(engine, ident)
    assert sorted(m['resource_type'] for m in members) == sorted(
        [X, C, D, E, Y, X])
    out = outputs_but_refs(engine, ident)
    assert out == flat_outputs(engine, grown, group + 'f')
    assert out['kinds'] == grown
    # Attributes the template does not reference: read through the
    # members, direct or in their segment.
    chain = engine.resource(ident, 'chain',
                            with_attr=['resource.3', 'resource.12', 'kind'])
    assert chain['attributes']['resource.3'] == after[3]
    assert chain['attributes']['resource.12'] == after[12]
    assert chain['attributes']['kind'] == grown

    # Changed in place (value), an old member's and a new member's type
    # changed, one old member deleted: every other member kept.
    seen = len(chain_members.events(group))
    changed = list(grown)
    changed[3] = X  # old (direct), was C
    changed[10] = Z  # new (in a segment), was D
    del changed[6]  # old (direct), was Y
    engine.update(ident, GROWN, params=params(changed, group, value='v2'))
    final = refs(engine, ident)
    kept = [i for i in range(14) if i not in (3, 6, 10)]
    assert [final[i - (i > 6)] for i in kept] == [after[i] for i in kept]
    # The old member whose type changed is a new one (a fresh name, in a
    # segment: no new entry becomes a direct member).
    assert final[3] != after[3]
    # The new one keeps its place in its segment, whose own chain names it
    # by position: Heat updates it in place (D and Z are one class here).
    deleted, created, updated = [C, Y], [X], kept + [10]
    events = chain_members.events(group)[seen:]
    assert sorted(e[1] for e in events if e[0] == 'delete') == deleted
    assert sorted(e[1] for e in events if e[0] == 'create-start') == created
    assert sorted(e for e in events if e[0] == 'update') == sorted(
        ('update', grown[i]) for i in updated)
    out = outputs_but_refs(engine, ident)
    assert out == flat_outputs(engine, changed, group + 'g', value='v2')
    assert out['values'] == ['v2'] * 13
    # The old member changed is new, in a segment of its own.
    assert nested_names(engine, ident) == {
        '0', '1', '3', '4', '6', '7', 's0', 's1', 's2', 's3'}
    engine.delete(ident)


def test_a_grown_chain_spends_two_threads_an_item_of_its_nested_stack(
        flat_size_of_8, group):
    # chain_shape: k direct members and S segments cost 2(k + S) + 3
    # threads of the nested stack on an update of every member.
    if not heat_internals.has_thread_budget():
        pytest.skip('Heat 24.x (eventlet) has no per-stack thread budget')
    engine = flat_size_of_8
    ident = engine.create(CHAIN, params=params([A] * 8, group))
    engine.update(ident, CHAIN, params=params([A] * 14, group))
    nested = engine.physical_ids(ident)['chain']
    before = heat_internals.threads_spent(engine.service)[nested][0]
    engine.update(ident, CHAIN, params=params([A] * 14, group, value='v2'))
    spent = heat_internals.threads_spent(engine.service)[nested][0]
    # 23, where the same chain flat would spend 2 x 14 + 3 = 31.
    assert spent - before == chain_shape.THREADS_PER_MEMBER * (8 + 2) + 3
    assert nested_names(engine, ident) == (
        {str(i) for i in range(8)} | {'s0', 's1'})
    engine.delete(ident)
