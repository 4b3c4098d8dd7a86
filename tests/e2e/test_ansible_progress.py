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
"""Ansible tasks followed through heat-api, on the loopback cloud.

A DeployedServer's agent runs heat-agents 13.0.0's own ansible hook
(tests/agent/heat_agents.py) with ansible-core from the venv; its
playbooks never call heat-lifecycle-progress. `openstack lifecycle
progress watch` (the venv's openstack, our wheel's OSC plugin) shows the
tasks while they run, and `heat-lifecycle-plugins why` names a failed one.
"""

import os
import sys

import pytest

from tests.agent import heat_agents
from tests.agent import test_ansible_progress as agent_tests
from tests.e2e import test_osc_commands as osc
from tests.e2e import test_why

TEMPLATE = '''heat_template_version: 2016-04-08
resources:
  server:
    type: OS::Heat::DeployedServer
    properties:
      software_config_transport: POLL_SERVER_HEAT
  config:
    type: OS::Heat::SoftwareConfig
    properties:
      group: ansible
      config: |
%s
  deployment:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: config}
      server: {get_resource: server}
      signal_transport: HEAT_SIGNAL
'''

SLOW_PLAYBOOK = agent_tests.play('''
- name: prepare
  debug: {msg: "preparing"}
- name: install the frobnicator
  command: sleep 8
- name: configure
  debug: {msg: "configuring"}
- name: report
  debug: {msg: "done"}
''')

FAILING_PLAYBOOK = agent_tests.play('''
- name: prepare
  debug: {msg: "preparing"}
- name: check the database
  fail: {msg: "the database is not reachable"}
''')


def template(playbook):
    return TEMPLATE % '\n'.join('        ' + line
                                for line in playbook.splitlines())


@pytest.fixture
def ansible_hooks(tmp_path, monkeypatch):
    """The agents started now find heat-agents' hooks and ansible."""
    try:
        files = heat_agents.files()
    except heat_agents.NotAvailable as exc:
        pytest.fail(str(exc), pytrace=False)
    work = tmp_path / 'ansible'
    bin_dir = os.path.dirname(sys.executable)
    for name, value in (
            ('HEAT_CONFIG_HOOKS', os.path.join(files, 'hooks')),
            ('HEAT_ANSIBLE_CMD', os.path.join(bin_dir, 'ansible-playbook')),
            ('HEAT_ANSIBLE_WORKING', str(work / 'working')),
            ('HEAT_ANSIBLE_OUTPUTS', str(work / 'outputs')),
            ('ANSIBLE_HOME', str(work / 'home')),
            ('ANSIBLE_LOCAL_TEMP', str(work / 'tmp')),
            ('ANSIBLE_REMOTE_TEMP', str(work / 'remote-tmp')),
            ('ANSIBLE_PYTHON_INTERPRETER', sys.executable)):
        monkeypatch.setenv(name, value)


def openstack(cloud, *args):
    """The venv's `openstack` (our wheel's plugin) as the demo user."""
    workstation = type('Venv', (), {'bin': staticmethod(
        lambda name: os.path.join(os.path.dirname(sys.executable), name))})
    return osc.openstack(workstation, cloud, *args)


def test_progress_watch_shows_ansible_tasks_as_they_run(
        cloud, driver, ansible_hooks):
    stack_id = driver.create(template(SLOW_PLAYBOOK), servers=['server'],
                             wait=False,
                             agent_options={'milestone_interval': 1})
    watched = openstack(cloud, 'lifecycle', 'progress', 'watch', stack_id,
                        '--interval', '0.5')
    assert watched.returncode == 0, watched.stdout + watched.stderr
    shown = [line for line in watched.stdout.splitlines()
             if line.startswith('deployment ')]
    # The task, maybe with "[1 earlier milestone not sent]" (prepare).
    slow = [n for n, line in enumerate(shown) if
            'ansible hook: TASK [install the frobnicator] (2 of 4)' in line]
    assert slow, watched.stdout
    # Shown while it ran: the deployment was still IN_PROGRESS after it.
    assert ' IN_PROGRESS ' in shown[slow[0]], watched.stdout
    assert shown[-1].split()[1] == 'COMPLETE', watched.stdout


def test_why_names_the_failing_ansible_task(cloud, driver, heat,
                                            ansible_hooks):
    stack_id = driver.create(template(FAILING_PLAYBOOK), servers=['server'],
                             expect='FAILED')
    name = heat.stacks.get(stack_id).stack_name
    text = test_why.why(cloud, name)
    assert text.returncode == 1, text.stderr
    # The cause comes first, in the tool's words: task, host, message.
    assert ('    cause: task [check the database] failed on localhost: the '
            'database is not reachable (hook ansible: the tool exited with '
            'status 2)') in text.stdout.splitlines()[3], text.stdout
