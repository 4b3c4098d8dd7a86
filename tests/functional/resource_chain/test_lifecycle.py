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
"""Template-resource members, stack actions and the documented example."""

import os

from tests.functional.resource_chain import chain_members
from tests.functional.resource_chain.templates import CHAIN
from tests.functional.resource_chain.templates import params

A, B = 'Test::Chain::A', 'Test::Chain::B'
EXAMPLE = os.path.join(os.path.dirname(__file__), '..', '..', '..',
                       'examples', 'resource_chain.yaml')

STEP = '''
heat_template_version: 2016-10-14
parameters:
  value: {type: string}
  group: {type: string}
  rendezvous: {type: number}
resources:
  inner:
    type: Test::Chain::B
    properties:
      value: {list_join: ['-', [step, {get_param: value}]]}
      group: {get_param: group}
outputs:
  kind: {value: {get_attr: [inner, kind]}}
  value: {value: {get_attr: [inner, value]}}
'''


def test_template_resource_members(chain_engine, group):
    environment = {'resource_registry': {'My::Step': 'step.yaml'}}
    files = {'step.yaml': STEP}
    types = [A, 'My::Step', 'step.yaml']
    assert chain_engine.validate(CHAIN, params=params(types, group),
                                 files=files, environment=environment) is None
    ident = chain_engine.create(CHAIN, params=params(types, group),
                                files=files, environment=environment)
    assert chain_engine.outputs(ident)['kinds'] == [A, B, B]
    chain = chain_engine.resource(ident, 'chain', with_attr=['value'])
    assert chain['attributes']['value'] == ['v1', 'step-v1', 'step-v1']
    chain_engine.update(ident, CHAIN, params=params(types, group, value='v2'),
                        files=files, environment=environment)
    chain = chain_engine.resource(ident, 'chain', with_attr=['value'])
    assert chain['attributes']['value'] == ['v2', 'step-v2', 'step-v2']


def test_suspend_resume_check_and_delete_reach_every_member(chain_engine,
                                                            group):
    ident = chain_engine.create(CHAIN, params=params([A, B], group,
                                                     concurrent=True))
    seen = len(chain_members.events(group))
    chain_engine.suspend(ident)
    chain_engine.resume(ident)
    chain_engine.check(ident)
    chain_engine.delete(ident)
    assert sorted(chain_members.events(group)[seen:]) == sorted(
        (event, rtype) for rtype in (A, B)
        for event in ('suspend', 'resume', 'delete'))


def test_suspend_of_a_sequential_chain_goes_in_reverse(chain_engine, group):
    ident = chain_engine.create(CHAIN, params=params([A, B], group))
    seen = len(chain_members.events(group))
    chain_engine.suspend(ident)
    chain_engine.resume(ident)
    assert chain_members.events(group)[seen:] == [
        ('suspend', B), ('suspend', A), ('resume', A), ('resume', B)]
    chain_engine.delete(ident)


def test_the_documented_example(chain_engine):
    with open(EXAMPLE) as f:
        example = f.read()
    assert chain_engine.validate(example) is None
    ident = chain_engine.create(example)
    out = chain_engine.outputs(ident)
    first, second, third = out['step_ids']
    assert out['first_step'] == first
    assert out['first_value'] == 'hello'
    assert out['values'] == ['hello'] * 3
    assert out['values_by_index'] == {'0': 'hello', '1': 'hello',
                                      '2': 'hello'}
    steps = 'OS::Heat::Value,OS::Heat::None,OS::Heat::Value,OS::Heat::Value'
    chain_engine.update(ident, example, params={'steps': steps,
                                                'message': 'bye'})
    out = chain_engine.outputs(ident)
    assert out['step_ids'][0] == first
    assert out['step_ids'][2:] == [second, third]
    assert out['values'] == ['bye', None, 'bye', 'bye']
