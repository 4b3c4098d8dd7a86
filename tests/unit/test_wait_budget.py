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
"""How long one check waits, and its looks for the stack's cancel."""

import pytest

from heat_lifecycle_plugins.resources import common
from heat_lifecycle_plugins.resources import workflow_runs as runs
from tests.unit.test_execution_notices import Clock


class Stack(object):
    def __init__(self, convergence, remaining=3600.0):
        self.convergence = convergence
        self.remaining = remaining

    def time_remaining(self):
        return self.remaining


def test_a_check_waits_to_the_stack_timeout():
    # One check to the end: no step given back, so no 1 s pause of Heat's
    # for an end to land in (a told execution's, a chain's nested stack).
    assert common.wait_budget(Stack(True)) == 3600
    assert common.wait_budget(Stack(True, remaining=7.5)) == 7.5
    # It looks once when the stack's time is past.
    assert common.wait_budget(Stack(True, remaining=-2)) == 0


def test_a_legacy_stack_is_looked_at_once_a_step():
    # Its resources share one thread: a wait would hold the others.
    assert common.wait_budget(Stack(convergence=False)) == 0


def test_the_cancel_is_looked_for_at_the_pace_of_a_poll():
    clock, looks = Clock(), []
    pause = runs.every(5.0, clock.sleep, lambda: looks.append(clock.now),
                       clock=clock)
    for _ in range(30):  # a 30 s told wait: a look for the notice a second
        pause(1.0)
    assert looks == [5.0, 10.0, 15.0, 20.0, 25.0, 30.0]


def test_a_cancel_found_between_pauses_ends_the_wait():
    clock = Clock()

    def cancelled():
        raise runs.ActionCancelled('stack cancelled')
    pause = runs.every(5.0, clock.sleep, cancelled, clock=clock)
    for _ in range(4):
        pause(1.0)
    with pytest.raises(runs.ActionCancelled):
        pause(1.0)
    assert clock.now == 5.0
