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
"""Creating chains: order, failure, concurrency, attributes, validation."""

from tests.functional.resource_chain import chain_members
from tests.functional.resource_chain.templates import ATTRIBUTES
from tests.functional.resource_chain.templates import CHAIN
from tests.functional.resource_chain.templates import params

A, B, C, D = ('Test::Chain::%s' % n for n in 'ABCD')
FAIL = 'Test::Chain::Fail'


def nested(engine, ident):
    """{member name: (action, status)} of the chain's nested stack."""
    return {r['resource_name']: (r['resource_action'], r['resource_status'])
            for r in engine.resources(ident, nested_depth=1)
            if r.get('parent_resource') == 'chain'}


def test_sequential_members_are_created_in_list_order(chain_engine, group):
    chain_engine.create(CHAIN, params=params([C, A, B, D], group))
    assert chain_members.events(group) == [
        (event, rtype) for rtype in (C, A, B, D)
        for event in ('create-start', 'create-end')]


def test_a_failing_member_aborts_the_rest_of_the_chain(chain_engine, group):
    ident = chain_engine.create(CHAIN, params=params([A, FAIL, B, C], group),
                                expect='FAILED')
    assert 'member told to fail' in \
        chain_engine.show(ident)['stack_status_reason']
    assert chain_members.events(group, ['create-start']) == [
        ('create-start', A), ('create-start', FAIL)]
    members = nested(chain_engine, ident)
    assert members['0'] == ('CREATE', 'COMPLETE')
    assert members['1'] == ('CREATE', 'FAILED')
    assert members['2'] == members['3'] == ('INIT', 'COMPLETE')


def test_concurrent_members_run_at_the_same_time(chain_engine, group):
    # Each member completes only once all four have started: members created
    # one after the other would wait for each other and fail.
    types = [A, B, C, D]
    chain_engine.create(CHAIN, params=params(types, group, concurrent=True,
                                             rendezvous=4))
    kinds = [e for e, _t in chain_members.events(group)]
    assert kinds == ['create-start'] * 4 + ['create-end'] * 4
    assert sorted(t for _e, t in chain_members.events(group)) == \
        sorted(types * 2)


def test_concurrency_limit_bounds_members_in_progress(chain_engine, group):
    types = [A, B, C, D, A, B]
    ident = chain_engine.create(CHAIN, params=params(
        types, group, concurrent=True, limit=2, rendezvous=2))
    assert chain_members.most_creating(group) == 2
    assert chain_engine.outputs(ident)['kinds'] == types


def test_every_attribute_form(chain_engine, group):
    ident = chain_engine.create(ATTRIBUTES, params={'group': group})
    out = chain_engine.outputs(ident)
    ids = chain_engine.physical_ids(ident, nested_depth=1)
    assert out['refs'] == [ids['0'], ids['1'], ids['2']]
    assert out['second_ref'] == ids['1']
    assert out['first'] == ids['0']
    assert out['last_kind'] == C
    assert out['middle_kind'] == B
    assert out['kinds'] == [A, B, C]
    assert out['values'] == ['shared'] * 3
    assert out['kind_by_index'] == {'0': A, '1': B, '2': C}


def test_attributes_resolve_without_nested_outputs(chain_engine, group):
    # Attributes not referenced in the template have no nested output: they
    # are read from the members themselves.
    ident = chain_engine.create(CHAIN, params=params([A, B], group))
    chain = chain_engine.resource(ident, 'chain',
                                  with_attr=['resource.1', 'value'])
    ids = chain_engine.physical_ids(ident, nested_depth=1)
    assert chain['attributes']['resource.1'] == ids['1']
    assert chain['attributes']['value'] == ['v1', 'v1']


def test_an_empty_list_gives_an_empty_chain(chain_engine, group):
    ident = chain_engine.create(CHAIN, params=params([], group))
    assert chain_engine.outputs(ident) == {'refs': [], 'kinds': []}
    assert nested(chain_engine, ident) == {}


def test_a_concurrent_chain_of_one_member_has_no_gates(chain_engine, group):
    ident = chain_engine.create(CHAIN, params=params([A], group,
                                                     concurrent=True))
    assert chain_engine.outputs(ident)['kinds'] == [A]
    assert nested(chain_engine, ident) == {'0': ('CREATE', 'COMPLETE')}


def test_validation_names_the_index_and_the_unknown_type(chain_engine, group):
    error = chain_engine.validate(CHAIN, params=params(
        [A, 'OS::No::Such', B], group))
    assert 'chain' in error
    assert '"resources"[1]' in error
    assert 'OS::No::Such' in error
    assert 'not a known resource type' in error


def test_validation_rejects_an_entry_that_is_not_a_type_name(chain_engine):
    template = {
        'heat_template_version': '2016-10-14',
        'resources': {'chain': {
            'type': 'OS::Heat::ResourceChain',
            'properties': {'resources': [A, {'type': B}]}}}}
    error = chain_engine.validate(template)
    assert '"resources"[1]' in error
    assert 'is not a resource type name' in error


def test_validation_reports_a_template_file_missing_from_files(chain_engine,
                                                               group):
    error = chain_engine.validate(CHAIN, params=params([A, 'step.yaml'],
                                                       group))
    assert '"resources"[1] "step.yaml" is a template file that is not in ' \
        "the stack's files" in error
    error = chain_engine.validate(
        CHAIN, params=params(['My::Step', A], group),
        environment={'resource_registry': {'My::Step': 'step.yaml'}})
    assert '"resources"[0] "My::Step" is mapped to the template file ' \
        '"step.yaml", which is not in the stack\'s files' in error


def test_create_of_an_unknown_type_fails_with_the_same_message(chain_engine,
                                                               group):
    from heat.common import exception
    try:
        chain_engine.create(CHAIN, params=params([A, 'OS::No::Such'], group))
    except exception.StackValidationFailed as exc:
        assert '"resources"[1]' in str(exc)
        assert 'OS::No::Such' in str(exc)
    else:
        raise AssertionError('the create was accepted')


def test_concurrent_members_hang_between_gates_in_default_lanes(chain_engine,
                                                                group):
    # No concurrency_limit given: the documented default of 10 lanes; one
    # leaf (chain_start) to create and one (chain_end) to delete.
    template = {
        'heat_template_version': '2016-10-14',
        'resources': {'chain': {
            'type': 'OS::Heat::ResourceChain',
            'properties': {'resources': [A] * 12, 'concurrent': True,
                           'resource_properties': {'group': group}}}}}
    ident = chain_engine.create(template)
    chain_id = chain_engine.resource(ident, 'chain')['physical_resource_id']
    nested_stack, = chain_engine.client.list_stacks(
        chain_engine.ctx, filters={'id': chain_id}, show_nested=True)
    members = chain_engine.client.get_template(
        chain_engine.ctx, nested_stack['stack_identity'])['resources']
    deps = {name: defn.get('depends_on') for name, defn in members.items()}
    assert deps.pop('chain_start') is None
    assert deps.pop('chain_end') == [str(i) for i in range(2, 12)]
    assert deps == dict(
        [(str(i), ['chain_start']) for i in range(10)] +
        [('10', ['0']), ('11', ['1'])])
