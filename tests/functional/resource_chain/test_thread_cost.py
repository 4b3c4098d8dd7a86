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
"""What one nested stack of a chain spends of Heat 25-27's thread budget.

Heat 25-27 keep every thread a stack's ThreadGroup started in one engine
worker and refuse the 1001st (engine-facts.md). This measures, in the
session's in-process engine (one worker), the threads the chain's one
nested stack spends per operation for two lengths, and from their
difference the cost per member and the fixed cost of each operation. It
prints the figures (run with -s to see them) and asserts that they are
the ones chain_shape derives the flat size from: counts, not timings.

The operations: create; update (resource_properties changed: every member
is updated, as a day-two re-apply of a chain of deployments is); a
re-apply of the same template and parameters (nothing changes, Heat still
walks every member); delete.
"""

from oslo_config import cfg
import pytest

from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import releases
from heat_lifecycle_plugins.resources import chain_shape
from tests.functional.resource_chain.templates import CHAIN
from tests.functional.resource_chain.templates import params

A = 'Test::Chain::A'
GROUP = 'heat_lifecycle_plugins'
SHORT, LONG = 6, 16
OPERATIONS = ('create', 'update', 're-apply', 'delete')


@pytest.fixture
def flat_chains(chain_engine):
    if heat_internals.heat_version() < releases.THREADS_SINCE:
        pytest.skip('Heat 24.x (eventlet) has no per-stack thread budget')
    cfg.CONF.set_override('chain_segment_size', 0, group=GROUP)
    yield chain_engine
    cfg.CONF.clear_override('chain_segment_size', group=GROUP)


def _spent(engine, stack_id):
    return heat_internals.threads_spent(engine.service).get(
        stack_id, (0, None))[0]


def threads_per_operation(engine, group, count, concurrent):
    """{operation: threads the chain's nested stack spent on it}."""
    ident = engine.create(CHAIN, params=params(
        [A] * count, group, concurrent=concurrent))
    nested = engine.physical_ids(ident)['chain']
    spent = {'create': _spent(engine, nested)}
    engine.update(ident, CHAIN, params=params(
        [A] * count, group, concurrent=concurrent, value='v2'))
    spent['update'] = _spent(engine, nested)
    engine.update(ident, CHAIN, params=params(
        [A] * count, group, concurrent=concurrent, value='v2'))
    spent['re-apply'] = _spent(engine, nested)
    engine.delete(ident)
    spent['delete'] = _spent(engine, nested)
    before = 0
    cost = {}
    for operation in OPERATIONS:
        cost[operation] = spent[operation] - before
        before = spent[operation]
    return cost


@pytest.mark.parametrize('concurrent', [False, True],
                         ids=['sequential', 'concurrent'])
def test_threads_per_member_and_operation(flat_chains, group, concurrent):
    short = threads_per_operation(flat_chains, group, SHORT, concurrent)
    long = threads_per_operation(flat_chains, group + 'l', LONG, concurrent)
    print('\nHeat %s, %s chain, threads of its nested stack:' % (
        '.'.join(map(str, heat_internals.heat_version())),
        'concurrent' if concurrent else 'sequential'))
    for operation in OPERATIONS:
        per_member = (long[operation] - short[operation]) / (LONG - SHORT)
        fixed = short[operation] - per_member * SHORT
        print('  %-8s N=%d: %d, N=%d: %d -> %.2f a member + %.1f' % (
            operation, SHORT, short[operation], LONG, long[operation],
            per_member, fixed))
        assert per_member <= chain_shape.THREADS_PER_MEMBER
        assert fixed <= chain_shape.THREADS_PER_OPERATION
    # The costliest operation is what the flat size is derived from.
    assert max(long.values()) == (chain_shape.THREADS_PER_MEMBER * LONG +
                                  (7 if concurrent else 3))
