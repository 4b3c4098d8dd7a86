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
"""A chain's update stopped while a member hangs: cancel, delete.

The chain's check polls its nested stack for up to 30 s within one step
(nested_completion); these prove a stack cancel or delete still stops it
long before the hanging member's deadline (RENDEZVOUS_DEADLINE).
"""

import time

from tests.functional.resource_chain import chain_members
from tests.functional.resource_chain.templates import CHAIN
from tests.functional.resource_chain.templates import params

A, B = 'Test::Chain::A', 'Test::Chain::B'
# Well before the hanging member's deadline and the check's 30 s budget.
# A delete of an in-progress stack waits for its workers in 5 s sleeps
# (heat.engine.worker._wait_for_cancellation), for the stack and again for
# the chain's nested stack: 10 s on Heat 2025.1.
STOPPED_WITHIN = chain_members.RENDEZVOUS_DEADLINE - 10


def update_with_a_hanging_member(engine, group):
    """A chain [A] updated to [A, B], B waiting for a third member."""
    ident = engine.create(CHAIN, params=params([A], group))
    engine.update(ident, CHAIN, params=params([A, B], group, rendezvous=3),
                  wait=False)
    deadline = time.monotonic() + 60
    while chain_members.started(group) < 2:
        assert time.monotonic() < deadline, 'B never started'
        time.sleep(0.05)
    return ident


def chain_state(engine, ident):
    chain = engine.resource(ident, 'chain')
    return chain['resource_action'], chain['resource_status']


def test_a_cancelled_update_stops_the_chain_check(chain_engine, group):
    ident = update_with_a_hanging_member(chain_engine, group)
    cancelled = time.monotonic()
    chain_engine.cancel_update(ident)
    chain_engine.wait(ident, 'UPDATE', expect='FAILED')
    while chain_state(chain_engine, ident) == ('UPDATE', 'IN_PROGRESS'):
        assert time.monotonic() - cancelled < STOPPED_WITHIN, (
            'the chain still checks its nested stack')
        time.sleep(0.1)
    assert chain_state(chain_engine, ident) == ('UPDATE', 'FAILED')
    chain_engine.delete(ident)


def test_a_delete_during_an_update_stops_the_chain_check(chain_engine,
                                                         group):
    ident = update_with_a_hanging_member(chain_engine, group)
    deleting = time.monotonic()
    chain_engine.delete(ident)
    assert time.monotonic() - deleting < STOPPED_WITHIN
    assert ('create-end', B) not in chain_members.events(group)
