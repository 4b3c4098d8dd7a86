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
"""Updating chains: stable members, in-place property changes, takeover."""

from heat.common import exception
from heat.db import api as db_api
from heat.engine import resources
from heat.engine.resources.openstack.heat import resource_chain as in_tree
from heat.objects import resource as resource_objects

from heat_lifecycle_plugins.resources import chain_plan
from heat_lifecycle_plugins.resources import resource_chain as ours
from tests.functional.resource_chain import chain_members
from tests.functional.resource_chain.templates import CHAIN
from tests.functional.resource_chain.templates import params

A, B, C, X, Y = ('Test::Chain::%s' % n for n in 'ABCXY')
FAIL = 'Test::Chain::Fail'

POSITIONS = CHAIN + '''
  second: {value: {get_attr: [chain, resource.1]}}
  second_kind: {value: {get_attr: [chain, resource.1.kind]}}
'''

IN_TREE_CHAIN = CHAIN.replace('      concurrency_limit: {get_param: limit}\n',
                              '')


def refs(engine, ident):
    return engine.outputs(ident)['refs']


def chain_stack_id(engine, ident):
    return engine.physical_ids(ident)['chain']


def chain_data(engine, ident):
    """The chain resource's data, read from the database."""
    rows = resource_objects.Resource.get_all_by_stack(engine.ctx,
                                                      ident['stack_id'])
    try:
        return db_api.resource_data_get_all(engine.ctx, rows['chain'].id)
    except exception.NotFound:
        return {}


def member_events(group, since):
    return chain_members.events(group)[since:]


def test_insert_remove_and_reorder_keep_the_other_members(chain_engine,
                                                          group):
    # A reorder keeps the members that stay in order and re-creates the
    # one that moved; the chain is still deleted (no dependency cycle).
    ident = chain_engine.create(POSITIONS, params=params([A, B, C], group))
    a, b, c = refs(chain_engine, ident)
    seen = len(chain_members.events(group))

    chain_engine.update(ident, POSITIONS, params=params([A, X, B, C], group))
    after = refs(chain_engine, ident)
    assert [after[0], after[2], after[3]] == [a, b, c]
    x = after[1]
    assert x not in (a, b, c)
    assert member_events(group, seen) == [('create-start', X),
                                          ('create-end', X)]
    out = chain_engine.outputs(ident)
    assert (out['second'], out['second_kind']) == (x, X)
    seen = len(chain_members.events(group))

    chain_engine.update(ident, POSITIONS, params=params([A, X, C], group))
    assert refs(chain_engine, ident) == [a, x, c]
    assert member_events(group, seen) == [('delete', B)]
    seen = len(chain_members.events(group))

    chain_engine.update(ident, POSITIONS, params=params([C, A, X], group))
    after = refs(chain_engine, ident)
    assert after[1:] == [a, x]
    assert after[0] != c
    assert sorted(member_events(group, seen)) == [
        ('create-end', C), ('create-start', C), ('delete', C)]
    out = chain_engine.outputs(ident)
    assert (out['second'], out['second_kind']) == (a, A)
    chain_engine.delete(ident)


def test_duplicate_types_keep_their_members_in_order(chain_engine, group):
    ident = chain_engine.create(CHAIN, params=params([A, B, A], group))
    a1, b, a2 = refs(chain_engine, ident)
    chain_engine.update(ident, CHAIN, params=params([A, A], group))
    assert refs(chain_engine, ident) == [a1, a2]
    chain_engine.update(ident, CHAIN, params=params([Y, A, A, B], group))
    after = refs(chain_engine, ident)
    assert after[1:3] == [a1, a2]
    assert b not in after


def test_properties_and_concurrency_change_in_place(chain_engine, group):
    ident = chain_engine.create(CHAIN, params=params([A, B, C], group))
    stack_id = chain_stack_id(chain_engine, ident)
    members = refs(chain_engine, ident)
    seen = len(chain_members.events(group))

    chain_engine.update(ident, CHAIN, params=params(
        [A, B, C], group, value='v2', concurrent=True, limit=2))
    assert chain_stack_id(chain_engine, ident) == stack_id
    assert refs(chain_engine, ident) == members
    assert sorted(member_events(group, seen)) == [
        ('update', A), ('update', B), ('update', C)]
    chain = chain_engine.resource(ident, 'chain', with_attr=['value'])
    assert chain['attributes']['value'] == ['v2', 'v2', 'v2']
    assert chain['resource_action'] == 'UPDATE'
    seen = len(chain_members.events(group))

    chain_engine.update(ident, CHAIN, params=params([A, B, C], group,
                                                    value='v2'))
    assert chain_stack_id(chain_engine, ident) == stack_id
    assert refs(chain_engine, ident) == members
    assert member_events(group, seen) == []


def test_a_chain_created_by_the_in_tree_type_is_taken_over(chain_engine,
                                                           group):
    env = resources.global_env()
    env.register_class('OS::Heat::ResourceChain', in_tree.ResourceChain)
    try:
        ident = chain_engine.create(IN_TREE_CHAIN,
                                    params=params([A, B, C], group))
    finally:
        env.register_class('OS::Heat::ResourceChain', ours.ResourceChain)
    assert ours.MEMBERS_DATA_KEY not in chain_data(chain_engine, ident)
    a, b, c = refs(chain_engine, ident)
    chain_engine.update(ident, IN_TREE_CHAIN,
                        params=params([X, A, C], group, value='v2'))
    after = refs(chain_engine, ident)
    assert after[1:] == [a, c]
    assert b not in after
    chain_engine.update(ident, CHAIN, params=params([X, A, B, C], group))
    assert refs(chain_engine, ident)[0:2] == after[0:2]
    assert refs(chain_engine, ident)[3] == c
    assert ours.MEMBERS_DATA_KEY in chain_data(chain_engine, ident)


def test_an_update_after_a_failed_update_keeps_the_members(chain_engine,
                                                           group):
    ident = chain_engine.create(CHAIN, params=params([A, B], group))
    a, b = refs(chain_engine, ident)
    chain_engine.update(ident, CHAIN, params=params([A, FAIL, B], group),
                        expect='FAILED')
    chain_engine.update(ident, CHAIN, params=params([A, X, B], group))
    after = refs(chain_engine, ident)
    assert (after[0], after[2]) == (a, b)
    assert after[1] not in (a, b)
    kinds = chain_engine.outputs(ident)['kinds']
    assert kinds == [A, X, B]


def test_a_chain_whose_order_flipped_is_deleted(chain_engine):
    # Inserting an R before [N, R, N, R] keeps every member, but each pair
    # now runs the other way round (R before N): the members' dependencies
    # are reversed, and the delete must not see both orders at once.
    n, r = 'OS::Heat::None', 'OS::Heat::RandomString'

    def template(types):
        return {'heat_template_version': '2016-10-14',
                'resources': {'chain': {'type': 'OS::Heat::ResourceChain',
                                        'properties': {'resources': types}}}}
    ident = chain_engine.create(template([n, r] * 5))
    chain_engine.update(ident, template([r] + [n, r] * 5))
    chain_engine.delete(ident)


def test_a_chain_with_a_member_removed_mid_list_is_deleted(chain_engine):
    # The benchmark's removal: [N, R, N, R, ...] without its sixth entry;
    # the member after the gap now follows the one before it.
    n, r = 'OS::Heat::None', 'OS::Heat::RandomString'

    def template(types):
        return {'heat_template_version': '2015-04-30',
                'resources': {'chain': {'type': 'OS::Heat::ResourceChain',
                                        'properties': {'resources': types,
                                                       'concurrent': False}}}}
    types = [n, r] * 5
    ident = chain_engine.create(template(types))
    chain_engine.update(ident, template(types[:5] + types[6:]))
    chain_engine.delete(ident)


def members(engine, ident):
    """{member name: (type, physical id)} in the chain's nested stack."""
    return {r['resource_name']: (r['resource_type'],
                                 r['physical_resource_id'])
            for r in engine.resources(ident, nested_depth=1)
            if r.get('parent_resource') == 'chain'}


def member_types(engine, ident):
    return {name: rtype for name, (rtype, _id) in
            members(engine, ident).items()}


def test_a_chain_that_keeps_no_member_is_named_by_position(chain_engine,
                                                           group):
    ident = chain_engine.create(CHAIN, params=params([A, B], group))
    chain_engine.update(ident, CHAIN, params=params([X], group))
    assert member_types(chain_engine, ident) == {'0': X}
    assert chain_engine.outputs(ident)['kinds'] == [X]
    chain_engine.update(ident, CHAIN, params=params([A, B, C], group))
    chain_engine.update(ident, CHAIN, params=params([Y], group))
    assert member_types(chain_engine, ident) == {'0': Y}
    [y] = refs(chain_engine, ident)
    assert chain_engine.resource(ident, 'chain', with_attr=['resource.0'])[
        'attributes']['resource.0'] == y
    chain_engine.delete(ident)


def test_position_names_follow_random_edits_and_delete(chain_engine):
    # Three types of three classes (Heat replaces a member whose class
    # changed). After each random edit the nested stack holds the planned
    # names, kept members keep their ids, a name reused by position is a
    # new member, and the chain is still deleted (no dependency cycle).
    import random
    rng = random.Random(38)
    kinds = ['OS::Heat::None', 'OS::Heat::TestResource', A]

    def template(types):
        return {'heat_template_version': '2016-10-14',
                'resources': {'chain': {'type': 'OS::Heat::ResourceChain',
                                        'properties': {'resources': types}}},
                'outputs': {'refs': {'value': {'get_attr': ['chain',
                                                            'refs']}}}}
    types = kinds
    ident = chain_engine.create(template(types))
    for _ in range(8):
        old = members(chain_engine, ident)
        name_of = {ref: name for name, (_t, ref) in old.items()}
        old_names = [name_of[ref] for ref in refs(chain_engine, ident)]
        new_types = [rng.choice(kinds) for _ in range(rng.randint(1, 5))]
        want = chain_plan.plan_member_names(types, old_names, new_types)
        chain_engine.update(ident, template(new_types))
        now = members(chain_engine, ident)
        assert {n: t for n, (t, _r) in now.items()} == dict(
            zip(want, new_types))
        for name, rtype in zip(want, new_types):
            kept = old.get(name, (None, None))[0] == rtype
            assert (now[name][1] == old[name][1]) if kept else (
                now[name][1] not in name_of), (name, types, new_types)
        assert refs(chain_engine, ident) == [now[n][1] for n in want]
        types = new_types
    chain_engine.delete(ident)
