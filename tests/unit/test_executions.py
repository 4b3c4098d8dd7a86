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
"""When an ExternalResource polls a running Mistral execution."""

import pytest

from heat_lifecycle_plugins.clients import executions as polling


@pytest.mark.parametrize('age,expected', [
    (0, 0.2), (1, 0.2), (2.5, 0.25), (10, 1.0), (25, 2.5), (60, 3.0),
    (3600, 3.0)])
def test_interval_is_a_tenth_of_the_age_within_bounds(age, expected):
    assert polling.interval(age, 3.0) == pytest.approx(expected)


def polls_over(seconds, longest):
    """The polls of an execution that runs `seconds`, one at each due time."""
    schedule = polling.Schedule(0.0, longest)
    count, now = 0, 0.0
    while now <= seconds:
        count += 1
        schedule.answered(now)
        now = schedule.next_poll
    return count, now - seconds


def test_a_minute_long_execution_costs_fewer_polls_than_one_a_second():
    count, _ = polls_over(60, 3.0)
    assert count < 50  # the in-tree type: one per Heat step, about 57
    count, _ = polls_over(600, 3.0)
    assert count < 240  # in-tree: about 570


def test_a_short_execution_is_seen_to_end_soon():
    for seconds in (0.5, 2.0, 2.25, 2.5, 2.75):
        _, late = polls_over(seconds, 3.0)
        assert late <= 0.28


def test_wait_sleeps_until_a_poll_due_before_heat_calls_again():
    schedule = polling.Schedule(100.0, 3.0)
    assert schedule.wait(100.0, deadline=105.0) == 0.0
    schedule.answered(100.0)
    assert schedule.wait(100.05, deadline=105.0) == pytest.approx(0.15)
    # Past the check's budget: back to Heat.
    assert schedule.wait(100.05, deadline=100.1) is None


def test_wait_returns_to_heat_when_the_poll_is_a_heat_step_away():
    schedule = polling.Schedule(0.0, 3.0)
    schedule.answered(30.0)  # next poll 3 s later
    assert schedule.wait(30.5, deadline=40.0) is None
    assert schedule.wait(32.5, deadline=40.0) == pytest.approx(0.5)
    assert schedule.wait(30.5, deadline=40.0, horizon=10) == \
        pytest.approx(2.5)


def test_unanswered_polls_count_the_silence_and_retry_every_second():
    schedule = polling.Schedule(0.0, 3.0)
    schedule.answered(1.0)
    assert schedule.unanswered(2.0) == 0.0
    assert schedule.next_poll == 3.0
    assert schedule.unanswered(3.0) == 1.0
    assert schedule.unanswered(9.5) == 7.5
    assert schedule.answered(10.0) == 8.0
    assert schedule.unanswered_since is None
    assert schedule.answered(11.0) is None
