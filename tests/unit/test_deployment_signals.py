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
"""What each signal body means for a deployment (no database involved)."""

import pytest

from heat_lifecycle_plugins.resources import deployment_signals as ds


def snapshot(status='IN_PROGRESS', outputs=(), output_values=None):
    return ds.Snapshot('sd-1', 'CREATE', status, 'cfg-1', list(outputs),
                       dict(output_values or {}))


def test_progress_keeps_status_and_reports_reason():
    out = ds.signal_outcome(snapshot(), {'deploy_status': 'IN_PROGRESS',
                                         'deploy_status_reason': 'installing'})
    assert out == ds.Outcome('deployment sd-1 in progress: installing',
                             {'status_reason': 'In progress: installing'})
    assert 'status' not in out.values


def test_progress_without_reason():
    out = ds.signal_outcome(snapshot(), {'deploy_status': 'IN_PROGRESS'})
    assert out.reason == 'deployment sd-1 in progress: no reason given'


def test_failed_without_status_code_fails_with_the_reason():
    out = ds.signal_outcome(snapshot(), {'deploy_status': 'FAILED',
                                         'deploy_status_reason': 'disk full'})
    assert out.reason == 'deployment sd-1 failed: disk full'
    assert (out.values['status'], out.values['status_reason']) == (
        'FAILED', 'disk full')


def test_failed_without_any_reason_says_so():
    out = ds.signal_outcome(snapshot(), {'deploy_status': 'FAILED'})
    assert out.values['status_reason'] == (
        'deploy_status FAILED without a deploy_status_reason')


def test_complete_with_a_non_zero_code_is_a_failure():
    out = ds.signal_outcome(snapshot(), {'deploy_status': 'COMPLETE',
                                         'deploy_status_code': 2})
    assert out.values['status'] == 'FAILED'
    assert out.values['status_reason'] == (
        'Deployment exited with non-zero status code: 2')


def test_old_agent_signal_completes_and_keeps_outputs():
    sd = snapshot(outputs=[{'name': 'url'}, {'name': 'unset'}],
                  output_values={'unset': 'kept'})
    out = ds.signal_outcome(sd, {'url': 'http://x/', 'deploy_stdout': 'ok',
                                 'deploy_status_code': 0, 'extra': 1})
    assert out.reason == 'deployment sd-1 succeeded'
    assert out.values['status'] == 'COMPLETE'
    assert out.values['output_values'] == {
        'url': 'http://x/', 'unset': 'kept', 'deploy_stdout': 'ok',
        'deploy_stderr': None, 'deploy_status_code': 0}


def test_no_body_completes_as_before_and_says_so():
    out = ds.signal_outcome(snapshot(), None)
    assert out.values['status'] == 'COMPLETE'
    assert out.reason == (
        'deployment sd-1 succeeded (a signal without a body: no outputs; '
        'heat-api drops a body that is not a JSON map)')


def test_error_output_fails():
    sd = snapshot(outputs=[{'name': 'err', 'error_output': True}])
    out = ds.signal_outcome(sd, {'err': 'bad thing'})
    assert out.values['status_reason'] == 'err : bad thing'


@pytest.mark.parametrize('body, text', [
    ([1, 2], 'not list [1, 2]'),
    ('text', "not str 'text'"),
    (42, 'not int 42'),
])
def test_non_map_bodies_change_nothing(body, text):
    out = ds.signal_outcome(snapshot(), body)
    assert out.values is None
    assert out.reason.endswith(text)


def test_unknown_status_fails_naming_the_value_and_keeps_the_outputs():
    sd = snapshot(outputs=[{'name': 'url'}])
    out = ds.signal_outcome(sd, {
        'deploy_status': 'DONE', 'url': 'http://x/', 'deploy_stdout': 'ok',
        'deploy_status_code': 0})
    assert out.values['status'] == 'FAILED'
    assert out.values['status_reason'] == (
        "unknown deploy_status 'DONE' (expected one of IN_PROGRESS, "
        "COMPLETE, FAILED)")
    assert out.reason == 'deployment sd-1 failed: ' + out.values[
        'status_reason']
    assert out.values['output_values']['url'] == 'http://x/'
    assert out.values['output_values']['deploy_stdout'] == 'ok'


@pytest.mark.parametrize('status', ['in_progress', 7, ['COMPLETE'], ''])
def test_any_unknown_status_fails(status):
    out = ds.signal_outcome(snapshot(), {'deploy_status': status})
    assert out.values['status'] == 'FAILED'
    assert out.values['status_reason'].startswith(
        'unknown deploy_status %r' % (status,))


def test_unknown_status_after_the_end_is_a_late_signal():
    out = ds.signal_outcome(snapshot('COMPLETE'), {'deploy_status': 'DONE'})
    assert out.values is None
    assert 'not in progress (CREATE COMPLETE)' in out.reason


@pytest.mark.parametrize('status', ['COMPLETE', 'FAILED'])
def test_signals_after_the_end_change_nothing(status):
    for body in ({'deploy_status': 'IN_PROGRESS'}, {},
                 {'deploy_status': 'FAILED'}):
        out = ds.signal_outcome(snapshot(status), body)
        assert out.values is None
        assert out.reason == (
            'deployment sd-1: signal ignored, the deployment is not in '
            'progress (CREATE %s): late, duplicate or for a previous action'
            % status)


def test_a_huge_bad_body_is_shown_shortened():
    out = ds.signal_outcome(snapshot(), ['x' * 5000])
    assert len(out.reason) < 400 and out.reason.endswith('...')


def test_failure_reason_quotes_the_last_lines_of_stderr():
    out = ds.signal_outcome(snapshot(), {'deploy_status_code': 1,
                                         'deploy_stderr': 'a\n\n  b  \nc\n'})
    assert out.values['status_reason'] == (
        'Deployment exited with non-zero status code: 1, stderr: a | b | c')
    assert out.values['output_values']['deploy_stderr'] == 'a\n\n  b  \nc\n'


def test_long_stderr_is_cut_from_its_start():
    out = ds.signal_outcome(snapshot(), {'deploy_status_code': 1,
                                         'deploy_stderr': 'y' * 500 + 'END'})
    assert out.values['status_reason'].endswith(
        'stderr: ...' + 'y' * (ds.MAX_STDERR_SHOWN - 3) + 'END')


def test_failure_without_stderr_keeps_an_empty_text():
    out = ds.signal_outcome(snapshot(), {'deploy_status': 'FAILED',
                                         'deploy_status_reason': 'no hook'})
    assert out.values['status_reason'] == 'no hook'
    assert out.values['output_values']['deploy_stderr'] == ''


def test_stderr_lines_repeating_the_reason_are_not_quoted_again():
    out = ds.signal_outcome(snapshot(), {
        'deploy_status': 'FAILED', 'deploy_status_reason': 'tool exited 3',
        'deploy_status_code': 3,
        'deploy_stderr': 'disk full\n[agent] tool exited 3\n'})
    assert out.values['status_reason'] == (
        'tool exited 3, Deployment exited with non-zero status code: 3, '
        'stderr: disk full')


# -- bounded columns ---------------------------------------------------------

def test_a_short_text_is_kept_as_is():
    assert ds.bounded('x' * ds.MAX_REASON_CHARS) == 'x' * ds.MAX_REASON_CHARS


def test_a_long_text_keeps_start_and_end_and_says_how_much_was_cut():
    text = 'START' + 'm' * 70000 + 'END'
    short = ds.bounded(text)
    assert len(short) <= ds.MAX_REASON_CHARS
    assert short.startswith('START') and short.endswith('END')
    head, note, tail = short.partition(' [... ')
    cut = len(text) - len(head) - len(tail.partition(' ...] ')[2])
    assert note and ('%d characters cut: a status reason keeps at most 4096'
                     % cut) in short


def test_a_70kb_progress_reason_is_stored_shortened():
    out = ds.signal_outcome(snapshot(), {'deploy_status': 'IN_PROGRESS',
                                         'deploy_status_reason': 'r' * 70000})
    stored = out.values['status_reason']
    assert stored.startswith(ds.PROGRESS_PREFIX + 'rrr')
    assert len(stored) <= len(ds.PROGRESS_PREFIX) + ds.MAX_REASON_CHARS
    assert 'characters cut' in stored
    assert len(stored.encode('utf-8')) < 65535


def test_a_70kb_failure_reason_is_stored_shortened():
    out = ds.signal_outcome(snapshot(), {
        'deploy_status': 'FAILED', 'deploy_status_reason': '\u00e9' * 70000})
    assert len(out.values['status_reason']) <= ds.MAX_REASON_CHARS
    assert len(out.values['status_reason'].encode('utf-8')) < 65535


def test_a_non_text_progress_reason_is_stored_as_text():
    out = ds.signal_outcome(snapshot(), {'deploy_status': 'IN_PROGRESS',
                                         'deploy_status_reason': {'step': 2}})
    assert out.values == {'status_reason': "In progress: {'step': 2}"}


# -- deadlines ---------------------------------------------------------------

def waiting(reason='Deploy data available', updated_at=None):
    return snapshot()._replace(status_reason=reason, updated_at=updated_at)


def test_no_deadline_no_failure():
    assert ds.expired_reason(waiting(), 10 ** 6) is None


def test_never_started_names_the_start_timeout_and_the_causes():
    assert ds.expired_reason(waiting(), 9.9, start_timeout=10) is None
    assert ds.expired_reason(waiting(), 10, start_timeout=10) == (
        'the server never started the deployment in 10 s (start_timeout): '
        'no signal arrived. Likely causes: server not booted, agent not '
        'polling, metadata server unreachable, signals blocked')


def test_a_run_timeout_without_any_signal_is_never_started_too():
    reason = ds.expired_reason(waiting(), 30, start_timeout=60,
                               run_timeout=30)
    assert reason.startswith('the server never started the deployment in '
                             '30 s (run_timeout): ')


def test_once_started_only_the_run_timeout_counts_with_the_last_progress():
    import datetime
    sd = waiting('In progress: compiling', datetime.datetime(
        2026, 11, 23, 15, 27, 3, 123))
    assert ds.expired_reason(sd, 100, start_timeout=10) is None
    assert ds.expired_reason(sd, 100, start_timeout=10,
                             run_timeout=101) is None
    assert ds.expired_reason(sd, 101, run_timeout=101) == (
        'still running after 101 s (run_timeout); last progress: compiling '
        'at 2026-11-23T15:27:03Z')


@pytest.mark.parametrize('status', ['COMPLETE', 'FAILED'])
def test_an_ended_deployment_never_expires(status):
    sd = snapshot(status)._replace(status_reason='Outputs received')
    assert ds.expired_reason(sd, 10 ** 6, 1, 1) is None


def test_an_expired_reason_fits_an_event_with_its_prefix():
    # Heat cuts an event's reason at 255 characters; the FAILED event
    # reads "Error: resources.<name>: <reason>".
    reason = ds.expired_reason(waiting(), 10 ** 6, start_timeout=86400)
    assert len('Error: resources.deployment: ' + reason) <= 255


def test_a_database_or_bus_outage_is_told_from_a_failure():
    from oslo_db import exception as db_exc
    import oslo_messaging
    remote = oslo_messaging.RemoteError('DBConnectionError', 'refused')
    assert ds.outage_of(remote) == 'DBConnectionError'
    assert ds.outage_of(db_exc.DBConnectionError('refused')) == (
        'DBConnectionError')
    assert ds.outage_of(oslo_messaging.MessagingTimeout('60 s')) == (
        'MessagingTimeout')
    assert ds.outage_of(oslo_messaging.RemoteError('NotFound', 'x')) is None
    assert ds.outage_of(ValueError('deployment failed')) is None
