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
"""Noticing soon that a nested stack finished, within one check.

Heat drives a resource's check_*_complete once a second (its TaskRunner
sleeps one second between two steps). A nested stack that finishes just
after a check is noticed up to a second later, for every level of nesting:
a chain of 10 members that takes 0.7 s spent another 0.3-0.9 s waiting
(benchmarks/chain.py). poll_until() checks again at short intervals
within one call instead, then gives the step back to Heat. The interval
grows with the time spent, so that a long operation costs about ten
status reads per second at most.

Checks polling at once in one engine worker share about
PROCESS_READS_PER_SECOND: each other one adds 1 / PROCESS_READS_PER_SECOND
to a check's pause, up to one second, Heat's own pace (in-tree's chain
checks once a second). A check polling alone, as a lone chain of up to
163 members does, is not slowed. A concurrent chain of 400 has nine
polling at once, its own and its eight segments', which read their nested
stacks' status 90 times a second without the share (2026.2,
profile-concurrent-400.md: 8111 SELECTs in its create, the floor's 5074).
With it (engine_profile, ours alone, two runs of two rounds each, against
two without it, 2026-12-07): create 34.7 and 31.2 s against 45.2 and
37.9 s, the engine's CPU 38.4 and 34.6 s against 56.1 and 46.5 s, 7267
and 7033 SELECTs against 9351 and 8768; update and delete alike.

Each return to Heat costs its one-second pause, in which an ending is
seen up to a second late: with a budget of 5 s, sequential N=100 (its
nested stack 5.2-5.5 s on the floor) was 1.19x the floor on delete on
2026.2, and in-tree, which checks once a second, as late. So a check polls
until the stack's timeout (common.wait_budget), and gives the step back
early when the stack's traversal moved on: a delete or cancel of an
in-progress stack starts a new traversal before it sends its workers the
cancel that Heat reads between two steps (and waits 5-15 s for them to
stop). It looks for that once every LOOK_EVERY seconds, one read of the
stack's row. A legacy stack's resources share one thread, where a poll
would hold the others: there a check looks once.
"""

import time

from heat_lifecycle_plugins.clients import executions
from heat_lifecycle_plugins import heat_internals

FIRST_INTERVAL = 0.02
LAST_INTERVAL = 0.1
# Share of the time already spent that the next pause may take.
INTERVAL_SHARE = 0.1
LOOK_EVERY = 1.0
# About the status reads a second of the checks polling at once in one
# process, when there are two or more.
PROCESS_READS_PER_SECOND = 20.0
# The longest pause sharing gives a check: Heat's between two steps.
SLOWEST_SHARED_INTERVAL = 1.0
# The checks polling now in this process (one token each).
_polling = set()


def traversal_moved(resource):
    """A look: true once the stack's stored traversal is not the check's."""
    stack = resource.stack
    traversal = stack.current_traversal

    def moved():
        row = heat_internals.stored_stack(resource.context, stack.id)
        return row is None or row.current_traversal != traversal
    return moved


def next_interval(elapsed, polling=1):
    """Seconds to pause after `elapsed` seconds of polling.

    polling: how many checks poll now in this process, this one included.
    """
    own = executions.growing_interval(elapsed, FIRST_INTERVAL,
                                      INTERVAL_SHARE, LAST_INTERVAL)
    shared = min(SLOWEST_SHARED_INTERVAL,
                 (polling - 1) / PROCESS_READS_PER_SECOND)
    return max(own, shared)


def poll_until(check, budget, moved=lambda: False,
               clock=time.monotonic, sleep=time.sleep, polling=None):
    """Call check() until it returns true or `budget` seconds have passed.

    Every LOOK_EVERY seconds, moved() says whether to give the step back
    to Heat at once. Returns the last result. Exceptions of check()
    propagate. polling: the set of the process's polling checks (default:
    this module's), which this one joins while it polls.
    """
    polling = _polling if polling is None else polling
    token = object()
    polling.add(token)
    try:
        started = looked = clock()
        while True:
            done = check()
            now = clock()
            elapsed = now - started
            if done or elapsed >= budget:
                return done
            if now - looked >= LOOK_EVERY:
                looked = now
                if moved():
                    return done
            sleep(min(next_interval(elapsed, len(polling)),
                      budget - elapsed))
    finally:
        polling.discard(token)
