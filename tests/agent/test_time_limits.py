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
"""How long the agent lets a hook run.

No cap by default: the deployment's run_timeout (the deploy_run_timeout
input) is the limit, as Heat enforces it; an operator's hook_timeout caps
it. Seconds stand in for the hours a real tool may take.
"""

import os

from tests.agent.conftest import alive
from tests.agent.conftest import deployment

# The agent's clock sped up (fast_clock/sitecustomize.py): each real
# second is an hour of its time.monotonic(); hooks keep the real clock.
FAST_CLOCK = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          'fast_clock')
HOUR = 3600


def test_no_cap_by_default(agent, receiver):
    agent.write([deployment(group='sleeper', deploy_signal_id=receiver.url())])
    run = agent.run(env=agent.env(SLEEP='1.5'))
    assert run.returncode == 0, run.stderr
    assert 'time limit none' in run.stderr
    body, = receiver.bodies
    assert body['deploy_status_code'] == 0 and body['result'] == 'rested'


def test_a_tool_its_run_timeout_allows_completes_past_the_cap_it_had(
        agent, receiver):
    # 3 s of work under a 30 s run_timeout: no hidden shorter limit.
    agent.write([deployment(group='sleeper', deploy_status_aware='true',
                            deploy_run_timeout='30',
                            deploy_signal_id=receiver.url())])
    run = agent.run(env=agent.env(SLEEP='3'))
    assert run.returncode == 0, run.stderr
    assert 'time limit 33 s' in run.stderr  # Heat's deadline comes first
    final = receiver.bodies[-1]
    assert final['deploy_status'] == 'COMPLETE'
    assert final['result'] == 'rested'


def test_a_tool_past_its_run_timeout_is_killed_with_that_reason(
        agent, receiver):
    agent.write([deployment(group='hanger', deploy_status_aware='true',
                            deploy_run_timeout='2',
                            deploy_signal_id=receiver.url())])
    run = agent.run()
    assert run.returncode == 0, run.stderr
    final = receiver.bodies[-1]
    assert final['deploy_status'] == 'FAILED'
    assert final['deploy_status_code'] == 124
    assert final['deploy_status_reason'].startswith(
        'hook hanger outlived the deployment\'s run_timeout (2 s) and was '
        'killed')
    assert 'time limit 3 s' in run.stderr  # 1 s after Heat's deadline
    assert not alive(int((agent.record_dir / 'tool.pid').read_text()))


def test_the_shorter_of_cap_and_run_timeout_applies(agent, receiver):
    agent.write([deployment(group='hanger', deploy_run_timeout='600',
                            deploy_signal_id=receiver.url())])
    run = agent.run('--hook-timeout', '1')
    assert run.returncode == 0, run.stderr
    body, = receiver.bodies
    assert body['deploy_status_code'] == 124
    assert ('hook hanger did not finish within 1.0 seconds (hook_timeout) '
            'and was killed') in body['deploy_stderr']


def test_a_run_timeout_that_is_no_number_is_no_limit(agent, receiver):
    agent.write([deployment(group='sleeper', deploy_run_timeout='soon',
                            deploy_signal_id=receiver.url())])
    run = agent.run(env=agent.env(SLEEP='1'))
    assert run.returncode == 0, run.stderr
    assert 'time limit none' in run.stderr
    assert 'Traceback' not in run.stderr
    assert receiver.bodies[-1]['deploy_status_code'] == 0


def _an_hour_a_second(agent, **extra):
    env = agent.env(HLP_CLOCK_FACTOR=str(HOUR), **extra)
    env['PYTHONPATH'] = os.pathsep.join(
        [FAST_CLOCK] + [p for p in [env.get('PYTHONPATH')] if p])
    return env


def test_a_hook_runs_past_hours_with_no_hook_timeout(agent, receiver):
    """No hidden cap of an hour or a few: 3 h on the agent's clock.

    The hook sleeps 3 real seconds, 3 hours for the agent, which has no
    hook_timeout and no run_timeout: the tool completes and its result
    is signalled.
    """
    agent.write([deployment(group='sleeper', deploy_signal_id=receiver.url())])
    run = agent.run(env=_an_hour_a_second(agent, SLEEP='3'))
    assert run.returncode == 0, run.stderr
    body, = receiver.bodies
    assert body['deploy_status_code'] == 0, body
    assert body['result'] == 'rested'


def test_the_sped_up_clock_passes_an_hour_s_hook_timeout(agent, receiver):
    """The control: the same hook under a one-hour hook_timeout is killed.

    So the clock did run an hour a second: the test above is not one of
    three real seconds only.
    """
    agent.write([deployment(group='sleeper', deploy_signal_id=receiver.url())])
    run = agent.run('--hook-timeout', str(HOUR),
                    env=_an_hour_a_second(agent, SLEEP='3'))
    assert run.returncode == 0, run.stderr
    body, = receiver.bodies
    assert body['deploy_status_code'] == 124, body
    assert ('did not finish within 3600.0 seconds (hook_timeout)'
            in body['deploy_stderr']), body['deploy_stderr']
