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
"""The signal path of the adapted deployment, on the in-process engine.

Signals run in the RPC call, not in a thread of the stack's ThreadGroup
(Heat 25.0-27.0 never free those and refuse the 1001st); oversized fields
are stored shortened; CFN_SIGNAL URLs carry no expiry; the deadlines fail
a deployment saying why.
"""

from concurrent import futures
import time
from urllib import parse

import pytest

from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import releases
from heat_lifecycle_plugins.resources import deployment_signals as ds
from tests.functional.software_component import helpers
from tests.functional.software_component.test_signals import OUTPUTS
from tests.functional.software_component.test_signals import started
from tests.functional.software_component.test_signals import state

# Heat 25.0-27.0 refuse a stack's 1001st thread.
THREAD_BUDGET = 1000
# 1250 signals, past the budget: the test suite's bounded run; the
# benchmark's signals-ours part sends 5000 (20 actions).
ACTIONS = 5
SIGNALS_PER_ACTION = 250  # 249 progress + 1 final
SENDERS = 4


def stack_threads(engine, ident):
    """Threads the engine's ThreadGroup of the stack holds (0: no group)."""
    group = engine.service.thread_group_mgr.groups.get(ident['stack_id'])
    return len(group.threads) if group is not None else 0


def deadline_stack(transport='HEAT_SIGNAL', **deadlines):
    template = helpers.component_stack(
        [helpers.script(['CREATE', 'UPDATE'])], transport, OUTPUTS)
    template['resources']['deployment']['properties'].update(deadlines)
    return template


def test_signals_take_no_thread_of_the_stack(engine):
    ident, _, sd_id = started(engine)
    before = stack_threads(engine, ident)
    for n in range(30):
        engine.signal(ident, 'deployment',
                      helpers.progress_signal('step %d' % n), sync=False)
    assert stack_threads(engine, ident) == before
    assert len(helpers.signal_events(engine, ident)) == 30
    engine.signal(ident, 'deployment', helpers.final_signal(), sync=False)
    engine.wait(ident, 'CREATE')
    engine.delete(ident)


def _send_all(engine, ident, bodies):
    """Send `bodies` from SENDERS threads at once, as agents would."""
    with futures.ThreadPoolExecutor(SENDERS) as pool:
        for result in pool.map(lambda body: engine.signal(
                ident, 'deployment', body, sync=False), bodies):
            assert result is None


def lone_deployment(config_id, round_):
    """A stack of one deployment: each signal loads one resource.

    Its server is a server id the stack does not hold (as for a server
    of another stack), its config one made through the API.
    """
    return {'heat_template_version': '2016-04-08', 'resources': {
        'deployment': {'type': 'OS::Heat::SoftwareDeployment', 'properties': {
            'config': config_id, 'server': 'a-server-elsewhere',
            'signal_transport': 'HEAT_SIGNAL',
            'input_values': {'round': round_}}}}}


def wait_in_progress(engine, ident, action, previous=None, timeout=60):
    """The deployment once it waits for `action`'s signal (a new config)."""
    deadline = time.monotonic() + timeout
    while True:
        res = engine.resource(ident, 'deployment', with_attr=False)
        if res['physical_resource_id']:
            sd = helpers.software_deployment(engine, ident)
            if (sd['action'], sd['status']) == (action, 'IN_PROGRESS') and \
                    sd['config_id'] != previous:
                return sd
        assert time.monotonic() < deadline, res
        time.sleep(0.05)


@pytest.mark.skipif(
    releases.series_of(heat_internals.heat_version()).name not in (
        releases.SERIES[0].name, releases.SERIES[-1].name),
    reason='the signal load runs on the oldest and newest series only '
           '(eventlet and native threads, the two engine models)')
def test_signals_past_the_thread_budget_are_all_handled(engine):
    """One engine worker, one stack, 5 actions of 250 signals each.

    Without the remedy option: the engine's own budget holds because our
    signals do not spend it (the in-tree type fails at about 1000:
    benchmarks/signals.py).
    """
    began = time.monotonic()
    config = engine.client.create_software_config(
        engine.ctx, group='script', name='load', config='#!/bin/sh\n',
        outputs=[{'name': 'root_url'}])['id']
    ident = engine.create(lone_deployment(config, 0), wait=False)
    sd = wait_in_progress(engine, ident, 'CREATE')
    sent = 0
    for action in range(ACTIONS):
        if action:
            engine.update(ident, lone_deployment(config, action), wait=False)
            sd = wait_in_progress(engine, ident, 'UPDATE', sd['config_id'])
        tag = 'a%d-' % action
        threads = stack_threads(engine, ident)
        _send_all(engine, ident, [
            helpers.progress_signal('%ss%d' % (tag, n))
            for n in range(SIGNALS_PER_ACTION - 1)])
        assert stack_threads(engine, ident) == threads
        assert helpers.software_deployment(engine, ident)[
            'status_reason'].startswith('In progress: ' + tag)
        engine.signal(ident, 'deployment', helpers.final_signal(
            root_url='http://round-%d/' % action), sync=False)
        engine.wait(ident, 'UPDATE' if action else 'CREATE')
        sent += SIGNALS_PER_ACTION
        assert helpers.software_deployment(engine, ident)[
            'output_values']['root_url'] == 'http://round-%d/' % action
        # Every signal left its event (Heat keeps the last 1000 or so).
        reasons = [r for _, r in helpers.signal_events(engine, ident)]
        assert len([r for r in reasons if 'in progress: ' + tag in r]) == (
            SIGNALS_PER_ACTION - 1)
        assert reasons[-1] == 'Signal: deployment %s succeeded' % sd['id']
    assert sent > THREAD_BUDGET
    assert stack_threads(engine, ident) < THREAD_BUDGET / 4
    # The stack still takes actions: the budget was never near its end.
    engine.delete(ident)
    print('\n%d signals over %d actions in %.0f s (Heat %s)' % (
        sent, ACTIONS, time.monotonic() - began,
        '.'.join(map(str, heat_internals.heat_version()))))


def test_a_70kb_progress_reason_is_stored_shortened_with_an_event(engine):
    ident, _, sd_id = started(engine)
    reason = 'compiling ' + 'x' * 70000 + ' done'
    engine.signal(ident, 'deployment', helpers.progress_signal(reason))
    stored = helpers.software_deployment(engine, ident)['status_reason']
    assert stored.startswith('In progress: compiling xxx')
    assert stored.endswith('xxx done')
    assert 'characters cut: a status reason keeps at most %d' % (
        ds.MAX_REASON_CHARS) in stored
    [event] = helpers.signal_events(engine, ident)
    assert event[1].startswith('Signal: deployment %s in progress: '
                               'compiling xxx' % sd_id)
    # A 70 KB failure reason too; the state is still final and right.
    engine.signal(ident, 'deployment', {
        'deploy_status': 'FAILED', 'deploy_status_reason': 'y' * 70000,
        'deploy_stderr': 'z' * 70000})
    engine.wait(ident, 'CREATE', expect='FAILED')
    sd = helpers.software_deployment(engine, ident)
    assert len(sd['status_reason']) <= ds.MAX_REASON_CHARS
    assert sd['output_values']['deploy_stderr'] == 'z' * 70000
    engine.delete(ident)


def test_cfn_signal_urls_do_not_expire(engine):
    template = helpers.component_stack([helpers.script(['CREATE'])],
                                       'CFN_SIGNAL')
    ident = engine.create(template, wait=False)
    item = helpers.wait_for_delivery(engine, ident, 'CREATE')
    url = helpers.inputs_of(item)['deploy_signal_id']
    query = parse.parse_qs(parse.urlparse(url).query)
    assert 'Timestamp' not in query
    assert query['SignatureMethod'] == ['HmacSHA256']
    assert query['Signature'] and query['AWSAccessKeyId']
    engine.signal(ident, 'deployment', helpers.final_signal())
    engine.wait(ident, 'CREATE')
    engine.delete(ident)


def test_a_server_that_never_starts_fails_at_the_start_timeout(engine):
    ident = engine.create(deadline_stack(start_timeout=2), wait=False)
    item = helpers.wait_for_delivery(engine, ident, 'CREATE')
    assert 'deploy_run_timeout' not in helpers.inputs_of(item)
    sd_id = helpers.software_deployment(engine, ident)['id']
    engine.wait(ident, 'CREATE', expect='FAILED', timeout=60)
    reason = ('the server never started the deployment in 2 s '
              '(start_timeout): no signal arrived. Likely causes: server not '
              'booted, agent not polling, metadata server unreachable, '
              'signals blocked')
    assert engine.show(ident)['stack_status_reason'] == (
        'Resource CREATE failed: Error: resources.deployment: ' + reason)
    sd = helpers.software_deployment(engine, ident)
    assert (sd['id'], sd['status'], sd['status_reason']) == (
        sd_id, 'FAILED', reason)
    # A signal after the deadline is late: it changes nothing.
    engine.signal(ident, 'deployment', helpers.final_signal())
    assert helpers.software_deployment(engine, ident)['status'] == 'FAILED'
    assert 'not in progress (CREATE FAILED)' in helpers.signal_events(
        engine, ident)[-1][1]
    engine.delete(ident)


def test_a_deployment_that_runs_too_long_names_its_last_progress(engine):
    ident = engine.create(deadline_stack(start_timeout=60, run_timeout=3),
                          wait=False)
    item = helpers.wait_for_delivery(engine, ident, 'CREATE')
    # The agent learns the deadline, to stop the tool when Heat gives up.
    assert helpers.inputs_of(item)['deploy_run_timeout'] == '3'
    engine.signal(ident, 'deployment',
                  helpers.progress_signal('compiling step 7'))
    progressed = helpers.software_deployment(engine, ident)['updated_time']
    engine.wait(ident, 'CREATE', expect='FAILED', timeout=60)
    reason = ('still running after 3 s (run_timeout); last progress: '
              'compiling step 7 at %s' % progressed)
    assert engine.show(ident)['stack_status_reason'] == (
        'Resource CREATE failed: Error: resources.deployment: ' + reason)
    engine.delete(ident)


def test_progress_keeps_a_deployment_from_the_start_timeout(engine):
    ident = engine.create(deadline_stack(start_timeout=2), wait=False)
    helpers.wait_for_delivery(engine, ident, 'CREATE')
    engine.signal(ident, 'deployment', helpers.progress_signal('started'))
    time.sleep(3)
    assert state(engine, ident)[:2] == (('CREATE', 'IN_PROGRESS'),
                                        'IN_PROGRESS')
    engine.signal(ident, 'deployment', helpers.final_signal())
    engine.wait(ident, 'CREATE')
    engine.delete(ident)


def test_changing_only_a_deadline_reruns_nothing(engine):
    ident = engine.create(deadline_stack(run_timeout=600), wait=False)
    item = helpers.wait_for_delivery(engine, ident, 'CREATE')
    engine.signal(ident, 'deployment', helpers.final_signal())
    engine.wait(ident, 'CREATE')
    engine.update(ident, deadline_stack(run_timeout=900, start_timeout=60))
    sd = helpers.software_deployment(engine, ident)
    assert (sd['action'], sd['status'], sd['config_id']) == (
        'CREATE', 'COMPLETE', item['id'])
    engine.delete(ident)


def create_error(engine, template):
    """The error creating the stack raised (Heat validates at create)."""
    from heat.common import exception
    with pytest.raises(exception.StackValidationFailed) as caught:
        engine.create(template, wait=False)
    return str(caught.value)


@pytest.mark.parametrize('transport', ['NO_SIGNAL', 'TEMP_URL_SIGNAL',
                                       'ZAQAR_SIGNAL'])
def test_deadlines_need_a_transport_whose_signals_arrive(engine, transport):
    why = ('nothing waits for a signal' if transport == 'NO_SIGNAL' else
           'the engine polls the result and never sees the server start')
    assert create_error(engine, deadline_stack(
        transport, start_timeout=30)) == (
        'Resource deployment: property start_timeout (30) needs '
        'signal_transport HEAT_SIGNAL or CFN_SIGNAL, whose signals reach '
        'the deployment; with %s %s' % (transport, why))


def test_a_deadline_below_one_second_is_refused(engine):
    error = create_error(engine, deadline_stack(run_timeout=0))
    assert 'resources.deployment.properties.run_timeout' in error, error
    assert '0 is out of range (min: 1' in error, error
