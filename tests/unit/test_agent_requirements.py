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
"""heat-lifecycle-agent runs with the agent extra's requirements alone.

An image needs the agent, not heat-engine's side: Heat, Keystone, Mistral,
Mistral's client and openstacksdk are blocked from import here, and the
agent still imports, prints its help and runs a pass.
"""

import configparser
import json
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')

# Top-level modules of the server side: Heat, the services, and what only the
# engine side or the `why` command need (stevedore stays: oslo.config
# imports it).
SERVER_SIDE = ('heat', 'mistral', 'keystone', 'mistralclient', 'openstack')

BLOCKER = '''
import importlib.abc, sys
class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in %r:
            raise ImportError('blocked on a server image: ' + name)
sys.meta_path.insert(0, Blocked())
''' % (SERVER_SIDE,)


def run_blocked(code, *args):
    return subprocess.run([sys.executable, '-c', BLOCKER + code] +
                          list(args), capture_output=True, text=True,
                          timeout=60, cwd=ROOT)


def project_names(lines):
    """The project names of requirement lines (no versions, no comments)."""
    names = set()
    for line in lines:
        line = line.split('#')[0].strip()
        if line:
            names.add(re.split(r'[<>=!~;\[ ]', line)[0].lower())
    return names


def agent_install_names():
    """What `pip install heat-lifecycle-plugins[agent]` asks for itself."""
    with open(os.path.join(ROOT, 'requirements.txt')) as f:
        base = project_names(f)
    cfg = configparser.ConfigParser()
    cfg.read(os.path.join(ROOT, 'setup.cfg'))
    return base | project_names(cfg['extras']['agent'].splitlines())


def test_the_agent_install_asks_for_nothing_of_the_server_side():
    names = agent_install_names()
    assert 'python-heatclient' in names
    for server_side in ('openstack-heat', 'mistral', 'keystone',
                        'python-mistralclient', 'openstacksdk'):
        assert server_side not in names


def test_every_agent_module_imports_with_the_server_side_blocked():
    code = '''
import json, pkgutil, importlib
import heat_lifecycle_plugins.agent as agent
names = [m.name for m in pkgutil.walk_packages(agent.__path__,
                                                agent.__name__ + '.')]
for name in names:
    importlib.import_module(name)
print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))
'''
    proc = run_blocked(code)
    assert proc.returncode == 0, proc.stderr
    loaded = set(json.loads(proc.stdout))
    assert 'heat_lifecycle_plugins' in loaded
    assert not loaded & set(SERVER_SIDE)


def test_the_agent_runs_a_pass_with_the_server_side_blocked(tmp_path):
    metadata = tmp_path / 'heat-config'
    metadata.write_text('[]')
    code = ('import sys\n'
            'from heat_lifecycle_plugins.agent import main\n'
            'sys.exit(main.main(sys.argv[1:]))\n')
    proc = run_blocked(code, '--metadata-file', str(metadata),
                       '--deployed-dir', str(tmp_path / 'deployed'))
    assert proc.returncode == 0, proc.stderr
    helped = run_blocked(code, '--help')
    assert helped.returncode == 0, helped.stderr
    assert '--metadata-file' in helped.stdout
