"""What each signal body means for a deployment (no database involved)."""

import pytest

from heat_lifecycle_plugins.resources import deployment_signals as ds


def snapshot(status='IN_PROGRESS', outputs=(), output_values=None):
    return ds.Snapshot('sd-1', 'CREATE', status, 'cfg-1', list(outputs),
                       dict(output_values or {}))


def test_progress_keeps_status_and_reports_reason():
    out = ds.interpret(snapshot(), {'deploy_status': 'IN_PROGRESS',
                                    'deploy_status_reason': 'installing'})
    assert out == ds.Outcome('deployment sd-1 in progress: installing',
                             {'status_reason': 'In progress: installing'})
    assert 'status' not in out.values


def test_progress_without_reason():
    out = ds.interpret(snapshot(), {'deploy_status': 'IN_PROGRESS'})
    assert out.reason == 'deployment sd-1 in progress: no reason given'


def test_failed_without_status_code_fails_with_the_reason():
    out = ds.interpret(snapshot(), {'deploy_status': 'FAILED',
                                    'deploy_status_reason': 'disk full'})
    assert out.reason == 'deployment sd-1 failed: disk full'
    assert (out.values['status'], out.values['status_reason']) == (
        'FAILED', 'disk full')


def test_failed_without_any_reason_says_so():
    out = ds.interpret(snapshot(), {'deploy_status': 'FAILED'})
    assert out.values['status_reason'] == (
        'deploy_status FAILED without a deploy_status_reason')


def test_complete_with_a_non_zero_code_is_a_failure():
    out = ds.interpret(snapshot(), {'deploy_status': 'COMPLETE',
                                    'deploy_status_code': 2})
    assert out.values['status'] == 'FAILED'
    assert out.values['status_reason'] == (
        'Deployment exited with non-zero status code: 2')


def test_old_agent_signal_completes_and_keeps_outputs():
    sd = snapshot(outputs=[{'name': 'url'}, {'name': 'unset'}],
                  output_values={'unset': 'kept'})
    out = ds.interpret(sd, {'url': 'http://x/', 'deploy_stdout': 'ok',
                            'deploy_status_code': 0, 'extra': 1})
    assert out.reason == 'deployment sd-1 succeeded'
    assert out.values['status'] == 'COMPLETE'
    assert out.values['output_values'] == {
        'url': 'http://x/', 'unset': 'kept', 'deploy_stdout': 'ok',
        'deploy_stderr': None, 'deploy_status_code': 0}


def test_no_body_completes_as_before():
    assert ds.interpret(snapshot(), None).values['status'] == 'COMPLETE'


def test_error_output_fails():
    sd = snapshot(outputs=[{'name': 'err', 'error_output': True}])
    out = ds.interpret(sd, {'err': 'bad thing'})
    assert out.values['status_reason'] == 'err : bad thing'


@pytest.mark.parametrize('body, text', [
    ([1, 2], 'not list [1, 2]'),
    ('text', "not str 'text'"),
    (42, 'not int 42'),
])
def test_non_map_bodies_change_nothing(body, text):
    out = ds.interpret(snapshot(), body)
    assert out.values is None
    assert out.reason.endswith(text)


def test_unknown_status_changes_nothing():
    out = ds.interpret(snapshot(), {'deploy_status': 'in_progress'})
    assert out.values is None
    assert "unknown deploy_status 'in_progress'" in out.reason


@pytest.mark.parametrize('status', ['COMPLETE', 'FAILED'])
def test_signals_after_the_end_change_nothing(status):
    for body in ({'deploy_status': 'IN_PROGRESS'}, {},
                 {'deploy_status': 'FAILED'}):
        out = ds.interpret(snapshot(status), body)
        assert out.values is None
        assert out.reason == (
            'deployment sd-1: signal ignored, the deployment is not in '
            'progress (CREATE %s): late, duplicate or for a previous action'
            % status)


def test_a_huge_bad_body_is_shown_shortened():
    out = ds.interpret(snapshot(), ['x' * 5000])
    assert len(out.reason) < 400 and out.reason.endswith('...')


def test_failure_reason_quotes_the_last_lines_of_stderr():
    out = ds.interpret(snapshot(), {'deploy_status_code': 1,
                                    'deploy_stderr': 'a\n\n  b  \nc\n'})
    assert out.values['status_reason'] == (
        'Deployment exited with non-zero status code: 1, stderr: a | b | c')
    assert out.values['output_values']['deploy_stderr'] == 'a\n\n  b  \nc\n'


def test_long_stderr_is_cut_from_its_start():
    out = ds.interpret(snapshot(), {'deploy_status_code': 1,
                                    'deploy_stderr': 'y' * 500 + 'END'})
    assert out.values['status_reason'].endswith(
        'stderr: ...' + 'y' * (ds.MAX_STDERR_SHOWN - 3) + 'END')


def test_failure_without_stderr_keeps_an_empty_text():
    out = ds.interpret(snapshot(), {'deploy_status': 'FAILED',
                                    'deploy_status_reason': 'no hook'})
    assert out.values['status_reason'] == 'no hook'
    assert out.values['output_values']['deploy_stderr'] == ''


def test_stderr_lines_repeating_the_reason_are_not_quoted_again():
    out = ds.interpret(snapshot(), {
        'deploy_status': 'FAILED', 'deploy_status_reason': 'tool exited 3',
        'deploy_status_code': 3,
        'deploy_stderr': 'disk full\n[agent] tool exited 3\n'})
    assert out.values['status_reason'] == (
        'tool exited 3, Deployment exited with non-zero status code: 3, '
        'stderr: disk full')
