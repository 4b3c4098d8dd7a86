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
"""`stack check` of a stack with a ResourceChain, on every Heat series.

The chain checks its nested stack (through convergence from Heat 26.0, the
legacy check before).
"""

from tests.functional.resource_chain import chain_members
from tests.functional.resource_chain.templates import CHAIN
from tests.functional.resource_chain.templates import params

A, B = 'Test::Chain::A', 'Test::Chain::B'


def test_check_reaches_every_member_and_the_chain_still_updates(
        chain_engine, group):
    ident = chain_engine.create(CHAIN, params=params([A, B], group))
    refs = chain_engine.outputs(ident)['refs']

    chain_engine.check(ident)
    checked = {(r['resource_name'], r['resource_action'],
                r['resource_status'])
               for r in chain_engine.resources(ident, nested_depth=1)}
    assert checked == {('chain', 'CHECK', 'COMPLETE'),
                       ('0', 'CHECK', 'COMPLETE'), ('1', 'CHECK', 'COMPLETE')}
    assert chain_engine.outputs(ident)['refs'] == refs

    # The checked chain takes an insertion without replacing its members.
    chain_engine.update(ident, CHAIN, params=params([A, A, B], group))
    assert chain_engine.outputs(ident)['kinds'] == [A, A, B]
    assert chain_engine.outputs(ident)['refs'][::2] == refs
    chain_engine.delete(ident)
    assert ('delete', A) in chain_members.events(group)
