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
"""A ResourceChain of template resources through heat-api.

A TripleO-style deployment step: insert a member mid-list on update.
"""

import os

from heat_lifecycle_fixtures import stacks

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         'templates')


def read(name):
    with open(os.path.join(TEMPLATES, name)) as f:
        return f.read()


FILES = {'steps/%s' % name: read('steps/%s' % name)
         for name in ('loadbalancer.yaml', 'db.yaml', 'rabbit.yaml')}
TEMPLATE = read('deployment_steps.yaml')


def members(hc, stack_id):
    """{member template: physical id} of the chain's nested stack."""
    chain = hc.resources.get(stack_id, 'DeploymentStep1')
    nested = [r for r in hc.resources.list(stack_id, nested_depth=1)
              if r.physical_resource_id != chain.physical_resource_id and
              r.resource_name != 'DeploymentStep1']
    return {r.resource_type: r.physical_resource_id for r in nested
            if r.resource_type.startswith('steps/')}


def test_insert_mid_list_keeps_the_other_members(driver, heat):
    steps = {'step1': ['steps/loadbalancer.yaml', 'steps/db.yaml']}
    stack_id = driver.create(TEMPLATE, {'steps': steps}, files=FILES)
    before = members(heat, stack_id)
    assert sorted(before) == ['steps/db.yaml', 'steps/loadbalancer.yaml']
    assert driver.outputs(stack_id)['configured'] == ['loadbalancer', 'db']

    steps['step1'].insert(1, 'steps/rabbit.yaml')
    driver.update(stack_id, TEMPLATE, {'steps': steps}, files=FILES)
    after = members(heat, stack_id)
    assert driver.outputs(stack_id)['configured'] == [
        'loadbalancer', 'rabbit', 'db']
    assert after['steps/loadbalancer.yaml'] == \
        before['steps/loadbalancer.yaml']
    assert after['steps/db.yaml'] == before['steps/db.yaml']
    assert after['steps/rabbit.yaml'] not in before.values()
    replaced = [e for e in driver.events(stack_id)
                if e.resource_status == 'DELETE_COMPLETE']
    assert replaced == [], [stacks.describe_event(e) for e in replaced]


NONE, RANDOM, TEST = ('OS::Heat::None', 'OS::Heat::RandomString',
                      'OS::Heat::TestResource')
POSITIONS = '''
heat_template_version: 2016-10-14
parameters:
  types: {type: comma_delimited_list}
resources:
  chain:
    type: OS::Heat::ResourceChain
    properties:
      resources: {get_param: types}
outputs:
  refs: {value: {get_attr: [chain, refs]}}
  first: {value: {get_attr: [chain, resource.0]}}
  last: {value: {get_attr: [chain, resource.2]}}
'''


def chain_members(hc, stack_id):
    """{name: (type, physical id)} of the members in the chain's stack."""
    nested = hc.resources.get(stack_id, 'chain').physical_resource_id
    return {r.resource_name: (r.resource_type, r.physical_resource_id)
            for r in hc.resources.list(nested)}


def set_types(driver, stack_id, types):
    params = {'types': ','.join(types)}
    if stack_id is None:
        return driver.create(POSITIONS, params)
    driver.update(stack_id, POSITIONS, params)
    return stack_id


def by_position(driver, stack_id, count):
    """The chain's `refs`, once `resource.0` and `resource.2` agree."""
    out = driver.outputs(stack_id)
    assert len(out['refs']) == count
    if count > 2:
        assert out['last'] == out['refs'][2]
    assert out['first'] == out['refs'][0]
    return out['refs']


def test_a_chain_that_keeps_no_member_is_named_by_position(driver, heat):
    # The in-tree chain's nested stack then holds {'0': None} too.
    stack_id = set_types(driver, None, [RANDOM, RANDOM])
    set_types(driver, stack_id, [NONE])
    members = chain_members(heat, stack_id)
    assert {n: t for n, (t, _id) in members.items()} == {'0': NONE}
    assert by_position(driver, stack_id, 1) == [members['0'][1]]


def test_a_shrink_to_one_member_of_another_type_is_named_0(driver, heat):
    stack_id = set_types(driver, None, [TEST, RANDOM, TEST])
    old = chain_members(heat, stack_id)
    set_types(driver, stack_id, [NONE])
    members = chain_members(heat, stack_id)
    assert {n: t for n, (t, _id) in members.items()} == {'0': NONE}
    assert members['0'][1] not in [pid for _t, pid in old.values()]
    assert by_position(driver, stack_id, 1) == [members['0'][1]]


def test_an_insert_at_0_keeps_the_members_names_and_ids(driver, heat):
    stack_id = set_types(driver, None, [TEST, NONE])
    before = chain_members(heat, stack_id)
    set_types(driver, stack_id, [NONE, TEST, NONE])
    after = chain_members(heat, stack_id)
    assert after['0'] == before['0'] and after['1'] == before['1']
    [new] = set(after) - set(before)
    assert after[new][0] == NONE and new not in ('0', '1')
    assert by_position(driver, stack_id, 3) == [
        after[new][1], after['0'][1], after['1'][1]]
