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
within one call instead, for up to `budget` seconds, then gives the step
back to Heat (so that a cancel or a timeout is seen at most `budget`
seconds late). The interval grows with the time spent, so that a long
operation costs about ten status reads per second at most.

The budget is ExternalResource's (workflow_runs.CHECK_BUDGET), 5 s: with
2 s, a third of the endings fell in Heat's pause after the poll and were
noticed half a second late on average, at each level; a segmented chain
of 100 has three levels in a row (benchmarks/results/2026.2/
profile-sequential-100.md). A legacy stack's resources share one thread,
where a poll would hold the others: there a check looks once.
"""

import time

from heat_lifecycle_plugins.clients import executions

FIRST_INTERVAL = 0.02
LAST_INTERVAL = 0.1
# Share of the time already spent that the next pause may take.
INTERVAL_SHARE = 0.1
BUDGET = 5.0


def budget_for(stack):
    """Seconds a check of a resource of `stack` may poll (0: look once)."""
    return BUDGET if stack.convergence else 0


def next_interval(elapsed):
    """Seconds to pause after `elapsed` seconds of polling."""
    return executions.growing_interval(elapsed, FIRST_INTERVAL,
                                       INTERVAL_SHARE, LAST_INTERVAL)


def poll_until(check, budget=BUDGET, clock=time.monotonic,
               sleep=time.sleep):
    """Call check() until it returns true or `budget` seconds have passed.

    Returns the last result. Exceptions of check() propagate.
    """
    started = clock()
    while True:
        done = check()
        elapsed = clock() - started
        if done or elapsed >= budget:
            return done
        sleep(min(next_interval(elapsed), budget - elapsed))
