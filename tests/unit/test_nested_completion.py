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
"""nested_completion.poll_until: checks again soon, gives the step back."""

from heat_lifecycle_plugins.resources import nested_completion


class FakeClock(object):
    """A clock that advances only when slept on."""

    def __init__(self):
        self.now = 0.0
        self.pauses = []

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.pauses.append(seconds)
        self.now += seconds


def test_returns_as_soon_as_the_check_is_true():
    clock = FakeClock()
    answers = iter([False, False, True])
    assert nested_completion.poll_until(lambda: next(answers), budget=2,
                                        clock=clock, sleep=clock.sleep)
    assert clock.pauses == [nested_completion.FIRST_INTERVAL] * 2


def test_gives_up_after_the_budget_with_the_last_answer():
    clock = FakeClock()
    calls = []
    assert not nested_completion.poll_until(
        lambda: calls.append(1), budget=2, clock=clock, sleep=clock.sleep)
    assert abs(clock.now - 2) < 1e-9
    # Pauses grow with the time spent (the last one ends at the budget),
    # never past the last interval.
    assert clock.pauses[:-1] == sorted(clock.pauses[:-1])
    assert max(clock.pauses) <= nested_completion.LAST_INTERVAL
    assert len(calls) == len(clock.pauses) + 1


def test_intervals_are_bounded():
    assert nested_completion.next_interval(0) == \
        nested_completion.FIRST_INTERVAL
    assert nested_completion.next_interval(1000) == \
        nested_completion.LAST_INTERVAL


def test_a_failing_check_propagates():
    def check():
        raise RuntimeError('nested stack failed')
    try:
        nested_completion.poll_until(check, budget=30)
    except RuntimeError as exc:
        assert 'nested stack failed' in str(exc)
    else:
        raise AssertionError('the failure was swallowed')


def test_a_moved_traversal_gives_the_step_back_at_the_next_look():
    clock = FakeClock()
    looks = []

    def moved():
        looks.append(clock.now)
        return clock.now >= 3

    assert not nested_completion.poll_until(
        lambda: False, budget=30, moved=moved, clock=clock,
        sleep=clock.sleep)
    # Looked once a LOOK_EVERY, and gave back at the first look after the
    # move, long before the budget.
    assert len(looks) >= 3
    assert all(b - a >= nested_completion.LOOK_EVERY - 1e-9
               for a, b in zip(looks, looks[1:]))
    assert looks[0] >= nested_completion.LOOK_EVERY - 1e-9
    assert 3 <= clock.now < 3 + nested_completion.LOOK_EVERY + \
        nested_completion.LAST_INTERVAL


def test_a_stack_that_stays_polls_the_whole_budget():
    # 6 s: past the old 5 s budget, whose end cost Heat's 1 s pause.
    clock = FakeClock()
    assert nested_completion.poll_until(
        lambda: clock.now >= 6, budget=30,
        moved=lambda: False, clock=clock, sleep=clock.sleep)
    assert 6 <= clock.now < 6 + nested_completion.LAST_INTERVAL + 1e-9


def test_a_check_polling_alone_is_not_slowed():
    assert nested_completion.next_interval(0, polling=1) == \
        nested_completion.FIRST_INTERVAL
    assert nested_completion.next_interval(1000, polling=1) == \
        nested_completion.LAST_INTERVAL


def test_checks_polling_at_once_share_the_reads():
    clock = FakeClock()
    others = {object() for _ in range(8)}
    polling = set(others)
    answers = iter([False] * 20 + [True])
    assert nested_completion.poll_until(
        lambda: next(answers), budget=60, clock=clock, sleep=clock.sleep,
        polling=polling)
    # Each of the 8 others adds 1 / PROCESS_READS_PER_SECOND to a pause.
    share = 8 / nested_completion.PROCESS_READS_PER_SECOND
    assert all(abs(p - share) < 1e-9 for p in clock.pauses)
    assert polling == others  # it left when it returned


def test_sharing_never_slows_a_check_below_heats_own_pace():
    crowd = 10 * int(nested_completion.PROCESS_READS_PER_SECOND)
    assert nested_completion.next_interval(0, polling=crowd) == \
        nested_completion.SLOWEST_SHARED_INTERVAL


def test_a_failing_check_leaves_the_polling_set():
    polling = set()

    def check():
        assert len(polling) == 1  # it polls as one of the process's
        raise RuntimeError('nested stack failed')
    try:
        nested_completion.poll_until(check, budget=30, polling=polling)
    except RuntimeError:
        pass
    assert polling == set()
