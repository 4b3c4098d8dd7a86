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
"""When an update was dropped, and sending it again (plain callables)."""

import pytest

from heat_lifecycle_plugins.user_side import action_run
from heat_lifecycle_plugins.user_side import errors
from heat_lifecycle_plugins.user_side import stack_updates

T0, T1 = '2026-11-24T10:00:00Z', '2026-11-24T10:05:00Z'


def test_a_failed_stack_left_as_it_was_means_a_dropped_update():
    assert stack_updates.dropped(('FAILED', T0), ('FAILED', T0))
    assert stack_updates.dropped(('FAILED', T0), ('COMPLETE', T0))
    # Taken: IN_PROGRESS, or a new updated_time, or not after a failure.
    assert not stack_updates.dropped(('FAILED', T0), ('IN_PROGRESS', T0))
    assert not stack_updates.dropped(('FAILED', T0), ('FAILED', T1))
    assert not stack_updates.dropped(('COMPLETE', T0), ('COMPLETE', T0))
    assert not stack_updates.dropped(None, ('FAILED', T0))


class Stack(object):
    """A stack that drops the first `drops` updates after a failure."""

    def __init__(self, drops):
        self.drops, self.sent = drops, 0
        self.state = {'stack_status': 'UPDATE_FAILED', 'updated_time': T0}

    def update(self):
        self.sent += 1
        if self.sent > self.drops:
            self.state = {'stack_status': 'UPDATE_IN_PROGRESS',
                          'updated_time': T1}

    def read(self):
        return dict(self.state)


def test_a_dropped_request_is_sent_again_once():
    stack = Stack(drops=1)
    after = stack_updates.send(stack.update, stack.read,
                               action_run._facts, pause=0)
    assert stack.sent == 2
    assert after['stack_status'] == 'UPDATE_IN_PROGRESS'


def test_a_request_dropped_twice_is_an_error_not_the_old_failure():
    stack = Stack(drops=2)
    with pytest.raises(stack_updates.Dropped) as raised:
        stack_updates.send(stack.update, stack.read,
                           action_run._facts, pause=0)
    assert stack.sent == 2
    assert raised.value.after['stack_status'] == 'UPDATE_FAILED'


def test_heat_api_statuses_split_into_heats_own():
    assert action_run._facts(
        {'stack_status': 'UPDATE_IN_PROGRESS', 'updated_time': T1}) == (
        'IN_PROGRESS', T1)
    assert action_run._facts(
        {'stack_status': 'CREATE_FAILED'}) == ('FAILED', None)


BACKUP = ('BACKUP', 'app.backup')


def test_run_action_says_heat_dropped_its_request_twice():
    stack = Stack(drops=2)
    with pytest.raises(errors.UserSideError) as raised:
        action_run.send_request(stack.update, stack.read, *BACKUP, pause=0)
    assert stack.sent == 2
    # Never the earlier failure (UPDATE_FAILED) as this request's result.
    assert str(raised.value) == (
        'BACKUP of app.backup: Heat dropped the request 2 times (the stack '
        'stays UPDATE_FAILED); send it again')


def test_run_action_follows_a_request_taken_the_second_time():
    stack = Stack(drops=1)
    after = action_run.send_request(stack.update, stack.read, *BACKUP,
                                    pause=0)
    assert stack.sent == 2
    assert after['stack_status'] == 'UPDATE_IN_PROGRESS'
