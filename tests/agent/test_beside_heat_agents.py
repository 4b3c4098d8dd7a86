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
"""The agent on an image that also carries heat-agents, as the guide says.

os-refresh-config (its own dib-run-parts) runs a configure.d holding
heat-agents' unchanged 55-heat-config and the guide's
examples/os-refresh-config/50-heat-lifecycle-agent, with heat-agents'
hooks where both look for them. Paths that are system directories on an
image are the test's own, through the variables both agents read.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.agent.conftest import deployment
from tests.agent import heat_agents as heat_agents_files

OUR_SCRIPT = os.path.join(heat_agents_files.ROOT, 'examples',
                          'os-refresh-config', '50-heat-lifecycle-agent')
BIN = os.path.dirname(sys.executable)
# heat-config-notify stand-in: records that 55-heat-config signalled.
NOTIFY = '#!/bin/sh\ncat > /dev/null\necho "$1" >> "%s"\n'
SCRIPT = '''#!/bin/sh
echo "port $port"
printf %s "$port" > "$heat_outputs_path.port"
'''


class Image(object):
    """os-refresh-config's base directory with both agents installed."""

    def __init__(self, tmp_path, heat_agents, receiver):
        self.tmp = tmp_path
        self.base = tmp_path / 'os-refresh-config'
        configure = self.base / 'configure.d'
        configure.mkdir(parents=True)
        shutil.copy(os.path.join(heat_agents, 'configure.d',
                                 '55-heat-config'), configure)
        shutil.copy(OUR_SCRIPT, configure)
        self.notified = tmp_path / 'notified'
        notify = tmp_path / 'heat-config-notify'
        notify.write_text(NOTIFY % self.notified)
        notify.chmod(0o755)
        self.metadata = tmp_path / 'heat-config'
        self.deployed = tmp_path / 'deployed'
        self.env = dict(
            os.environ, PATH=BIN + os.pathsep + os.environ['PATH'],
            TMPDIR=str(tmp_path), OS_REFRESH_CONFIG_BASE_DIR=str(self.base),
            HEAT_SHELL_CONFIG=str(self.metadata),
            HEAT_CONFIG_DEPLOYED=str(self.deployed),
            HEAT_CONFIG_HOOKS=os.path.join(heat_agents, 'hooks'),
            HEAT_CONFIG_NOTIFY=str(notify),
            HEAT_SCRIPT_WORKING=str(tmp_path / 'script-working'),
            HEAT_SCRIPT_OUTPUTS=str(tmp_path / 'script-outputs'))

    def write(self, deployments):
        self.metadata.write_text(json.dumps(deployments))

    def refresh(self):
        """One os-refresh-config pass: (exit status, its output)."""
        run = subprocess.run(
            [os.path.join(BIN, 'os-refresh-config'), '--lockfile',
             str(self.tmp / 'orc.lock')],
            env=self.env, capture_output=True, text=True, timeout=300)
        return run.returncode, run.stdout + run.stderr

    def notified_ids(self):
        if not self.notified.exists():
            return []
        return self.notified.read_text().split()


@pytest.fixture
def image(tmp_path, heat_agents, receiver):
    return Image(tmp_path, heat_agents, receiver)


def _number_script(dep_id, receiver):
    # A Number input: heat-agents' script hook fails on it (not a string).
    dep = deployment(dep_id, config=SCRIPT, outputs=['port'],
                     deploy_signal_id=receiver.url())
    dep['inputs'].append({'name': 'port', 'type': 'Number', 'value': 8080})
    return dep


def test_one_agent_runs_each_deployment_and_heat_agents_skips_it(
        image, receiver):
    image.write([_number_script('dep-1', receiver)])
    status, output = image.refresh()
    assert status == 0, output
    body, = receiver.bodies
    # The agent's own script hook ran it (@packaged comes first).
    assert body['deploy_status_code'] == 0, body
    assert body['port'] == '8080'
    # 55-heat-config ran after it, found it deployed and signalled nothing.
    assert 'Skipping config dep-1, already deployed' in output
    assert image.notified_ids() == []
    # A second pass runs nothing again.
    status, output = image.refresh()
    assert status == 0, output
    assert len(receiver.bodies) == 1


def test_heat_agents_does_not_run_after_the_agent_failed(image, receiver):
    receiver.statuses = [403]  # Heat refuses the result: exit status 1
    image.write([_number_script('dep-1', receiver),
                 _number_script('dep-2', receiver)])
    status, output = image.refresh()
    assert status != 0
    assert 'Aborting' in output
    assert '55-heat-config' not in output, output
    assert image.notified_ids() == []
    assert len(receiver.bodies) == 2  # one refused, one delivered
