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
"""A chain's shape: one nested stack, as in-tree's, or segments.

Segments (chain_segments) are for long chains, on every release:

- Heat 25-27 keep every thread a stack's ThreadGroup started in one engine
  worker and refuse the 1001st, so a nested stack of N members survives
  only so many operations until heat-engine restarts.
- On every release, Heat's cost of a step grows with the stack it runs
  in: past about 150-200 members one nested stack is slower than
  segments of 50, most of all on an in-place update (2025.1, Heat
  24.1.2, one engine worker, engine_profile, 2026-12-06: sequential
  N=400 update 58 s in one nested stack, 44 s in segments; concurrent
  N=400 update 40 s against 18 s, create 19 s against 12 s; sequential
  N=200 update 24 s against 22 s, delete 11.0 against 11.5 s; sequential
  N=100 create 6.0 s against 6.5 s, one nested stack faster).

Measured (tests/functional/resource_chain/test_thread_cost.py, the
in-process engine, one worker, Heat 27.0.1 of 2026.2), threads the chain's
nested stack spends per operation, N members:

    operation                          sequential   concurrent
    create                             2N + 3       2N + 7
    update (every member changes;      2N + 3       2N + 3
      a day-two request to the members)
    the same template again            3            3
    delete                             2N + 3       2N + 7

(the 4 more of a concurrent chain are its two gates). A nested stack of N
members so survives 1000 // (2N + 7) operations in one worker's lifetime:
50 members 9, 100 members 4, 150 or 163 members 3, 400 members 1, 500
none (its create alone needs 1007; in-tree's chain of 500 hit the budget
in the chain-large benchmark, issue 55). A new chain stays one nested
stack up to FLAT_SIZE = 163 members, the most that survive OPERATIONS =
3 operations (create, one update, delete: the shortest life of a chain
that changes), which also lies where segments start to pay on 24.x.
Longer chains are split into segments of SEGMENT_SIZE = 50 (nine
operations each; the chain's own stack holds N / 50 segments).

A chain keeps its members where they are (resource_chain): a segmented
one keeps its segments whatever the setting now says, so that no member is
ever re-created for a change of shape. A flat one that grows past the flat
size (to a length is_segmented splits) keeps its k members as direct
members of its nested stack and takes the new ones in segments beside
them (chain_segments): moving a member into a segment would re-create it, and
staying flat would leave a chain of 600 grown from 100 with a nested
stack whose next create-sized operation needs 1207 threads. With S
segments its nested stack spends about 2(k + S) + 7 threads per operation
that touches every item (a re-apply that changes nothing: 3; an update of
the new members only: 2 a changed segment + 3), each segment 2 x 50 + 7.
For k <= FLAT_SIZE that is within the budget for growth: 163 direct
members and 17 segments (1013 members) spend 2 x 180 + 7 = 367, so the
nested stack survives 2 such operations where a flat chain of 1013
survives none; k + S <= 163 (up to 163 - k segments) keeps the three of a
new chain. k > FLAT_SIZE is a chain created flat before this change (on
24.x, or by an earlier release): its nested stack costs what it did,
growth adds 2 a segment.

chain_segment_size, when an operator sets it, keeps its old meaning on
every release: a chain longer than it is split into segments of at most
that many members, 0 never splits. Unset (the default): the above.
"""

THREAD_BUDGET = 1000
THREADS_PER_MEMBER = 2
THREADS_PER_OPERATION = 7
OPERATIONS = 3
SEGMENT_SIZE = 50


def largest_flat_chain(operations=OPERATIONS, budget=THREAD_BUDGET):
    """The most members one nested stack has for `operations` to fit."""
    per_operation = budget // operations
    return (per_operation - THREADS_PER_OPERATION) // THREADS_PER_MEMBER


FLAT_SIZE = largest_flat_chain()


def limits(configured):
    """(largest flat chain, segment size) for a new chain; (0, 0): flat.

    configured: chain_segment_size as set by the operator, or None when
    unset.
    """
    if configured is not None:
        return configured, configured
    return FLAT_SIZE, SEGMENT_SIZE


def is_segmented(count, configured):
    """Whether a new chain of `count` members is created in segments."""
    flat, size = limits(configured)
    return bool(size) and count > flat
