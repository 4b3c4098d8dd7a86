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
"""How long one check waits for a told execution, and its cancel looks."""

import pytest

from heat_lifecycle_plugins.resources import workflow_runs as runs
from tests.unit.test_execution_notices import Clock


def test_a_told_wait_takes_the_stack_time_left():
    # One check to the end: no step given back, so no 1 s pause of Heat's
    # for a notice to land in.
    assert runs.told_budget(runs.CHECK_BUDGET, 3600) == 3600
    assert runs.told_budget(runs.CHECK_BUDGET, 12.5) == 12.5
    # It looks once when the stack's time is past.
    assert runs.told_budget(runs.CHECK_BUDGET, -3) == 0.0
    # A legacy stack's check looks once, told or not.
    assert runs.told_budget(0, 3600) == 0


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
