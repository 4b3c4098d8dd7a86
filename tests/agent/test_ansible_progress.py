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
"""Ansible tasks reported while they run, through our callback.

heat-agents 13.0.0's own ansible hook, unchanged (tests/agent/heat_agents),
runs ansible-playbook from ansible-core (test-requirements.txt); the agent
puts our callback on its path. No playbook here calls
heat-lifecycle-progress.
"""

import os

import pytest

from heat_lifecycle_plugins.agent import ansible_progress
from tests.agent.conftest import deployment


def play(tasks):
    """A one-play playbook on this machine of `tasks` (YAML lines)."""
    lines = ['    %s\n' % line for line in tasks.strip().splitlines()]
    return ('- hosts: localhost\n  connection: local\n  gather_facts: false\n'
            '  tasks:\n' + ''.join(lines))


# Four tasks; the second runs for 3 s, the third marks when it ran.
SLOW_PLAYBOOK = play('''
- name: prepare
  debug: {msg: "preparing"}
- name: install the frobnicator
  command: sleep 3
- name: configure
  copy: {dest: "{{ marks }}/configured", content: "yes"}
- name: report
  copy: {dest: "{{ heat_outputs_path }}.result", content: "played"}
''')

FAILING_PLAYBOOK = play('''
- name: prepare
  debug: {msg: "preparing"}
- name: check the database
  fail: {msg: "the database refused {{ deploy_password }}: not reachable"}
- name: never run
  debug: {msg: "unreachable"}
''')

# A user's own callback, which must be enabled to run: it notes each task.
USER_CALLBACK = '''from ansible.plugins.callback import CallbackBase


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'notification'
    CALLBACK_NAME = 'user_marks'
    CALLBACK_NEEDS_ENABLED = True

    def v2_playbook_on_task_start(self, task, is_conditional):
        with open(%r, 'a') as f:
            f.write(task.get_name() + '\\n')
'''

TASKS = ['prepare', 'install the frobnicator', 'configure', 'report']


def _aware(receiver, config, **values):
    return deployment(group='ansible', config=config, outputs=['result'],
                      deploy_status_aware='true',
                      deploy_signal_id=receiver.url(), **values)


def _milestones(receiver):
    return [b['deploy_status_reason'] for b in receiver.bodies[1:-1]]


def test_tasks_are_relayed_in_order_while_they_run(hooks_agent, receiver,
                                                   tmp_path):
    marks = tmp_path / 'marks'
    marks.mkdir()
    hooks_agent.write([_aware(receiver, SLOW_PLAYBOOK, marks=str(marks))])
    run = hooks_agent.run('--heartbeat-interval', '0',
                          '--milestone-interval', '0.5', timeout=300)
    assert run.returncode == 0, run.stderr
    final = receiver.bodies[-1]
    assert final['deploy_status'] == 'COMPLETE', final
    assert final['result'] == 'played'
    relayed = _milestones(receiver)
    assert all(r.startswith('ansible hook: TASK [') for r in relayed), relayed
    named = [r.split('[', 1)[1].split(']')[0] for r in relayed]
    assert named == sorted(named, key=TASKS.index), relayed  # in order
    slow = ('ansible hook: TASK [install the frobnicator] (2 of 4)')
    assert any(r.startswith(slow) for r in relayed), relayed
    # Relayed while it ran: before the task after it had done its work.
    index = next(i for i, r in enumerate(relayed) if r.startswith(slow))
    assert receiver.received[index + 1] < os.stat(
        marks / 'configured').st_mtime, relayed


def test_a_failing_play_names_the_task_and_message(hooks_agent, receiver):
    hooks_agent.write([_aware(receiver, FAILING_PLAYBOOK,
                              deploy_password='pa55word-xyz')])
    run = hooks_agent.run('--heartbeat-interval', '0', timeout=300)
    assert run.returncode == 0, run.stderr
    final = receiver.bodies[-1]
    assert final['deploy_status'] == 'FAILED'
    assert final['deploy_status_code'] == 2
    assert final['deploy_status_reason'] == (
        'task [check the database] failed on localhost: the database '
        'refused ***: not reachable (hook ansible: the tool exited with '
        'status 2)')
    assert 'pa55word-xyz' not in str(receiver.bodies) + run.stderr


def test_a_deployment_not_status_aware_sends_one_signal(hooks_agent,
                                                        receiver):
    hooks_agent.write([deployment(group='ansible', config=FAILING_PLAYBOOK,
                                  deploy_password='pa55word-xyz',
                                  deploy_signal_id=receiver.url())])
    run = hooks_agent.run('--milestone-interval', '0.2', timeout=300)
    assert run.returncode == 0, run.stderr
    body, = receiver.bodies
    assert body['deploy_status_code'] == 2
    assert 'deploy_status' not in body
    assert body['deploy_stderr'].endswith(
        '[heat-lifecycle-agent] task [check the database] failed on '
        'localhost: the database refused ***: not reachable (hook ansible: '
        'the tool exited with status 2)')


@pytest.mark.parametrize('enabled_by', ['ansible.cfg', 'environment',
                                        'deployment option'])
def test_a_users_own_callback_still_runs(hooks_agent, receiver, tmp_path,
                                         enabled_by):
    plugins = tmp_path / 'user-callbacks'
    plugins.mkdir()
    noted = tmp_path / 'noted'
    (plugins / 'user_marks.py').write_text(USER_CALLBACK % str(noted))
    marks = tmp_path / 'marks'
    marks.mkdir()
    dep = _aware(receiver, SLOW_PLAYBOOK, marks=str(marks))
    env = {}
    if enabled_by == 'ansible.cfg':
        cfg = tmp_path / 'ansible.cfg'
        cfg.write_text('[defaults]\ncallback_plugins = user-callbacks\n'
                       'callbacks_enabled = user_marks\n')
        env['ANSIBLE_CONFIG'] = str(cfg)
    elif enabled_by == 'environment':
        env.update(ANSIBLE_CALLBACK_PLUGINS=str(plugins),
                   ANSIBLE_CALLBACKS_ENABLED='user_marks')
    else:
        # heat-agents' hook puts this option in ANSIBLE_CALLBACK_PLUGINS.
        dep['options'] = {'callback_plugins': str(plugins)}
        env['ANSIBLE_CALLBACKS_ENABLED'] = 'user_marks'
    hooks_agent.write([dep])
    run = hooks_agent.run('--heartbeat-interval', '0',
                          '--milestone-interval', '0.5',
                          env=hooks_agent.env(**env), timeout=300)
    assert run.returncode == 0, run.stderr
    assert noted.read_text().split('\n')[:-1] == TASKS
    assert receiver.bodies[-1]['deploy_status'] == 'COMPLETE'
    assert any('TASK [install the frobnicator]' in r
               for r in _milestones(receiver)), _milestones(receiver)


def test_our_callback_path_comes_after_the_users():
    ours = ansible_progress.CALLBACKS_DIR
    env = ansible_progress.environment({'ANSIBLE_CALLBACK_PLUGINS': '/a:/b'})
    assert env['ANSIBLE_CALLBACK_PLUGINS'] == '/a:/b:' + ours
    # Added once, however often a hook's environment passes through.
    assert ansible_progress.environment(env) == env
    bare = ansible_progress.environment({'HOME': '/nowhere',
                                         'HEAT_ANSIBLE_WORKING': '/nowhere',
                                         'ANSIBLE_HOME': '/ah'})
    if not os.path.exists('/etc/ansible/ansible.cfg'):
        assert bare['ANSIBLE_CALLBACK_PLUGINS'] == (
            '/ah/plugins/callback:/usr/share/ansible/plugins/callback:'
            + ours)


def test_a_deployments_callback_plugins_option_gets_ours(tmp_path):
    ours = ansible_progress.CALLBACKS_DIR
    dep = {'options': {'callback_plugins': '/theirs', 'tags': 'x'}}
    assert ansible_progress.with_callback_option(dep)['options'] == {
        'callback_plugins': '/theirs:' + ours, 'tags': 'x'}
    assert dep['options']['callback_plugins'] == '/theirs'  # a copy
    for options in (None, [], {}, {'callback_plugins': ''},
                    {'callback_plugins': 3}):
        dep = {'options': options}
        assert ansible_progress.with_callback_option(dep) is dep
    # ansible.cfg's relative entries are resolved against its directory.
    (tmp_path / 'ansible.cfg').write_text(
        '[defaults]\ncallback_plugins = mine:/abs\n')
    env = ansible_progress.environment({'ANSIBLE_CONFIG': str(tmp_path)})
    assert env['ANSIBLE_CALLBACK_PLUGINS'] == '%s:/abs:%s' % (
        tmp_path / 'mine', ours)
