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
"""Faults while heat-engine is too busy to answer heat-api in time.

heat-engine is paused (SIGSTOP, then SIGCONT) while a call from heat-api
is in flight: heat-api answers HTTP 500 once its RPC timeout passes. Case
9 (the deployment's final signal) and case 10 (a day-two request, once
dropped with its call and once run late) of the fault tier.
"""

import json
import os
import threading
import time

from heatclient import exc
import pytest

from heat_lifecycle_fixtures import faults
from tests.e2e import test_day_two
from tests.e2e.test_signal_path import wait_for
from tests.e2e.test_software_component import journal_lines
from tests.fault.conftest import case
from tests.fault.test_deployment_faults import assert_completed_once
from tests.fault.test_deployment_faults import create
from tests.fault.test_deployment_faults import journal

SIGNAL_TIMEOUT_PAST_RPC = 100  # seconds; heat-api gives up after 60
QUICK_RPC_TIMEOUT = 20  # seconds, the second heat-api's
PAUSE_PAST_RPC = 35  # seconds
# oslo.messaging's MessagingTimeout, as heat-api logs the failed call.
RPC_TIMED_OUT = 'Timed out waiting for a reply'


@case(9, 'heat-engine paused (SIGSTOP) past heat-api\'s RPC timeout while '
         'the final signal is in flight')
def test_a_signal_to_a_busy_engine_is_retried_and_applied_once(
        driver, heat, cloud, fault_row, tmp_path):
    path = tmp_path / 'journal'
    # The agent waits longer than heat-api (rpc_response_timeout, 60 s):
    # the retry follows heat-api's answer, not the agent's own timeout.
    stack_id = create(driver, 'HEAT_SIGNAL', 4, path, signal_retries=8,
                      signal_timeout=SIGNAL_TIMEOUT_PAST_RPC)
    wait_for(lambda: journal(path, 'started'), 120, 'the tool started')
    agent = driver.agents[-1]
    # The cause of the 500: heat-api's call to the engine timed out.
    timed_out = logged_after(cloud.heat.running('heat-api').log_path,
                             RPC_TIMED_OUT)
    with faults.paused(cloud.heat.running('heat-engine')) as down:
        wait_for(lambda: journal(path, 'finished'), 60, 'the tool ended')
        wait_for(lambda: 'retry 1 of 8' in agent.log_tail(20000), 150,
                 'the agent retrying the signal heat-api could not pass on')
    retries = [line for line in agent.log_tail(20000).splitlines()
               if 'retry 1 of 8' in line]
    assert 'failed (HTTPInternalServerError' in retries[0], retries[0]
    assert timed_out(), 'no %r in heat-api\'s log' % RPC_TIMED_OUT
    fault_row.back(down)
    driver.wait(stack_id, 'CREATE', timeout=240)
    fault_row.recovered('none: the engine handled the queued signals')
    # The retry, and the timed-out call if the engine still held it: one
    # applies the result, any other is only an event.
    assert_completed_once(driver, heat, stack_id, path)
    fault_row.outcome = (
        'heat-api failed the call with HTTP 500 (the agent\'s log), the '
        'agent retried; after SIGCONT: '
        'CREATE_COMPLETE, tool ran once, one final signal applied')


@case(10, 'heat-engine paused (SIGSTOP) past heat-api\'s RPC timeout while '
          'a day-two request waits for it')
def test_a_request_dropped_with_its_call_runs_once_when_sent_again(
        driver, heat, quick_heat, cloud, fault_row, tmp_path):
    # A paused engine takes nothing from its queue: the request waits
    # there until its expiry (the call's timeout) and is dropped with
    # the call (seen on both series, also with a 35 s pause and a 20 s
    # timeout). So through the heat-api whose RPC timeout is 20 s, with
    # that 35 s pause: 25 s sooner than heat-api's own 60 s.
    stack_id, journal_path = day_two_stack(driver, tmp_path)
    # The request as `openstack stack update --existing` sends it.
    request = {'backup_request': 'while-busy',
               'action_inputs': '{"label": "busy"}'}
    with faults.paused(cloud.heat.running('heat-engine')) as down:
        with pytest.raises(exc.HTTPException) as refused:
            quick_heat.stacks.update(stack_id, existing=True,
                                     parameters=request)
        time.sleep(max(0, PAUSE_PAST_RPC - down.seconds))
    fault_row.back(down)
    # heat-api's call waited rpc_response_timeout (20 s), then failed.
    assert refused.value.code == 500, str(refused.value)
    # Its message (2026.2) or only its traceback (2025.1) says so.
    answer = json.dumps(refused.value.error)
    assert 'Timed out waiting for a reply' in answer, answer
    first = _fate_of_unconfirmed_request(driver, heat, stack_id)
    assert first.startswith('was dropped'), first
    # What run-action advises: look, then the same request again. Its
    # token runs once, whether or not the first one ran.
    backups = sent_again(driver, heat, stack_id, request, journal_path)
    fault_row.recovered('the same request sent again')
    assert backups == ['backup label=busy'], journal_lines(journal_path)
    assert heat.resources.get(stack_id, 'deployment').resource_status == \
        'UPDATE_COMPLETE'
    fault_row.outcome = (
        'heat-api answered HTTP 500 after its RPC timeout; the request '
        'itself %s; the same request sent again: UPDATE_COMPLETE, BACKUP '
        'ran once' % first)


def logged_after(path, text):
    """A function: whether `text` was written to `path` since now."""
    start = os.path.getsize(path)

    def logged():
        with open(path, 'rb') as f:
            f.seek(start)
            return text.encode() in f.read()
    return logged


def answer_of(answers, call):
    """Run call(); append its result or the HTTP error it raised."""
    try:
        answers.append(call())
    except exc.HTTPException as error:
        answers.append(error)


@pytest.fixture
def quick_heat(cloud):
    """heatclient through a second heat-api whose RPC timeout is 20 s."""
    from heatclient import client
    url = cloud.heat.start_api('heat-api-quick', {'DEFAULT': {
        'rpc_response_timeout': QUICK_RPC_TIMEOUT}})
    yield client.Client('1', session=cloud.keystone.demo_session(),
                        endpoint=url(cloud.keystone.demo_project_id))
    cloud.heat.running('heat-api-quick').stop()


@case(10, 'heat-engine paused (SIGSTOP) 35 s while it handles a day-two '
          'request, past heat-api\'s RPC timeout (20 s)')
def test_a_request_that_ran_late_does_not_run_again_when_sent_again(
        driver, heat, quick_heat, cloud, fault_row, tmp_path):
    # Paused once it logged that it took the request: it runs the request
    # when it resumes, after heat-api answered 500 (the branch where the
    # first request ran). The same request sent again must not run twice.
    stack_id, journal_path = day_two_stack(driver, tmp_path)
    request = {'backup_request': 'ran-late',
               'action_inputs': '{"label": "late"}'}
    engine = cloud.heat.running('heat-engine')
    taken = logged_after(engine.log_path, 'Updating stack %s' %
                         heat.stacks.get(stack_id).stack_name)
    answers = []
    sender = threading.Thread(target=answer_of, args=(answers, lambda: (
        quick_heat.stacks.update(stack_id, existing=True,
                                 parameters=request))))
    sender.start()
    with faults.paused(engine, once=taken) as down:
        sender.join(QUICK_RPC_TIMEOUT * 3)
        time.sleep(max(0, PAUSE_PAST_RPC - down.seconds))
    fault_row.back(down)
    assert [getattr(a, 'code', a) for a in answers] == [500], answers
    assert _fate_of_unconfirmed_request(driver, heat, stack_id) == \
        'ran when the engine resumed'
    # The same token sent again with other inputs: the stack changes (so
    # Heat updates the deployment), the token does not. Were a token run
    # twice, BACKUP would run again, with label=again.
    again = dict(request, action_inputs='{"label": "again"}')
    backups = sent_again(driver, heat, stack_id, again, journal_path)
    fault_row.recovered('the same request sent again')
    assert backups == ['backup label=late'], journal_lines(journal_path)
    fault_row.outcome = (
        'heat-api answered HTTP 500 after 20 s; the request ran when the '
        'engine resumed; its token sent again with other inputs: '
        'UPDATE_COMPLETE, BACKUP ran once')


def day_two_stack(driver, tmp_path):
    """(stack id, journal path) of test_day_two's stack, created."""
    journal_path = str(tmp_path / 'journal')
    stack_id = driver.create(test_day_two.DAY_TWO, {
        'journal': journal_path, 'backup_dir': str(tmp_path / 'backups')},
        servers=['server'])
    return stack_id, journal_path


def sent_again(driver, heat, stack_id, request, journal_path):
    """The same request sent again and waited for; the BACKUP lines."""
    settled = heat.stacks.get(stack_id).updated_time
    heat.stacks.update(stack_id, existing=True, parameters=request)
    wait_for(lambda: heat.stacks.get(stack_id).updated_time != settled, 60,
             'the request sent again reaching the engine')
    driver.wait(stack_id, 'UPDATE', timeout=240)
    return [line for line in journal_lines(journal_path)
            if line.startswith('backup')]


def _fate_of_unconfirmed_request(driver, heat, stack_id):
    """What became of a request heat-api timed out on, once the engine runs.

    oslo.messaging sends a call with its timeout as the message's expiry:
    RabbitMQ drops it unless the paused engine had already received it
    and kept its connection.
    """
    deadline = time.monotonic() + 45
    while time.monotonic() < deadline:
        stack = heat.stacks.get(stack_id)
        if stack.action == 'UPDATE':
            driver.wait(stack_id, 'UPDATE', timeout=240)
            return 'ran when the engine resumed'
        time.sleep(1)
    return 'was dropped with the timed-out call (stack unchanged for 45 s)'
