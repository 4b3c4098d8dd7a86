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
"""Milestones a tool reports, relayed by the agent as progress signals."""

import re
import subprocess
import sys

from heat_lifecycle_plugins.agent import hook_runner
from heat_lifecycle_plugins.agent import milestones
from tests.agent.conftest import deployment

# Five milestones: four through the command, one as a plain line; one
# carries the deployment's password, which must not reach Heat.
FIVE_STEPS = '''#!/bin/sh
set -e
heat-lifecycle-progress "step 1 of 5: fetching" --percent 20
sleep 0.4
heat-lifecycle-progress "step 2 of 5: unpacking" --percent 40
heat-lifecycle-progress "step 3 of 5: migrating with $deploy_password"
sleep 1.2
echo "step 4 of 5: restarting" >> "$HEAT_LIFECYCLE_PROGRESS_FILE"
sleep 1.2
heat-lifecycle-progress "step 5 of 5: checking" --percent 100
sleep 1.2
echo done
'''


def progress_command(*args, env=None):
    return subprocess.run(
        [sys.executable, '-m', 'heat_lifecycle_plugins.agent.milestones']
        + list(args), env=env, capture_output=True, text=True, timeout=60)


def test_the_agent_relays_a_tools_milestones_coalesced(agent, receiver):
    agent.write([deployment(config=FIVE_STEPS, deploy_status_aware='true',
                            deploy_password='pa55word-xyz',
                            deploy_signal_id=receiver.url())])
    run = agent.run('--heartbeat-interval', '0', '--milestone-interval',
                    '0.5')
    assert run.returncode == 0, run.stderr
    statuses = [b.get('deploy_status') for b in receiver.bodies]
    assert statuses[0] == 'IN_PROGRESS' and statuses[-1] == 'COMPLETE'
    relayed = [b['deploy_status_reason'] for b in receiver.bodies[1:-1]]
    assert set(statuses[1:-1]) == {'IN_PROGRESS'}
    # Steps 1-3 come within one interval at most twice; 4 and 5 each alone.
    # (Wall-clock bounds: the coalescing itself is asserted without a
    # clock by test_milestones_within_one_interval_are_sent_as_one.)
    assert 3 <= len(relayed) <= 5, relayed
    assert relayed[-2:] == ['script hook: step 4 of 5: restarting',
                            'script hook: step 5 of 5: checking (100%)']
    steps = [int(r.split('step ')[1][0]) for r in relayed]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)
    # Every milestone is sent or counted in the one that replaced it.
    counted = [int(r.split('[')[1].split()[0]) if '[' in r else 0
               for r in relayed]
    assert len(relayed) + sum(counted) == 5, relayed
    assert 'pa55word-xyz' not in str(receiver.bodies)
    assert receiver.bodies[-1]['deploy_stdout'] == 'done\n'


def test_milestones_within_one_interval_are_sent_as_one(tmp_path):
    # The clock is the test's: tick(now) is told the time, nothing sleeps.
    sent = []
    progress = hook_runner.Progress(
        milestone=lambda latest, replaced: sent.append(
            (latest.message, replaced)),
        milestone_interval=5, directory=str(tmp_path))

    def report(*messages):
        with open(progress.journal.path, 'a') as f:
            f.writelines(m + '\n' for m in messages)

    try:
        progress.start(100)
        report('step 1', 'step 2', 'step 3')
        progress.tick(101)
        progress.tick(104.9)
        assert sent == []  # not read before the interval ends
        assert progress.due() == 105
        progress.tick(105)
        assert sent == [('step 3', 2)]  # the latest, counting the others
        report('step 4')
        progress.tick(107)
        assert progress.due() == 110
        progress.tick(110)
        progress.tick(115)  # nothing new: nothing sent
        report('step 5', 'step 6')
        progress.tick(120)
        assert sent == [('step 3', 2), ('step 4', 0), ('step 6', 1)]
    finally:
        progress.close()


def test_no_milestones_relayed_unless_status_aware(agent, receiver):
    agent.write([deployment(config=FIVE_STEPS,
                            deploy_signal_id=receiver.url())])
    run = agent.run('--heartbeat-interval', '0', '--milestone-interval',
                    '0.5')
    assert run.returncode == 0, run.stderr
    assert len(receiver.bodies) == 1
    assert receiver.bodies[0]['deploy_status_code'] == 0


def test_the_command_outside_a_hook_is_one_clear_line(tmp_path):
    env = {'PATH': '/usr/bin:/bin'}
    outside = progress_command('step 1', env=env)
    assert outside.returncode == 2
    assert outside.stderr == (
        'heat-lifecycle-progress: HEAT_LIFECYCLE_PROGRESS_FILE is not set: '
        'not run by a heat-lifecycle-agent hook\n')
    env[milestones.ENV] = str(tmp_path / 'gone')
    ended = progress_command('step 1', env=env)
    assert ended.returncode == 2
    assert ended.stderr == ('heat-lifecycle-progress: %s: No such file or '
                            'directory\n' % env[milestones.ENV])
    journal = tmp_path / 'journal'
    journal.write_text('')
    env[milestones.ENV] = str(journal)
    bad = progress_command('step 1', '--percent', '140', env=env)
    assert bad.returncode == 2
    # 3.12 and later quote the value ('140'), 3.11 and earlier do not.
    assert re.search(r"argument --percent: invalid choice: '?140'?[ ,(]",
                     bad.stderr), bad.stderr
    assert journal.read_text() == ''


def test_lines_are_read_whole_and_clipped():
    journal = milestones.Journal()
    try:
        with open(journal.path, 'ab') as f:
            f.write(b'{"message": "one", "percent": 50}\n\nplain two\n'
                    b'{"message": "three", "percent": "x"}\n{"mess')
        assert journal.read_new() == [
            milestones.Milestone('one', 50),
            milestones.Milestone('plain two', None),
            milestones.Milestone('three', None)]
        with open(journal.path, 'ab') as f:
            f.write(b'age": "four"}\n' + b'x' * 300 + b'\n\xff\n')
        four, long, bad = journal.read_new()
        assert four == milestones.Milestone('four', None)
        assert len(long.message) == milestones.MAX_MESSAGE
        assert long.message.endswith('...')
        assert bad.message == '\ufffd'
        assert journal.read_new() == []
    finally:
        journal.remove()
