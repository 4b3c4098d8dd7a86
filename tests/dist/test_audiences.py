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
"""Three audiences, each installing only its own part of the wheel.

heat-engine hosts install the wheel alone next to Heat; server images the
agent extra, without Heat or Mistral's client; workstations the client
extra, without Heat. Each runs what it installed.
"""

import json
import os

from tests.agent import http_stand_ins
from tests.dist.test_artifacts import SERVER_SIDE

BLOCK_CLIENTS = '''
import importlib.abc, sys
class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('openstack', 'heatclient'):
            raise ImportError('not on a heat-engine host: ' + name)
sys.meta_path.insert(0, Blocked())
'''

LOAD_THROUGH_PLUGIN_DIR = BLOCK_CLIENTS + '''
import runpy
loader = runpy.run_path(sys.argv[1])
print(sorted(loader['resource_mapping']()))
'''


def test_the_wheel_alone_resolves_nothing_of_the_server_side(
        fresh_venv, wheel):
    env = fresh_venv('resolve-only')
    report = os.path.join(env.path, 'report.json')
    env.run(env.python, '-m', 'pip', 'install', '-q', '--dry-run',
            '--disable-pip-version-check', '--ignore-installed',
            '--report', report, '-c', env.constraints, wheel, timeout=600)
    with open(report) as f:
        names = {i['metadata']['name'].lower()
                 for i in json.load(f)['install']}
    assert 'heat-lifecycle-plugins' in names
    assert not names & SERVER_SIDE, names & SERVER_SIDE


def test_engine_plugin_loads_its_types_without_the_clients(
        operator_venv, tmp_path):
    plugin_dir = str(tmp_path / 'plugins')
    operator_venv.run(operator_venv.bin('heat-lifecycle-plugins'),
                      'install-loader', '--plugin-dir', plugin_dir)
    loader = os.path.join(plugin_dir, 'heat_lifecycle_plugins_loader.py')
    proc = operator_venv.run(operator_venv.python, '-c',
                             LOAD_THROUGH_PLUGIN_DIR, loader)
    assert proc.stdout.strip().splitlines()[-1] == str(sorted([
        'OS::Heat::ResourceChain', 'OS::Heat::SoftwareComponent',
        'OS::Heat::SoftwareDeployment', 'OS::Mistral::ExternalResource']))


def test_agent_extra_runs_a_deployment_without_heat(fresh_venv, wheel,
                                                    tmp_path):
    env = fresh_venv('server-image')
    env.pip_install(wheel + '[agent]')
    assert not env.installed() & {'openstack-heat', 'mistral', 'keystone',
                                  'python-mistralclient'}
    receiver = http_stand_ins.SignalReceiver()
    try:
        metadata = tmp_path / 'heat-config'
        metadata.write_text(json.dumps([{
            'id': 'dep-1', 'name': 'hello', 'group': 'script',
            'config': '#!/bin/sh\necho "hello $who"\n',
            'inputs': [
                {'name': 'who', 'value': 'image', 'type': 'String'},
                {'name': 'deploy_signal_id', 'value': receiver.url(),
                 'type': 'String'},
                {'name': 'deploy_action', 'value': 'CREATE',
                 'type': 'String'}],
            'outputs': [], 'options': {}}]))
        proc = env.run(
            env.bin('heat-lifecycle-agent'), '--metadata-file',
            str(metadata), '--deployed-dir', str(tmp_path / 'deployed'),
            '--hooks-dir', str(tmp_path / 'no-extra-hooks'),
            env=dict(os.environ,
                     HEAT_SCRIPT_WORKING=str(tmp_path / 'working'),
                     HEAT_SCRIPT_OUTPUTS=str(tmp_path / 'outputs')))
        assert proc.returncode == 0, proc.stderr
        [final] = receiver.bodies
    finally:
        receiver.stop()
    assert final['deploy_status_code'] == 0, final
    assert final['deploy_stdout'] == 'hello image\n'


def test_client_extra_runs_the_commands_without_heat(fresh_venv, wheel):
    env = fresh_venv('workstation')
    env.pip_install(wheel + '[client]')
    assert not env.installed() & {'openstack-heat', 'mistral', 'keystone'}
    helped = env.run(env.bin('heat-lifecycle-plugins'), '--help')
    assert 'why' in helped.stdout and 'run-action' in helped.stdout
    # No cloud credentials: one line naming what is missing, exit 2.
    proc = env.run(env.bin('heat-lifecycle-plugins'), 'why', 'a-stack',
                   check=False)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert 'Traceback' not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr

