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
"""An ExternalResource told by Mistral: notices and the told wait."""

import threading

import pytest

from heat_lifecycle_plugins import action_requests
from heat_lifecycle_plugins.clients import executions
from heat_lifecycle_plugins.resources import execution_notices as notices
from heat_lifecycle_plugins.resources import execution_results as results
from heat_lifecycle_plugins.resources import waiting_checks

EXEC = '2b1f6c1e-8a9c-4c3e-9a57-0d3f7c1e4b11'


# -- notice(): what a signal's body may record --------------------------------

def test_a_mistral_end_notification_records_its_execution():
    body = {'id': EXEC, 'event': 'WORKFLOW_SUCCEEDED', 'state': 'SUCCESS',
            'name': 'wf', 'project_id': 'p'}
    ended, reason = notices.notice(body)
    assert ended == EXEC
    assert reason == ('Mistral: execution %s ended (WORKFLOW_SUCCEEDED)'
                      % EXEC)
    for event in ('WORKFLOW_FAILED', 'WORKFLOW_CANCELLED'):
        assert notices.notice({'id': EXEC, 'event': event})[0] == EXEC


@pytest.mark.parametrize('body,why', [
    (None, 'not a Mistral notification'),
    ('SUCCESS', 'not a Mistral notification'),
    ([EXEC], 'not a Mistral notification'),
    ({'event': 'WORKFLOW_SUCCEEDED'}, 'names no execution id'),
    ({'id': 7, 'event': 'WORKFLOW_SUCCEEDED'}, 'names no execution id'),
    ({'id': '', 'event': 'WORKFLOW_SUCCEEDED'}, 'names no execution id'),
    ({'id': 'x' * 65, 'event': 'WORKFLOW_SUCCEEDED'},
     'names no execution id'),
    ({'id': '\ud800', 'event': 'WORKFLOW_SUCCEEDED'},
     'names no execution id'),
    ({'id': EXEC, 'event': 'WORKFLOW_LAUNCHED'}, 'is not an end'),
    ({'id': EXEC}, 'is not an end'),
])
def test_anything_else_records_nothing_and_says_why(body, why):
    ended, reason = notices.notice(body)
    assert ended is None
    assert reason.startswith('signal ignored: ') and why in reason
    assert len(reason) < 400 and '\ud800' not in reason


def test_a_huge_body_gives_a_short_reason():
    ended, reason = notices.notice('x' * 100000)
    assert ended is None and len(reason) < 200


def test_the_webhook_keeps_the_template_own_notify_entries():
    own = {'type': 'webhook', 'url': 'http://elsewhere/'}
    params = notices.with_webhook({'env': {'a': 1}, 'notify': [own]},
                                  'http://cfn/signal?Signature=s')
    assert params['env'] == {'a': 1}
    assert params['notify'][0] == own
    assert params['notify'][1] == {
        'type': 'webhook', 'url': 'http://cfn/signal?Signature=s',
        'headers': {'Content-Type': 'application/json'},
        'event_types': ['WORKFLOW_SUCCEEDED', 'WORKFLOW_FAILED',
                        'WORKFLOW_CANCELLED']}
    assert notices.with_webhook(None, 'u')['notify'][0]['url'] == 'u'


def test_the_start_event_says_which_way_the_execution_is_waited_for():
    run = results.Run('CREATE', 'wf', EXEC)
    told = notices.waiting_reason(run, notices.Waiting('http://u', None), 30)
    assert told == ('Mistral execution %s of workflow \'wf\' started; '
                    'Mistral tells its end to heat-api-cfn (fallback poll '
                    'every 30 s)' % EXEC)
    polled = notices.waiting_reason(
        run, notices.Waiting(None, 'Heat refuses signals during DELETE'), 30)
    assert polled.endswith('; polling it: Heat refuses signals during '
                           'DELETE')
    assert notices.ended_reason(run, False).endswith(
        'found by the fallback poll (no notification came)')


def test_a_requests_start_event_names_its_action_for_the_user():
    backup = results.Run('BACKUP', 'wf', EXEC)
    told = notices.waiting_reason(backup, notices.Waiting('http://u', None),
                                  30, 'UPDATE')
    assert told.startswith('Mistral execution %s of workflow \'wf\' '
                           'started for BACKUP; ' % EXEC)
    assert action_requests.requested_in(told) == 'BACKUP'
    # Heat's own action (a re-apply is Heat's UPDATE): nothing added.
    for run in (backup._replace(action='UPDATE'),
                backup._replace(action='CHECK')):
        said = notices.waiting_reason(run, notices.Waiting(None, 'x'), 30,
                                      run.action)
        assert ' started; polling it: x' in said
        assert action_requests.requested_in(said) is None


# -- wait_told(): look for the notice, read once, poll as a fallback ----------

class Clock(object):
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


class FakeNotice(object):
    def __init__(self, at=None):
        self.at = at  # when the notice arrives; None: never
        self.dismissed = 0

    def __call__(self, clock):
        self.clock = clock
        return self

    def ended(self):
        return self.at is not None and self.clock.now >= self.at

    def dismiss(self):
        self.dismissed += 1
        self.at = None


def reader(clock, ends_at, reads):
    def read():
        reads.append(clock.now)
        state = 'SUCCESS' if clock.now >= ends_at else 'RUNNING'
        return executions.Execution(state, None, '{}')
    return read


def wait(clock, notice, schedule, ends_at, reads, budget=5.0):
    return executions.wait_told(
        reader(clock, ends_at, reads), notice(clock), schedule, budget,
        grace=120, clock=clock, sleep=clock.sleep)


def test_told_the_execution_is_read_once_soon_after_the_notice():
    clock, reads = Clock(), []
    schedule = executions.Schedule(0.0, 3.0, period=30)
    # Heat calls the check about every budget + 1 s until it ends.
    result = None
    while result is None:
        execution, told = wait(clock, FakeNotice(at=61.1), schedule, 61.0,
                               reads)
        result = execution
        clock.now += 0 if execution else 1.0
    assert told is True and result.state == 'SUCCESS'
    assert clock.now - 61.1 <= executions.LOOK_EVERY
    # Two fallback polls (30 s, 60 s) and the read after the notice.
    assert reads == [pytest.approx(30, abs=0.3), pytest.approx(60, abs=0.3),
                     pytest.approx(clock.now)]


def test_a_lost_notice_is_caught_by_the_fallback_poll():
    clock, reads = Clock(), []
    schedule = executions.Schedule(0.0, 3.0, period=30)
    result = None
    while result is None:
        result, told = wait(clock, FakeNotice(at=None), schedule, 40.0,
                            reads)
        clock.now += 0 if result else 1.0
    assert told is False and result.state == 'SUCCESS'
    assert 40.0 < clock.now <= 40.0 + 30 + 1.0
    assert len(reads) == 2


def fallback_polls(execution_id, until, period=30):
    """When the fallback polls of an execution started at 0 come."""
    schedule = executions.Schedule(
        0.0, 3.0, period=period,
        phase=executions.fallback_phase(execution_id))
    polls = []
    while schedule.next_poll <= until:
        polls.append(schedule.next_poll)
        schedule.answered(schedule.next_poll)
    return polls


BURST = ['%08x-8a9c-4c3e-9a57-0d3f7c1e4b11' % (i * 7919) for i in range(50)]


def test_the_fallback_phase_is_fixed_by_the_execution_within_half_a_period():
    phases = [executions.fallback_phase(one) for one in BURST]
    assert all(0.5 <= phase < 1.0 for phase in phases)
    assert phases == [executions.fallback_phase(one) for one in BURST]
    assert max(phases) - min(phases) > 0.4


def test_a_burst_started_together_does_not_poll_together_at_its_end():
    # 50 workflows of 60 s started at once, ending at 60.9-61.9 s (the
    # benchmark's batch): with one phase all 50 polled at 60 s, with the
    # ends; spread, few polls fall in the two seconds around the ends.
    near_the_ends = [poll for one in BURST
                     for poll in fallback_polls(one, until=90)
                     if 59.9 <= poll <= 61.9]
    assert len(near_the_ends) <= 10
    together = fallback_polls(EXEC, until=90, period=30)
    assert len(together) == 3 and together[0] < 30  # not at 30, 60, 90


def test_a_lost_notice_is_still_found_within_a_period_of_the_end():
    for one in BURST:
        for ends_at in (0.5, 14.9, 29.9, 40.0, 61.9):
            found = next(poll for poll in fallback_polls(one, until=200)
                         if poll >= ends_at)
            assert found - ends_at <= 30


def test_a_notice_the_execution_belies_is_dismissed_not_read_again():
    clock, reads = Clock(), []
    schedule = executions.Schedule(0.0, 3.0, period=30)
    notice = FakeNotice(at=1.0)
    execution, told = wait(clock, notice, schedule, 100.0, reads)
    assert execution is None and told is False
    assert notice.dismissed == 1 and len(reads) == 1


def test_without_budget_one_look_per_heat_call():
    clock, reads = Clock(), []
    schedule = executions.Schedule(0.0, 3.0, period=30)
    execution, _ = wait(clock, FakeNotice(at=None), schedule, 5.0, reads,
                        budget=0)
    assert execution is None and clock.now == 0.0 and reads == []


def test_the_last_pause_ends_at_the_budget_not_a_look_before():
    clock, reads = Clock(), []
    schedule = executions.Schedule(0.0, 3.0, period=30)
    execution, _ = wait(clock, FakeNotice(at=None), schedule, 100.0, reads,
                        budget=4.5)
    # Looks at 0, 1, 2, 3, 4 and 4.5: no stretch of the budget unwatched.
    assert execution is None and clock.now == 4.5


def test_told_during_an_outage_retries_at_the_outage_pace():
    clock, reads = Clock(), []
    schedule = executions.Schedule(0.0, 3.0, period=30)

    def read():
        reads.append(clock.now)
        raise Unanswered()
    executions.wait_told(read, FakeNotice(at=0.0)(clock), schedule, 5.0,
                         grace=120, clock=clock, sleep=clock.sleep)
    # Retries every OUTAGE_RETRY (1 s): not every look (0.25 s), nor a
    # fallback period (30 s) later.
    gaps = [b - a for a, b in zip(reads, reads[1:])]
    assert len(reads) >= 5 and min(gaps) >= executions.OUTAGE_RETRY


class Unanswered(Exception):
    transient = True


def test_a_woken_pause_ends_the_wait_at_the_notice_not_the_next_look():
    clock, reads = Clock(), []
    schedule = executions.Schedule(0.0, 3.0, period=30)
    notice = FakeNotice(at=1.1)(clock)

    def pause(seconds):  # woken when the notice lands
        clock.now = min(clock.now + seconds, max(clock.now, notice.at))
    execution, told = executions.wait_told(
        reader(clock, 1.0, reads), notice, schedule, 5.0, grace=120,
        clock=clock, sleep=clock.sleep, look_every=4.0, pause=pause)
    assert told and execution.state == 'SUCCESS'
    assert clock.now == 1.1  # not 4.0, the next look


def test_wake_reaches_the_notice_waiting_in_this_process_only():
    waiting = waiting_checks.WaitingChecks(lambda ids: {})
    with notices.Notice(None, 'exec-1', waiting) as one, \
            notices.Notice(None, 'exec-2', waiting) as other:
        woke = threading.Timer(0.05, waiting.wake, ['exec-1'])
        woke.start()
        assert one.pause(30) is True
        assert other.pause(0.01) is False
        # Woken once: the next pause waits again.
        assert one.pause(0.01) is False
        woke.join()
    assert waiting.waiting() == []
    waiting.wake('exec-1')  # nobody waits: nothing happens


# -- how an action waits ------------------------------------------------------

class Resource(notices.ExecutionNotices):
    """The attributes of a resource _waiting() reads."""

    no_signal_actions = ('SUSPEND', 'DELETE')

    def __init__(self, action, url='http://cfn/v1/signal/x?Signature=s'):
        self.action = action
        self.url = url

    def _get_ec2_signed_url(self, never_expire=False):
        assert never_expire  # a URL for the resource's whole life
        if isinstance(self.url, Exception):
            raise self.url
        return self.url


@pytest.mark.parametrize('action', ['CREATE', 'UPDATE', 'RESUME', 'CHECK'])
def test_actions_heat_takes_signals_for_are_told(action):
    assert Resource(action)._waiting(True) == notices.Waiting(
        'http://cfn/v1/signal/x?Signature=s', None)


@pytest.mark.parametrize('action', ['DELETE', 'SUSPEND'])
def test_delete_and_suspend_poll(action):
    assert Resource(action)._waiting(True) == notices.Waiting(
        None, 'Heat refuses signals during %s' % action)


def test_without_a_signed_url_or_notifications_the_action_polls():
    assert Resource('CREATE')._waiting(False).why == (
        'notifications are off ([heat_lifecycle_plugins] mistral_notify)')
    assert Resource('CREATE', url=None)._waiting(True).why.startswith(
        'no signed heat-api-cfn URL (no EC2 keypair')
    waiting = Resource('CREATE', url=RuntimeError('x' * 5000))._waiting(True)
    assert waiting.url is None
    assert waiting.why.startswith('no signed heat-api-cfn URL: xxx')
    assert len(waiting.why) < 400


def test_the_physical_id_is_never_taken_for_the_stack_user():
    class Held(notices.ExecutionNotices):
        resource_id = 'thing-1'

        def __init__(self, data):
            self._stored = data

        def data(self):
            return self._stored

    assert Held({})._get_user_id() is None
    assert Held({'user_id': 'u-1'})._get_user_id() == 'u-1'
