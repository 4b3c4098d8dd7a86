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
"""The heat-lifecycle-agent command with real hook processes.

It signals a local HTTP endpoint (pre-signed URL transports).
"""

import glob
import json
import os
import signal
import subprocess
import time

import pytest

from tests.agent.conftest import alive
from tests.agent.conftest import deployment

SCRIPT = '''#!/bin/sh
echo "hello $who"
echo "to stderr" >&2
printf 'world-%s' "$who" > "$heat_outputs_path.greeting"
'''


def test_script_hook_status_aware_progress_then_result(agent, receiver):
    dep = deployment(config=SCRIPT, outputs=['greeting'], who='heat',
                     deploy_action='CREATE', deploy_status_aware='true',
                     deploy_password='pa55word-xyz',
                     deploy_signal_id=receiver.url(),
                     deploy_signal_verb='POST')
    agent.write([dep])
    run = agent.run()
    assert run.returncode == 0, run.stderr

    progress, final = receiver.bodies
    assert progress['deploy_status'] == 'IN_PROGRESS'
    assert 'action CREATE' in progress['deploy_status_reason']
    assert final == {
        'greeting': 'world-heat', 'deploy_stdout': 'hello heat\n',
        'deploy_stderr': 'to stderr\n', 'deploy_status_code': 0,
        'deploy_status': 'COMPLETE',
        'deploy_status_reason': 'Deployment succeeded'}
    assert [r.method for r in receiver.requests] == ['POST', 'POST']

    # Signalled means deployed: a second pass runs and signals nothing.
    marker, mode = agent.marker('dep-1')
    assert mode == 0o644
    assert 'pa55word-xyz' not in json.dumps(marker)
    assert 's3cr3t-signature' not in json.dumps(marker)
    again = agent.run()
    assert again.returncode == 0
    assert len(receiver.requests) == 2
    for log in (run.stderr, again.stderr):
        assert 'pa55word-xyz' not in log and 's3cr3t-signature' not in log


def test_no_progress_signal_unless_status_aware(agent, receiver):
    agent.write([
        deployment('absent', config=SCRIPT, deploy_signal_id=receiver.url()),
        deployment('false', config=SCRIPT, deploy_status_aware='false',
                   deploy_signal_id=receiver.url(), deploy_signal_verb='PUT'),
    ])
    run = agent.run()
    assert run.returncode == 0, run.stderr
    assert len(receiver.bodies) == 2
    for body in receiver.bodies:
        assert body['deploy_status_code'] == 0
        assert 'deploy_status' not in body
        assert 'deploy_status_reason' not in body
    assert [r.method for r in receiver.requests] == ['POST', 'PUT']


def _component(options=None, with_entry_options=True, **input_values):
    configs = [
        {'actions': ['CREATE', 'UPDATE'], 'tool': 'recorder',
         'config': {'recipe': 'install'}},
        {'actions': ['DELETE'], 'tool': 'script', 'config': SCRIPT},
    ]
    if with_entry_options:
        configs[0]['options'] = {'recorder': {'level': 3}, 'debug': True}
        configs[1]['options'] = {'script': {'shell': 'sh'}, 'debug': True}
    return deployment(
        'comp-1', group='component', config={'configs': configs},
        outputs=['result'], options=options, **input_values)


def test_component_runs_the_entry_for_deploy_action(agent, receiver):
    agent.write([_component(deploy_action='UPDATE', who='x',
                            deploy_signal_id=receiver.url())])
    run = agent.run()
    assert run.returncode == 0, run.stderr
    given, = agent.records()
    assert given['group'] == 'recorder'
    assert given['config'] == {'recipe': 'install'}
    # As heat-agents' hooks read them: the tool's section at the top level.
    assert given['options'] == {'level': 3, 'debug': True}
    assert given['id'] == 'comp-1'
    assert {i['name']: i['value'] for i in given['inputs']} == {
        'deploy_action': 'UPDATE', 'who': 'x',
        'deploy_signal_id': receiver.url()}
    assert given['outputs'] == [{'name': 'result'}]
    body, = receiver.bodies
    assert body['result'] == 'ok' and body['deploy_status_code'] == 0


def test_component_options_split_by_tool_without_entry_options(agent):
    # An in-tree engine stores one shared options map: the agent keeps the
    # keys that are not a tool's section, plus the entry's own section's
    # keys.
    agent.write([_component(
        options={'recorder': {'level': 1}, 'script': {'x': 1}, 'debug': 1},
        with_entry_options=False, deploy_action='CREATE')])
    run = agent.run()
    assert run.returncode == 0, run.stderr
    given, = agent.records()
    assert given['options'] == {'level': 1, 'debug': 1}


def test_tool_section_keys_win_over_shared_ones(agent):
    dep = _component(deploy_action='CREATE')
    dep['config']['configs'][0]['options'] = {
        'recorder': {'tags': 'mine', 'level': 2}, 'tags': 'shared',
        'log_level': 'info'}
    agent.write([dep])
    run = agent.run()
    assert run.returncode == 0, run.stderr
    given, = agent.records()
    assert given['options'] == {'tags': 'mine', 'level': 2,
                                'log_level': 'info'}


def test_plain_deployment_options_are_unchanged(agent):
    options = {'recorder': {'level': 1}, 'tags': 'x'}
    agent.write([deployment(group='recorder', options=options)])
    run = agent.run()
    assert run.returncode == 0, run.stderr
    given, = agent.records()
    assert given['options'] == options


def test_component_without_config_for_action_signals_failure(agent,
                                                             receiver):
    agent.write([_component(deploy_action='SUSPEND',
                            deploy_status_aware='true',
                            deploy_signal_id=receiver.url())])
    run = agent.run()
    assert run.returncode == 0, run.stderr
    body, = receiver.bodies  # no progress: nothing was started
    assert body['deploy_status'] == 'FAILED'
    assert body['deploy_status_code'] != 0
    reason = body['deploy_status_reason']
    assert 'no config for action SUSPEND' in reason
    assert 'CREATE, DELETE, UPDATE' in reason
    assert 'comp-1' in reason
    assert agent.records() == []
    assert agent.marker('comp-1') is not None


def test_missing_hook_signals_failure(agent, receiver):
    agent.write([deployment(group='chef', deploy_signal_id=receiver.url())])
    run = agent.run()
    assert run.returncode == 0, run.stderr
    body, = receiver.bodies
    assert body['deploy_status_code'] == 127
    assert 'no hook for group chef' in body['deploy_stderr']


@pytest.mark.parametrize('tool', ['../../bin/sh', 'script\n'])
def test_bad_tool_name_is_an_error_naming_it(agent, receiver, tool):
    dep = _component(deploy_action='CREATE', deploy_status_aware='true',
                     deploy_signal_id=receiver.url())
    dep['config']['configs'][0]['tool'] = tool
    agent.write([dep])
    run = agent.run()
    assert run.returncode == 0, run.stderr
    body, = receiver.bodies
    assert body['deploy_status'] == 'FAILED'
    assert "%r is not a valid hook name" % tool in \
        body['deploy_status_reason']
    assert 'Traceback' not in run.stderr


def test_non_zero_exit_is_never_success(agent, receiver):
    agent.write([deployment(group='crasher', deploy_status_aware='true',
                            deploy_signal_id=receiver.url())])
    run = agent.run()
    assert run.returncode == 0, run.stderr
    final = receiver.bodies[-1]
    assert final['deploy_status_code'] == 3
    assert final['deploy_status'] == 'FAILED'
    assert final['deploy_stdout'] == 'all fine'
    assert 'exited with status 3' in final['deploy_status_reason']


def test_a_hook_slow_to_read_a_large_input_gets_all_of_it(agent, receiver):
    # 300 KB, over a pipe's 64 KiB, read 2.5 s after the start: past the
    # agent's 1 s look at the hook, it must still get every byte.
    config = 'x' * 300000
    agent.write([deployment(group='late_reader', config=config,
                            deploy_signal_id=receiver.url())])
    run = agent.run(env=agent.env(SLEEP='2.5'), timeout=60)
    assert run.returncode == 0, run.stderr
    given = json.loads((agent.record_dir / 'input.json').read_text())
    assert given['config'] == config
    body, = receiver.bodies
    assert body['deploy_status_code'] == 0 and body['result'] == 'read'


def test_hook_time_limit_kills_the_tool_and_fails(agent, receiver):
    agent.write([deployment(group='hanger', deploy_status_aware='true',
                            deploy_signal_id=receiver.url())])
    run = agent.run('--hook-timeout', '2')
    assert run.returncode == 0, run.stderr
    progress, final = receiver.bodies
    assert progress['deploy_status'] == 'IN_PROGRESS'
    assert final['deploy_status'] == 'FAILED'
    assert final['deploy_status_code'] == 124
    assert 'did not finish within 2.0 seconds' in \
        final['deploy_status_reason']
    tool_pid = int((agent.record_dir / 'tool.pid').read_text())
    assert not alive(tool_pid)


def test_secrets_stay_out_of_signal_logs_and_state(agent, receiver):
    agent.write([deployment(group='leaker', deploy_password='pa55word-xyz',
                            api_token='tok-abcdef',
                            deploy_signal_id=receiver.url())])
    run = agent.run('--debug')
    assert run.returncode == 0, run.stderr
    body, = receiver.bodies
    assert 'deploy_password = ***' in body['deploy_stderr']
    assert 'api_token = ***' in body['deploy_stderr']
    assert body['deploy_status_code'] == 1
    marker, mode = agent.marker('dep-1')
    values = {i['name']: i['value'] for i in marker['inputs']}
    assert values['deploy_password'] == '***'
    assert values['deploy_signal_id'] == '***'
    everything = run.stderr + json.dumps(marker)
    for secret in ('pa55word-xyz', 'tok-abcdef', 's3cr3t-signature'):
        assert secret not in everything
    notify = os.path.join(agent.deployed_dir, 'dep-1.notify.json')
    assert os.stat(notify).st_mode & 0o777 == 0o600


def test_output_over_heat_limit_is_trimmed_from_the_start(agent, receiver):
    agent.write([deployment(group='chatty', deploy_status_aware='true',
                            deploy_signal_id=receiver.url())])
    run = agent.run()
    assert run.returncode == 0, run.stderr
    final = receiver.requests[-1]
    assert int(final.headers['Content-Length']) <= 1048576
    body = final.body
    assert body['result'] == 'kept'
    assert body['deploy_status'] == 'COMPLETE'
    assert body['deploy_stdout'].endswith('END-OF-STDOUT')
    assert body['deploy_stderr'].endswith('END-OF-STDERR')
    assert 'start-of-stdout' not in body['deploy_stdout']
    assert body['deploy_stdout'].startswith('[heat-lifecycle-agent: ')
    assert 'trimmed to fit the signal' in body['deploy_status_reason']


def test_5xx_is_retried_until_delivered(agent, receiver):
    receiver.statuses = [503, 500]
    agent.write([deployment(config=SCRIPT, deploy_signal_id=receiver.url())])
    run = agent.run()
    assert run.returncode == 0, run.stderr
    assert len(receiver.requests) == 3
    assert receiver.bodies[0] == receiver.bodies[2]
    assert 'retry 2 of 8' in run.stderr
    assert agent.marker('dep-1') is not None


def test_4xx_is_reported_not_retried(agent, receiver):
    receiver.statuses = [403]
    agent.write([deployment(config=SCRIPT, deploy_signal_id=receiver.url())])
    run = agent.run()
    assert run.returncode == 1
    assert len(receiver.requests) == 1
    assert 'rejected with HTTP 403' in run.stderr
    assert 's3cr3t-signature' not in run.stderr
    # Permanent: the next pass neither runs nor signals it again.
    assert agent.run().returncode == 0
    assert len(receiver.requests) == 1


def test_undelivered_result_is_sent_on_next_pass_without_rerunning(
        agent, receiver):
    receiver.statuses = [502, 502]
    agent.write([deployment(group='recorder',
                            deploy_signal_id=receiver.url())])
    first = agent.run('--signal-retries', '1')
    assert first.returncode == 1
    assert 'failed after 2 attempts' in first.stderr
    assert agent.marker('dep-1') is None
    second = agent.run('--signal-retries', '1')
    assert second.returncode == 0, second.stderr
    assert 'not delivered on an earlier pass' in second.stderr
    assert len(agent.records()) == 1  # the hook did not run again
    assert receiver.bodies[-1] == receiver.bodies[0]
    assert receiver.bodies[-1]['result'] == 'ok'
    assert agent.marker('dep-1') is not None
    # Delivered: a third pass does nothing.
    assert agent.run().returncode == 0
    assert len(receiver.requests) == 3


def test_an_unreadable_kept_result_runs_the_deployment_again(agent,
                                                             receiver):
    agent.write([deployment(group='recorder',
                            deploy_signal_id=receiver.url())])
    os.makedirs(agent.deployed_dir)
    with open(os.path.join(agent.deployed_dir, 'dep-1.notify.json'),
              'w') as f:
        f.write('{"truncated')
    run = agent.run()
    assert run.returncode == 0, run.stderr
    assert 'unreadable' in run.stderr
    assert len(agent.records()) == 1
    assert receiver.bodies[-1]['result'] == 'ok'


def test_heartbeats_while_the_hook_runs(agent, receiver):
    # The first heartbeat is refused: it is not retried and the run goes on.
    receiver.statuses = [200, 500]
    agent.write([deployment(group='sleeper', deploy_status_aware='true',
                            deploy_signal_id=receiver.url())])
    run = agent.run('--heartbeat-interval', '1',
                    env=agent.env(SLEEP='3.5'))
    assert run.returncode == 0, run.stderr
    reasons = [b.get('deploy_status_reason') for b in receiver.bodies]
    statuses = [b.get('deploy_status') for b in receiver.bodies]
    assert statuses[0] == statuses[1] == 'IN_PROGRESS'
    assert statuses[-1] == 'COMPLETE'
    beats = reasons[1:-1]
    assert 2 <= len(beats) <= 4, reasons
    assert beats[0] == 'sleeper hook still running after 1 s'
    assert [int(r.split()[-2]) for r in beats] == sorted(
        int(r.split()[-2]) for r in beats)
    assert 'heartbeat not delivered' in run.stderr
    assert receiver.bodies[-1]['result'] == 'rested'


def test_no_heartbeats_unless_status_aware_or_asked(agent, receiver):
    agent.write([deployment('plain', group='sleeper',
                            deploy_signal_id=receiver.url())])
    assert agent.run('--heartbeat-interval', '0.5',
                     env=agent.env(SLEEP='1.5')).returncode == 0
    assert len(receiver.bodies) == 1
    agent.write([deployment('aware', group='sleeper',
                            deploy_status_aware='true',
                            deploy_signal_id=receiver.url())])
    assert agent.run('--heartbeat-interval', '0',
                     env=agent.env(SLEEP='1.5')).returncode == 0
    assert [b.get('deploy_status') for b in receiver.bodies[1:]] == [
        'IN_PROGRESS', 'COMPLETE']


def test_the_hook_starts_without_waiting_for_heat_apis_answer(
        agent, receiver):
    # heat-api holds its answer to the IN_PROGRESS signal for 3 s.
    receiver.holds = [3]
    agent.write([deployment(group='starter', deploy_status_aware='true',
                            deploy_signal_id=receiver.url())])
    run = agent.run('--heartbeat-interval', '0.2')
    assert run.returncode == 0, run.stderr
    started = float((agent.record_dir / 'started').read_text())
    # The hook started while the first answer was still held...
    assert started - receiver.received[0] < 1.5, (
        started, receiver.received)
    # ...and no later signal (a heartbeat, the result) overtook it.
    statuses = [b.get('deploy_status') for b in receiver.bodies]
    assert statuses[0] == 'IN_PROGRESS' and statuses[-1] == 'COMPLETE'
    assert 'started' in receiver.bodies[0]['deploy_status_reason']
    first_answered = receiver.answered[0]
    assert first_answered and min(receiver.received[1:]) >= first_answered, (
        receiver.received, receiver.answered)


def test_agent_killed_mid_run_reruns_the_deployment(agent, receiver):
    agent.write([deployment(group='hanger', deploy_signal_id=receiver.url())])
    proc = subprocess.Popen(agent.argv(), env=agent.env(),
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL,
                            start_new_session=True)
    pid_file = agent.record_dir / 'tool.pid'
    deadline = time.time() + 60
    while not pid_file.exists() and time.time() < deadline:
        time.sleep(0.05)
    assert pid_file.exists()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)
    # Clean up what the killed agent left behind (its hook's session).
    os.killpg(os.getpgid(int(pid_file.read_text())), signal.SIGKILL)
    pid_file.unlink()
    assert receiver.requests == []
    assert agent.marker('dep-1') is None
    # The killed run's milestone file stays in the state directory (never
    # in /tmp) ...
    left = glob.glob(os.path.join(agent.deployed_dir,
                                  'heat-lifecycle-progress-*'))
    assert len(left) == 1, left

    run = agent.run('--hook-timeout', '1')
    assert run.returncode == 0, run.stderr
    assert pid_file.exists()  # the deployment ran again
    assert receiver.bodies[-1]['deploy_status_code'] == 124
    # ... until the next pass removes it, and its own.
    assert glob.glob(os.path.join(agent.deployed_dir,
                                  'heat-lifecycle-progress-*')) == []


def test_heat_agents_environment_variables(agent, receiver, tmp_path):
    agent.write([deployment(group='recorder',
                            deploy_signal_id=receiver.url())])
    env = agent.env(HEAT_SHELL_CONFIG=agent.metadata_file,
                    HEAT_CONFIG_HOOKS=agent.hooks_dir,
                    HEAT_CONFIG_DEPLOYED=str(tmp_path / 'env-deployed'))
    run = subprocess.run([agent.argv()[0], '--signal-backoff', '0'],
                         env=env, capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert len(agent.records()) == 1
    assert os.path.exists(tmp_path / 'env-deployed' / 'dep-1.json')
    assert os.stat(agent.metadata_file).st_mode & 0o777 == 0o600


def test_bad_metadata_is_a_clear_error(agent, tmp_path):
    with open(agent.metadata_file, 'w') as f:
        f.write('{"deployments": [')
    run = agent.run()
    assert run.returncode == 1
    assert 'is not JSON' in run.stderr and agent.metadata_file in run.stderr
    assert 'Traceback' not in run.stderr

    with open(agent.metadata_file, 'wb') as f:
        f.write(b'\xff\xfe[')
    run = agent.run()
    assert run.returncode == 1
    assert 'cannot be read' in run.stderr and 'Traceback' not in run.stderr

    agent.write([])
    with open(str(tmp_path / 'not-a-dir'), 'w') as f:
        f.write('')
    run = agent.run('--deployed-dir', str(tmp_path / 'not-a-dir'))
    assert run.returncode == 1
    assert 'State directory' in run.stderr and 'not-a-dir' in run.stderr
    assert 'Traceback' not in run.stderr

    agent.write([{'id': 'x', 'group': 'script', 'inputs': {'a': 1}}])
    run = agent.run()
    assert run.returncode == 0
    assert 'inputs must be a list, got a dict' in run.stderr
    assert 'Traceback' not in run.stderr


def test_component_delete_runs_its_own_tool(agent, receiver):
    agent.write([_component(deploy_action='DELETE', who='bye',
                            deploy_status_aware='true',
                            deploy_signal_id=receiver.url())])
    run = agent.run()
    assert run.returncode == 0, run.stderr
    assert agent.records() == []  # the recorder (CREATE/UPDATE) did not run
    progress, final = receiver.bodies
    assert 'started script hook' in progress['deploy_status_reason']
    assert 'action DELETE' in progress['deploy_status_reason']
    assert final['deploy_stdout'] == 'hello bye\n'
    assert final['deploy_status'] == 'COMPLETE'


def _run_with_config(agent, receiver, conf):
    """Run a chatty and a hanging deployment under config file `conf`."""
    agent.write([deployment(group='chatty', deploy_signal_id=receiver.url()),
                 deployment('slow', group='hanger',
                            deploy_signal_id=receiver.url())])
    run = agent.run('--config-file', str(conf))
    assert run.returncode == 0, run.stderr
    chatty, slow = receiver.requests
    assert int(chatty.headers['Content-Length']) <= 100000
    assert 'did not finish within 1.0 seconds' in slow.body['deploy_stderr']
    return run


def test_config_file_options(agent, receiver, tmp_path):
    conf = tmp_path / 'agent.conf'
    conf.write_text('[heat_lifecycle_agent]\nhook_timeout = 1\n'
                    'max_signal_bytes = 100000\n')
    run = _run_with_config(agent, receiver, conf)
    assert 'deprecated' not in run.stderr

    bad = tmp_path / 'bad.conf'
    bad.write_text('[heat_lifecycle_agent]\nhook_timeout = soon\n')
    run = agent.run('--config-file', str(bad))
    assert run.returncode == 2
    assert 'hook_timeout' in run.stderr and 'soon' in run.stderr
    assert 'Traceback' not in run.stderr


def test_config_file_of_earlier_releases_still_works(agent, receiver,
                                                     tmp_path):
    # Before the agent had its own group: agent_* in [heat_lifecycle_plugins].
    conf = tmp_path / 'old.conf'
    conf.write_text('[heat_lifecycle_plugins]\nagent_hook_timeout = 1\n'
                    'agent_max_signal_bytes = 100000\n')
    run = _run_with_config(agent, receiver, conf)
    assert ('Option "agent_hook_timeout" from group "heat_lifecycle_plugins" '
            'is deprecated. Use option "hook_timeout" from group '
            '"heat_lifecycle_agent"') in run.stderr


def test_a_hook_killed_by_a_signal_fails_and_its_tools_stop(agent, receiver,
                                                            tmp_path):
    late = tmp_path / 'written-by-the-orphaned-tool'
    hook = os.path.join(agent.hooks_dir, 'killed')
    with open(hook, 'w') as f:
        f.write('#!/bin/sh\ncat > /dev/null\n'
                '(sleep 2; touch "%s") &\n'
                'kill -KILL $$\n' % late)
    os.chmod(hook, 0o755)
    agent.write([deployment(group='killed', deploy_signal_id=receiver.url())])
    run = agent.run()
    assert run.returncode == 0, run.stderr
    [final] = receiver.bodies
    assert final['deploy_status_code'] == 128 + signal.SIGKILL
    assert final['deploy_stderr'].endswith(
        '[heat-lifecycle-agent] hook killed was killed by SIGKILL')
    time.sleep(3)
    assert not late.exists(), 'the killed hook\'s tool ran on'
