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
