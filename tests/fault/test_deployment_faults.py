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
"""Faults while a SoftwareDeployment runs its tool or waits for its signal.

A DeployedServer runs the real os-collect-config and heat-lifecycle-agent;
the tool appends to a journal on this machine, which tells how many times
it really ran. Cases 2 (heat-engine restarted), 3 (agent killed mid-tool),
4 (signal endpoint down when the tool ended), 5 (MariaDB restarted), 7 and
8 of the fault tier; 9 and 10 (a paused engine) are in test_busy_engine.
"""

import contextlib
import os
import signal
import time

from heatclient import exc

from heat_lifecycle_fixtures import faults
from heat_lifecycle_fixtures import hot
from heat_lifecycle_fixtures import process
from tests.e2e.test_signal_path import deployment
from tests.e2e.test_signal_path import signal_events
from tests.e2e.test_signal_path import wait_for
from tests.fault.conftest import case

# The tool journals its start and its end, and outputs `result`.
SCRIPT = """#!/bin/sh
echo "started $$" >> "$journal"
sleep "$seconds"
echo "finished $$" >> "$journal"
printf 'ran for %s s' "$seconds" > "$heat_outputs_path.result"
"""


def template(transport):
    return hot.template(hot.with_server(
        config=hot.script_config(SCRIPT, ['seconds', 'journal'], ['result']),
        deployment=hot.deployment('config', transport, input_values=(
            hot.from_params('seconds', 'journal')))),
        hot.params(seconds='number', journal='string'),
        hot.attr_outputs('deployment', 'result'))


def journal(path, word):
    """How many journal lines start with `word` (started, finished)."""
    try:
        with open(path) as f:
            return sum(1 for line in f if line.startswith(word + ' '))
    except FileNotFoundError:
        return 0


def succeeded(driver, stack_id):
    return [r for r in signal_events(driver, stack_id)
            if r.endswith(' succeeded')]


def create(driver, transport, seconds, path, **agent_options):
    return driver.create(template(transport),
                         {'seconds': seconds, 'journal': str(path)},
                         servers=['server'], wait=False,
                         agent_options=agent_options)


def waiting_deployment(driver, path, seconds):
    """A stack whose deployment waits for its signal, progress shown."""
    stack_id = create(driver, 'HEAT_SIGNAL', seconds, path,
                      heartbeat_interval=3)
    wait_for(lambda: [r for r in signal_events(driver, stack_id)
                      if ' in progress: ' in r], 120, 'progress events')
    return stack_id


def assert_completed_once(driver, heat, stack_id, path, runs=1):
    """COMPLETE, the tool's result in, one final signal accepted."""
    assert heat.stacks.get(stack_id).stack_status.endswith('_COMPLETE')
    sd = deployment(heat, stack_id)
    assert (sd.status, sd.output_values['result']) == (
        'COMPLETE', 'ran for %d s' % sd.input_values['seconds'])
    assert journal(path, 'started') == runs
    assert len(succeeded(driver, stack_id)) == 1, signal_events(
        driver, stack_id)


@contextlib.contextmanager
def result_kept_while_cfn_is_down(driver, cloud, path, seconds):
    """A CFN_SIGNAL tool that ends while heat-api-cfn is down.

    Yields (stack id, agent, outage) once the agent kept the result it
    could not deliver; heat-api-cfn comes back when the block ends.
    """
    stack_id = create(driver, 'CFN_SIGNAL', seconds, path, signal_retries=1,
                      heartbeat_interval=0)
    wait_for(lambda: journal(path, 'started'), 120, 'the tool started')
    agent = driver.agents[-1]
    with faults.outage(cloud.heat.part('heat-api-cfn')) as down:
        wait_for(lambda: journal(path, 'finished'), 60, 'the tool ended')
        wait_for(lambda: 'it runs again on the next pass' in
                 agent.log_tail(20000), 90, 'the agent keeping its result')
        yield stack_id, agent, down


@case(4, 'tool finished, signal endpoint (heat-api-cfn) down')
def test_a_result_not_delivered_is_sent_by_the_next_run(
        driver, heat, cloud, fault_row, tmp_path):
    path = tmp_path / 'journal'
    with result_kept_while_cfn_is_down(driver, cloud, path, 6) as (
            stack_id, agent, down):
        pass
    fault_row.back(down)
    driver.wait(stack_id, 'CREATE')
    fault_row.recovered('none: the next agent pass sent the kept result')
    assert_completed_once(driver, heat, stack_id, path)
    assert ('its result was not delivered on an earlier pass; sending it '
            'again without running the tool' in agent.log_tail(50000))
    fault_row.outcome = (
        'CREATE_COMPLETE; tool ran once (journal), its kept result '
        'delivered by the next agent pass, one final signal')


@case(3, 'agent killed mid-tool (SIGKILL: os-collect-config, agent, hook)')
def test_an_agent_killed_mid_tool_runs_it_again_and_signals_once(
        driver, heat, fault_row, tmp_path):
    path = tmp_path / 'journal'
    stack_id = create(driver, 'HEAT_SIGNAL', 8, path, heartbeat_interval=2)
    wait_for(lambda: journal(path, 'started'), 120, 'the tool started')
    agent = driver.agents[-1]
    with faults.outage(agent, kill=True) as down:
        pass  # os-collect-config starts again at once, as after a reboot
    fault_row.back(down)
    driver.wait(stack_id, 'CREATE')
    fault_row.recovered('none: os-collect-config ran the agent again')
    # The killed run never finished; the second one did, and signalled.
    assert journal(path, 'finished') == 1
    assert_completed_once(driver, heat, stack_id, path, runs=2)
    fault_row.outcome = (
        'CREATE_COMPLETE; the tool started twice (the killed run never '
        'finished), one final signal')


def late_signal_is_an_event(driver, heat, stack_id):
    """A signal after the end: an event, never an HTTP 5xx."""
    before = len(signal_events(driver, stack_id))
    try:
        heat.resources.signal(stack_id, 'deployment',
                              data={'deploy_status': 'COMPLETE'})
    except exc.HTTPException as error:
        raise AssertionError('late signal answered %s' % error)
    events = signal_events(driver, stack_id)
    assert len(events) == before + 1
    assert 'signal ignored, the deployment is not in progress' in events[-1]


def _recovers_by_itself(driver, stack_id, action, wait):
    """The stack ends `action` COMPLETE on its own within `wait` s.

    Anything else fails the case: its row says it needed nothing.
    """
    driver.wait(stack_id, action, timeout=wait)
    return 'none: the stack completed by itself'


def read_again(read, tries=3):
    """read(), again after heat-api dropped the connection.

    2026.2 once did, just after an engine host was killed (case 11).
    """
    from keystoneauth1 import exceptions as ks_exc
    for attempt in range(tries):
        try:
            return read()
        except ks_exc.ConnectFailure:
            if attempt == tries - 1:
                raise
            time.sleep(1)


def stays(heat, stack_id, status, seconds):
    """The stack keeps `status` for `seconds`, or the case fails."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        now = read_again(lambda: heat.stacks.get(stack_id).stack_status)
        assert now == status, 'the stack left %s by itself: %s' % (status,
                                                                   now)
        time.sleep(2)


def recovers_with_one_update(driver, heat, stack_id, stuck, wait):
    """The stack stays `stuck` for `wait` s; one update --existing ends it.

    Fails the case if the stack ended by itself (its row says it needed
    the update) or the update replaced the server.
    """
    stays(heat, stack_id, stuck, wait)
    server = heat.resources.get(stack_id, 'server').physical_resource_id
    heat.stacks.update(stack_id, existing=True)
    driver.wait(stack_id, 'UPDATE')
    assert (heat.resources.get(stack_id, 'server').physical_resource_id ==
            server), 'the update replaced the server'
    return 'stack update --existing'


@case(2, 'heat-engine SIGKILLed (master and workers) while a deployment '
         'waits for its signal')
def test_an_engine_restart_while_a_deployment_waits(
        driver, heat, cloud, fault_row, tmp_path):
    path = tmp_path / 'journal'
    stack_id = waiting_deployment(driver, path, 25)
    with faults.outage(cloud.heat.part('heat-engine'), kill=True) as down:
        pass
    fault_row.back(down)
    wait_for(lambda: deployment(heat, stack_id).status == 'COMPLETE', 90,
             'the final signal landing after the restart')
    # The engine that ran the create is gone: the stack stays
    # CREATE_IN_PROGRESS until an update, which runs the tool again (Heat
    # replaces the deployment the dead engine left in progress).
    fault_row.recovered(recovers_with_one_update(
        driver, heat, stack_id, 'CREATE_IN_PROGRESS', 30))
    assert heat.stacks.get(stack_id).stack_status == 'UPDATE_COMPLETE'
    assert journal(path, 'started') == 2
    sd = deployment(heat, stack_id)
    assert sd.status == 'COMPLETE'
    late_signal_is_an_event(driver, heat, stack_id)
    fault_row.outcome = (
        'signals after the restart landed (deployment COMPLETE), stack left '
        'CREATE_IN_PROGRESS; then UPDATE_COMPLETE, tool runs: 2, server '
        'kept; a late signal is an event')


@case(5, 'MariaDB restarted (SIGTERM) while a deployment waits')
def test_a_database_restart_while_a_deployment_waits(
        driver, heat, cloud, fault_row, tmp_path):
    path = tmp_path / 'journal'
    stack_id = waiting_deployment(driver, path, 15)
    with faults.outage(cloud.mariadb, at_least=5) as down:
        pass
    fault_row.back(down)
    fault_row.recovered(_recovers_by_itself(driver, stack_id, 'CREATE', 90))
    assert deployment(heat, stack_id).status == 'COMPLETE'
    assert heat.stacks.get(stack_id).stack_status == 'CREATE_COMPLETE'
    assert journal(path, 'started') == 1
    fault_row.outcome = 'completed by itself: CREATE_COMPLETE, tool runs: 1'


def _tool_pid(path):
    """The PID of the first tool run (its journal line)."""
    with open(path) as f:
        return int(f.readline().split()[1])


def _parent_of(pid):
    return process.stat(pid)[1]


def _running(pid):
    found = process.stat(pid)
    return found is not None and found[0] != 'Z'


@case(7, 'only the hook SIGKILLed mid-tool (os-collect-config and the '
         'agent live on)')
def test_a_killed_hook_fails_the_deployment_and_stops_its_tool(
        driver, heat, fault_row, tmp_path):
    path = tmp_path / 'journal'
    stack_id = create(driver, 'HEAT_SIGNAL', 20, path)
    wait_for(lambda: journal(path, 'started'), 120, 'the tool started')
    tool = _tool_pid(path)
    hook = _parent_of(tool)
    with open('/proc/%d/cmdline' % hook, 'rb') as f:
        assert b'hooks/script' in f.read(), 'not the script hook'
    down = faults.Outage('hook')
    down.stopped_at = time.monotonic()
    os.kill(hook, signal.SIGKILL)
    down.started_at = time.monotonic()  # a hook does not come back
    fault_row.back(down)
    driver.wait(stack_id, 'CREATE', expect='FAILED', timeout=60)
    reason = heat.stacks.get(stack_id).stack_status_reason
    assert 'hook script was killed by SIGKILL' in reason, reason
    wait_for(lambda: not _running(tool), 15, 'the tool stopped')
    assert journal(path, 'finished') == 0
    # Heat replaces the FAILED deployment: the tool runs again, once.
    server = heat.resources.get(stack_id, 'server').physical_resource_id
    heat.stacks.update(stack_id, existing=True)
    driver.wait(stack_id, 'UPDATE')
    fault_row.recovered('stack update --existing')
    assert (heat.resources.get(stack_id, 'server').physical_resource_id ==
            server), 'the update replaced the server'
    assert (journal(path, 'started'), journal(path, 'finished')) == (2, 1)
    assert deployment(heat, stack_id).status == 'COMPLETE'
    fault_row.outcome = (
        'CREATE_FAILED at once ("hook script was killed by SIGKILL"), its '
        'tool stopped too (never finished); then UPDATE_COMPLETE, the tool '
        'ran again once, server kept')


@case(8, 'server "rebooted" (SIGKILL: os-collect-config, agent) after the '
         'tool finished, before its signal was delivered')
def test_a_reboot_before_the_signal_delivers_the_kept_result(
        driver, heat, cloud, fault_row, tmp_path):
    path = tmp_path / 'journal'
    with result_kept_while_cfn_is_down(driver, cloud, path, 4) as (
            stack_id, agent, down):
        # The reboot: every process of the server goes; its state
        # directory stays, and os-collect-config starts again.
        with faults.outage(agent, kill=True):
            pass
    fault_row.back(down)
    driver.wait(stack_id, 'CREATE')
    fault_row.recovered('none: the kept result was sent after the reboot')
    assert_completed_once(driver, heat, stack_id, path)
    fault_row.outcome = (
        'CREATE_COMPLETE; tool ran once (journal), the result kept before '
        'the reboot delivered after it, one final signal')
