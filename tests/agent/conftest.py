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
"""Fixtures of the agent tests.

The real heat-lifecycle-agent command run as a subprocess over a metadata
file, with real hook processes.
"""

import json
import os
import subprocess
import sys

import pytest

from tests.agent import heat_agents as heat_agents_files
from tests.agent import http_stand_ins

AGENT = os.path.join(os.path.dirname(sys.executable), 'heat-lifecycle-agent')

# Test hooks, following heat-agents' contract (JSON in, JSON out).
TEST_HOOKS = {
    # Records what it was given, succeeds with one output.
    'recorder': '''#!/bin/sh
cat > "$RECORD_DIR/$(date +%s%N).json"
echo '{"deploy_stdout": "recorded", "deploy_stderr": "",
      "deploy_status_code": 0, "result": "ok"}'
''',
    # Prints a successful result, then exits non-zero.
    'crasher': '''#!/bin/sh
cat > /dev/null
echo '{"deploy_stdout": "all fine", "deploy_stderr": "", "result": "x"}'
exit 3
''',
    # Starts a tool that never ends and waits for it.
    'hanger': '''#!/bin/sh
cat > /dev/null
sleep 600 &
echo $! > "$RECORD_DIR/tool.pid"
wait
''',
    # Prints its environment's secrets to stderr and no JSON (like a
    # heat-agents hook logging inputs), then fails.
    'leaker': '''#!/bin/sh
python3 -c "
import json, sys
for i in json.load(sys.stdin)['inputs']:
    print(i['name'], '=', i.get('value'), file=sys.stderr)
"
echo "not json"
exit 1
''',
    # Notes when it started (wall clock), then succeeds a moment later.
    'starter': '''#!/bin/sh
date +%s.%N > "$RECORD_DIR/started"
cat > /dev/null
sleep 0.5
echo '{"deploy_stdout": "started", "deploy_stderr": "",
      "deploy_status_code": 0}'
''',
    # Sleeps $SLEEP seconds (its tool's run), then succeeds.
    'sleeper': '''#!/bin/sh
cat > /dev/null
sleep "${SLEEP:-2}"
echo '{"deploy_stdout": "slept", "deploy_stderr": "",
      "deploy_status_code": 0, "result": "rested"}'
''',
    # Reads its input only after $SLEEP seconds (a slow start), keeps it.
    'late_reader': '''#!/bin/sh
sleep "${SLEEP:-2}"
cat > "$RECORD_DIR/input.json"
echo '{"deploy_stdout": "read", "deploy_stderr": "",
      "deploy_status_code": 0, "result": "read"}'
''',
    # Prints 1.5 MB of stdout and 300 KB of stderr through its result.
    'chatty': '''#!/usr/bin/env python3
import json, sys
json.load(sys.stdin)
out = 'start-of-stdout\\n' + 'o' * 1500000 + '\\nEND-OF-STDOUT'
err = 'start-of-stderr\\n' + 'e' * 300000 + '\\nEND-OF-STDERR'
json.dump({"deploy_stdout": out, "deploy_stderr": err,
           "deploy_status_code": 0, "result": "kept"}, sys.stdout)
''',
}


@pytest.fixture
def hooks_dir(tmp_path):
    path = tmp_path / 'hooks'
    path.mkdir()
    for name, text in TEST_HOOKS.items():
        hook = path / name
        hook.write_text(text)
        hook.chmod(0o755)
    return str(path)


@pytest.fixture(scope='session')
def heat_agents():
    """The directory of heat-agents' own files (tests/agent/heat_agents)."""
    try:
        return heat_agents_files.files()
    except heat_agents_files.NotAvailable as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture
def receiver():
    server = http_stand_ins.SignalReceiver()
    yield server
    server.stop()


def alive(pid):
    """Whether process `pid` runs (a zombie of a gone parent is dead)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open('/proc/%d/stat' % pid) as f:
        return f.read().split(') ')[-1][0] != 'Z'


def inputs(**values):
    return [{'name': k, 'value': v, 'type': 'String'}
            for k, v in values.items()]


def deployment(dep_id='dep-1', group='script', config='', outputs=(),
               options=None, name=None, **input_values):
    return {'id': dep_id, 'name': name or 'deployment-%s' % dep_id,
            'group': group, 'config': config,
            'inputs': inputs(**input_values),
            'outputs': [{'name': o} for o in outputs],
            'options': options or {}}


class Agent(object):
    """Runs heat-lifecycle-agent over a metadata file in a temp dir."""

    def __init__(self, tmp_path, hooks_dir):
        self.tmp = tmp_path
        self.metadata_file = str(tmp_path / 'heat-config')
        self.deployed_dir = str(tmp_path / 'deployed')
        self.record_dir = tmp_path / 'records'
        self.record_dir.mkdir()
        self.hooks_dir = hooks_dir

    def write(self, deployments):
        with open(self.metadata_file, 'w') as f:
            json.dump(deployments, f)

    def env(self, **extra):
        env = dict(os.environ)
        env.update(HEAT_SCRIPT_WORKING=str(self.tmp / 'script-working'),
                   HEAT_SCRIPT_OUTPUTS=str(self.tmp / 'script-outputs'),
                   RECORD_DIR=str(self.record_dir))
        env.update(extra)
        return env

    def argv(self, *extra):
        return [AGENT, '--metadata-file', self.metadata_file,
                '--deployed-dir', self.deployed_dir,
                '--hooks-dir', self.hooks_dir,
                '--signal-backoff', '0.01'] + list(extra)

    def run(self, *extra, env=None, timeout=120):
        return subprocess.run(self.argv(*extra), env=env or self.env(),
                              capture_output=True, text=True,
                              timeout=timeout)

    def records(self):
        return [json.loads(p.read_text())
                for p in sorted(self.record_dir.glob('*.json'))]

    def marker(self, dep_id):
        path = os.path.join(self.deployed_dir, dep_id + '.json')
        if not os.path.exists(path):
            return None
        with open(path) as f:
            return json.load(f), os.stat(path).st_mode & 0o777


@pytest.fixture
def agent(tmp_path, hooks_dir):
    return Agent(tmp_path, hooks_dir)


@pytest.fixture
def hooks_agent(tmp_path, heat_agents):
    """An Agent whose hooks are heat-agents' own, ansible from the venv."""
    agent = Agent(tmp_path, os.path.join(heat_agents, 'hooks'))
    work = tmp_path / 'ansible'
    agent.env = lambda **extra: Agent.env(
        agent, HEAT_ANSIBLE_WORKING=str(work / 'working'),
        HEAT_ANSIBLE_OUTPUTS=str(work / 'outputs'),
        HEAT_ANSIBLE_CMD=os.path.join(os.path.dirname(sys.executable),
                                      'ansible-playbook'),
        ANSIBLE_HOME=str(work / 'home'),
        ANSIBLE_LOCAL_TEMP=str(work / 'tmp'),
        ANSIBLE_REMOTE_TEMP=str(work / 'remote-tmp'), HOME=str(work),
        ANSIBLE_PYTHON_INTERPRETER=sys.executable, LC_ALL='C.UTF-8',
        **extra)
    return agent
