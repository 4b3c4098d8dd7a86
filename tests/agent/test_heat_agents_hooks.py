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
"""The agent with heat-agents' own script and ansible hooks, unchanged.

The hooks come from heat-agents' sdist (tests/agent/heat_agents.py),
ansible-playbook from ansible-core (test-requirements.txt); the playbooks
run on this machine through ansible's local connection, with every file
ansible and the hooks write under the test's temporary directory.
"""

import os

from tests.agent.conftest import deployment

PLAYBOOK = '''- hosts: localhost
  connection: local
  gather_facts: false
  tasks:
    - name: install
      tags: [install]
      copy: {dest: "{{ marks }}/installed", content: "{{ who }}"}
    - name: configure
      tags: [configure]
      copy: {dest: "{{ marks }}/configured", content: "{{ who }}"}
    - name: report
      tags: [always]
      copy: {dest: "{{ heat_outputs_path }}.result", content: "played"}
'''

FAILING_PLAYBOOK = '''- hosts: localhost
  connection: local
  gather_facts: false
  tasks:
    - fail: {msg: "the database is not reachable"}
'''

SCRIPT = '''#!/bin/sh
echo "removing $who"
printf 'removed-%s' "$who" > "$heat_outputs_path.result"
'''


def _component(dep_id, marks, options, action='CREATE', **input_values):
    configs = [
        {'actions': ['CREATE', 'UPDATE'], 'tool': 'ansible',
         'config': PLAYBOOK},
        {'actions': ['DELETE'], 'tool': 'script', 'config': SCRIPT},
    ]
    # An in-tree engine's shape: one options map for the component.
    return deployment(dep_id, group='component', config={'configs': configs},
                      outputs=['result'], options=options,
                      deploy_action=action, marks=str(marks), who='app',
                      **input_values)


def test_component_with_heat_agents_hooks_and_per_tool_tags(
        hooks_agent, receiver, tmp_path):
    tagged, untagged = tmp_path / 'tagged', tmp_path / 'untagged'
    tagged.mkdir()
    untagged.mkdir()
    options = {'ansible': {'tags': 'configure'}, 'script': {'x': 1},
               'log_level': 'info'}
    hooks_agent.write([
        _component('tagged', tagged, options, deploy_status_aware='true',
                   deploy_signal_id=receiver.url()),
        _component('untagged', untagged, {'log_level': 'info'},
                   deploy_signal_id=receiver.url())])
    run = hooks_agent.run(timeout=300)
    assert run.returncode == 0, run.stderr
    assert os.path.join(hooks_agent.hooks_dir, 'ansible') in run.stderr
    # The ansible section's tags picked the tasks: only "configure" ran.
    assert sorted(os.listdir(tagged)) == ['configured']
    assert sorted(os.listdir(untagged)) == ['configured', 'installed']
    # The tagged one's progress (its tasks may be relayed too), then the
    # results in order.
    progress, tagged_final, untagged_final = (
        receiver.bodies[0], receiver.bodies[-2], receiver.bodies[-1])
    assert progress['deploy_status'] == 'IN_PROGRESS'
    for final in (tagged_final, untagged_final):
        assert final['deploy_status_code'] == 0, final
        assert final['result'] == 'played'
    assert tagged_final['deploy_status'] == 'COMPLETE'

    # DELETE: the script entry, through heat-agents' script hook.
    hooks_agent.write([_component('tagged-delete', tagged, options,
                                  action='DELETE',
                                  deploy_signal_id=receiver.url())])
    run = hooks_agent.run()
    assert run.returncode == 0, run.stderr
    assert os.path.join(hooks_agent.hooks_dir, 'script') in run.stderr
    final = receiver.bodies[-1]
    assert final['deploy_status_code'] == 0, final
    assert final['deploy_stdout'] == 'removing app\n'
    assert final['result'] == 'removed-app'


def test_a_failing_heat_agents_playbook_fails_the_deployment(
        hooks_agent, receiver):
    hooks_agent.write([deployment(
        group='ansible', config=FAILING_PLAYBOOK, deploy_status_aware='true',
        deploy_signal_id=receiver.url())])
    run = hooks_agent.run(timeout=300)
    assert run.returncode == 0, run.stderr
    final = receiver.bodies[-1]
    assert final['deploy_status'] == 'FAILED'
    assert final['deploy_status_code'] == 2  # ansible: a task failed
    assert 'the tool exited with status 2' in final['deploy_status_reason']
    assert 'the database is not reachable' in final['deploy_stdout']


def test_heat_agents_script_hook_with_a_number_in_a_string_input(
        hooks_agent, receiver):
    dep = deployment(config='#!/bin/sh\necho "port $port"\n'
                            'printf %s "$port" > "$heat_outputs_path.port"\n',
                     outputs=['port'], deploy_signal_id=receiver.url())
    dep['inputs'].append({'name': 'port', 'type': 'String', 'value': 8080})
    hooks_agent.write([dep])
    run = hooks_agent.run()
    assert run.returncode == 0, run.stderr
    body, = receiver.bodies
    assert body['deploy_status_code'] == 0, body
    assert body['deploy_stdout'] == 'port 8080\n'
    assert body['port'] == '8080'
