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
"""The checks of a process that wait for a notice, and their watch."""

import threading
import time

from heat_lifecycle_plugins.resources import waiting_checks

# Seconds a test waits for what should take a few watch periods.
SOON = 10.0


def waiter(resource_id, execution_id):
    return waiting_checks.Waiter(resource_id, execution_id, threading.Event())


def test_matched_takes_the_waiters_whose_own_execution_is_stored():
    one, two, old = waiter(1, 'exec-1'), waiter(2, 'exec-2'), waiter(3, 'new')
    stored = {1: 'exec-1', 3: 'old', 4: 'exec-4'}
    assert waiting_checks.matched([one, two, old], stored) == [one]


class Database(object):
    """Notices another engine worker records; the looks made at them."""

    def __init__(self, fail=0):
        self.notices, self.looks, self.fail = {}, [], fail

    def look(self, resource_ids):
        self.looks.append(list(resource_ids))
        if self.fail:
            self.fail -= 1
            raise RuntimeError('database gone')
        return {r: self.notices[r] for r in resource_ids
                if r in self.notices}


def stopped(waiting):
    deadline = time.monotonic() + SOON
    while waiting._watching and time.monotonic() < deadline:
        time.sleep(0.01)
    return not waiting._watching


def test_the_watch_wakes_a_check_for_a_notice_recorded_elsewhere():
    database = Database()
    waiting = waiting_checks.WaitingChecks(database.look, every=0.01)
    mine, other = waiter(7, 'exec-7'), waiter(8, 'exec-8')
    waiting.enter(mine)
    waiting.enter(other)
    # Recorded by another worker: nothing calls wake() in this process.
    threading.Timer(0.05, database.notices.__setitem__,
                    [7, 'exec-7']).start()
    assert mine.event.wait(SOON) is True
    assert not other.event.is_set()
    # One look for all the checks waiting in the process.
    assert sorted(database.looks[-1]) == [7, 8]
    waiting.leave(mine)
    waiting.leave(other)
    assert stopped(waiting)


def test_the_watch_stops_when_no_check_waits_and_starts_again():
    database = Database()
    waiting = waiting_checks.WaitingChecks(database.look, every=0.01)
    first = waiter(1, 'exec-1')
    waiting.enter(first)
    waiting.leave(first)
    assert stopped(waiting)
    looks = len(database.looks)
    time.sleep(0.05)
    assert len(database.looks) == looks  # an idle process makes no query
    second = waiter(2, 'exec-2')
    waiting.enter(second)
    database.notices[2] = 'exec-2'
    assert second.event.wait(SOON) is True
    waiting.leave(second)
    assert stopped(waiting)


def test_the_watch_wakes_a_check_once_unless_its_notice_is_dismissed():
    database = Database()
    waiting = waiting_checks.WaitingChecks(database.look, every=0.01)
    check = waiter(6, 'exec-6')
    database.notices[6] = 'exec-6'
    waiting.enter(check)
    assert check.event.wait(SOON) is True
    check.event.clear()
    assert check.event.wait(0.1) is False  # the notice is still stored
    waiting.again(check)
    assert check.event.wait(SOON) is True
    waiting.leave(check)
    assert stopped(waiting)


def test_a_failed_look_does_not_end_the_watch():
    database = Database(fail=3)
    waiting = waiting_checks.WaitingChecks(database.look, every=0.01)
    check = waiter(5, 'exec-5')
    waiting.enter(check)
    database.notices[5] = 'exec-5'
    assert check.event.wait(SOON) is True
    assert len(database.looks) > 3
    waiting.leave(check)
    assert stopped(waiting)
