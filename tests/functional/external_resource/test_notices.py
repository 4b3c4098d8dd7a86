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
"""OS::Mistral::ExternalResource told by Mistral when its execution ends.

The in-process engine has no heat-api-cfn: each test sends the signal
Mistral's webhook would, through the engine's RPC API as heat-api-cfn
does (the whole path, Mistral to heat-api-cfn, is in tests/e2e).
"""

import re
import time

from heat_lifecycle_fixtures import process
from tests.functional.external_resource.conftest import create_template
from tests.functional.external_resource.conftest import executions_of

# Makes a thing, then sleeps `sleep` seconds.
SLOW = create_template('create_slowly', 'sleep', env_default=2)


def told(options, period):
    """Have Mistral tell; its webhooks go to a port nothing listens on."""
    options(mistral_notify=True, mistral_notified_poll_interval=period)
    options(group=None, heat_waitcondition_server_url=(
        'http://127.0.0.1:%d/v1/waitcondition' % process.free_port()))


def status(heat, ident):
    shown = heat.show(ident, resolve_outputs=False)
    return '%s_%s' % (shown['stack_action'], shown['stack_status'])


def reasons(heat, ident):
    return [e['resource_status_reason'] for e in heat.events(ident, 'thing')]


def ended_execution(mistral, known):
    """The new create_slowly execution (not in `known`), once it ended."""
    def ended():
        done = [e for e in executions_of(mistral, 'create_slowly')
                if e.state == 'SUCCESS' and e.id not in known]
        return done[0] if done else None
    return process.wait_until(ended, 30, 'the workflow to end')


def test_a_notice_ends_the_action_without_the_fallback_poll(
        heat, mistral, options, thing_store):
    told(options, 600)
    # The session's Mistral ran create_slowly for other tests too.
    known = {e.id for e in executions_of(mistral, 'create_slowly')}
    ident = heat.create(SLOW, params={'store': thing_store.url}, wait=False)
    execution = ended_execution(mistral, known)
    time.sleep(3)  # polled, it would have ended by now
    assert status(heat, ident) == 'CREATE_IN_PROGRESS'
    assert any('Mistral tells its end to heat-api-cfn (fallback poll every '
               '600 s)' in r for r in reasons(heat, ident))

    # Not an end, and not this execution: recorded as ignored, no effect.
    heat.signal(ident, 'thing', {'id': execution.id,
                                 'event': 'WORKFLOW_LAUNCHED'})
    heat.signal(ident, 'thing', {'id': 'another', 'event':
                                 'WORKFLOW_SUCCEEDED'})
    time.sleep(1.5)
    assert status(heat, ident) == 'CREATE_IN_PROGRESS'

    sent = time.time()
    heat.signal(ident, 'thing', {'id': execution.id,
                                 'event': 'WORKFLOW_SUCCEEDED'})
    heat.wait(ident, 'CREATE', timeout=30)
    assert time.time() - sent < 10
    seen = reasons(heat, ident)
    assert 'Mistral execution %s ended: told by Mistral' % execution.id \
        in seen
    assert any(r.startswith('signal ignored: ') and 'WORKFLOW_LAUNCHED' in r
               for r in seen)
    heat.delete(ident)


def test_a_lost_notice_is_caught_by_the_fallback_poll(
        heat, mistral, options, thing_store):
    from heat_lifecycle_plugins.clients import executions
    told(options, 6)
    started = time.time()
    ident = heat.create(SLOW, params={'store': thing_store.url}, wait=False)
    heat.wait(ident, 'CREATE', timeout=60)
    took = time.time() - started
    found = [m.group(1) for m in (
        re.match(r'Mistral execution (\S+) ended: found by the fallback '
                 r'poll \(no notification came\)$', r)
        for r in reasons(heat, ident)) if m]
    assert len(found) == 1, reasons(heat, ident)
    execution_id = found[0]
    # The workflow takes about 2 s; the execution's first fallback poll
    # comes 3-6 s in (its phase), the next one a period later.
    first_poll = 6 * executions.fallback_phase(execution_id)
    assert first_poll < took < first_poll + 6 + 5
    heat.delete(ident)


def told_far_apart(options, monkeypatch):
    """Looks 300 s apart within a 600 s check: only a wake ends it soon."""
    from heat_lifecycle_plugins.clients import executions
    from heat_lifecycle_plugins.resources import workflow_runs
    monkeypatch.setattr(executions, 'LOOK_EVERY', 300.0)
    monkeypatch.setattr(workflow_runs, 'CHECK_BUDGET', 600.0)
    told(options, 600)


def signal_in_the_first_pause(heat, mistral, thing_store):
    """Create, signal the execution's end while the check pauses: its id."""
    known = {e.id for e in executions_of(mistral, 'create_slowly')}
    ident = heat.create(SLOW, params={'store': thing_store.url}, wait=False)
    execution = ended_execution(mistral, known)
    time.sleep(1)  # the check is in its first 300 s pause
    heat.signal(ident, 'thing', {'id': execution.id,
                                 'event': 'WORKFLOW_SUCCEEDED'})
    heat.wait(ident, 'CREATE', timeout=60)  # a look would take 300 s
    assert 'Mistral execution %s ended: told by Mistral' % execution.id \
        in reasons(heat, ident)
    heat.delete(ident)


def test_a_notice_wakes_the_waiting_check_in_its_own_process(
        heat, mistral, options, thing_store, monkeypatch):
    from heat_lifecycle_plugins.resources import execution_notices
    told_far_apart(options, monkeypatch)
    # The process's watch sees no notice: only the signal's wake can.
    monkeypatch.setattr(execution_notices.WAITING, 'look', lambda ids: {})
    signal_in_the_first_pause(heat, mistral, thing_store)


def test_a_notice_another_engine_worker_recorded_wakes_the_check(
        heat, mistral, options, thing_store, monkeypatch):
    from heat_lifecycle_plugins.resources import execution_notices
    told_far_apart(options, monkeypatch)
    # As in another worker: the signal records the notice in the database
    # and wakes nothing here; the process's watch finds it.
    monkeypatch.setattr(execution_notices, 'wake', lambda execution_id: None)
    signal_in_the_first_pause(heat, mistral, thing_store)


def test_a_long_told_wait_sees_the_stack_cancel_at_a_polls_pace(
        heat, mistral, options, thing_store):
    from heat_lifecycle_plugins.resources import workflow_runs
    told(options, 600)
    known = {e.id for e in executions_of(mistral, 'create_slowly')}
    ident = heat.create(SLOW, params={'store': thing_store.url,
                                      'sleep': 120}, wait=False)
    [execution] = process.wait_until(
        lambda: [e for e in executions_of(mistral, 'create_slowly')
                 if e.id not in known and e.state == 'RUNNING'], 30,
        'the workflow to run')
    time.sleep(2)  # the check waits to the stack's timeout (60 min)
    cancelled = time.time()
    heat.cancel_update(ident)
    process.wait_until(
        lambda: mistral.client().executions.get(execution.id).state ==
        'CANCELLED', 60, 'the execution cancelled in Mistral')
    # Seen by a look between two pauses, not at the wait's end.
    assert time.time() - cancelled < workflow_runs.CHECK_BUDGET + 10
    heat.wait(ident, 'CREATE', expect='FAILED')
    heat.delete(ident)


def test_a_long_told_wait_ends_by_the_stack_timeout(
        heat, mistral, options, thing_store):
    from oslo_config import cfg
    told(options, 600)
    cfg.CONF.set_override('stack_action_timeout', 4)
    started = time.time()
    try:
        ident = heat.create(SLOW, params={'store': thing_store.url,
                                          'sleep': 120}, expect='FAILED')
    finally:
        cfg.CONF.clear_override('stack_action_timeout')
    assert 'Timed out' in heat.show(ident)['stack_status_reason']
    assert time.time() - started < 30  # not the 600 s fallback period
    heat.delete(ident)
