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
"""What `tools/demo.sh --keep` keeps running outlives the demo's process.

Mistral and the thing store included, until `--stop DIR` stops each by its
PID.
"""

import json
import os
import subprocess
import sys
import urllib.request

from heat_lifecycle_fixtures import process

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
DEMO = [sys.executable, '-m', 'tools.demo']  # run from ROOT

# The demo's way of keeping services, in a process that then exits.
STARTER = '''
import json, sys
from heat_lifecycle_fixtures import mistral, thing_store
from tools import demo
workdir = sys.argv[1]
parts = [mistral.Mistral(workdir + '/mistral', detached=True),
         thing_store.ThingStore(workdir + '/thing-store', detached=True)]
for part in parts:
    part.setUp()
kept = [p for part in parts for p in part.all_processes()]
demo.write_kept(workdir, kept, False)
print(json.dumps({'mistral': parts[0].url, 'store': parts[1].url,
                  'pids': [pid for _name, pid in kept]}))
'''


def answers(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.status == 200
    except OSError:
        return False


def test_kept_services_run_until_stop(tmp_path):
    starter = subprocess.run([sys.executable, '-c', STARTER, str(tmp_path)],
                             cwd=ROOT, capture_output=True, text=True,
                             timeout=300)
    assert starter.returncode == 0, starter.stderr[-3000:]
    kept = json.loads(starter.stdout)
    stopped = False
    try:
        # The process that started them is gone; both still answer.
        assert answers(kept['mistral'] + '/workflows')
        assert answers(kept['store'] + '/things')
        stop = subprocess.run(DEMO + ['--stop', str(tmp_path)], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        stopped = stop.returncode == 0
        assert stopped, stop.stdout + stop.stderr
    finally:
        if not stopped:
            subprocess.run(DEMO + ['--stop', str(tmp_path)], cwd=ROOT,
                           timeout=120)
    assert 'stopping mistral-server (pid %d)' % kept['pids'][0] in stop.stdout
    assert 'stopping thing-store (pid %d)' % kept['pids'][1] in stop.stdout
    assert [pid for pid in kept['pids'] if process.alive(pid)] == []
    assert not answers(kept['store'] + '/things')
    assert not os.path.exists(tmp_path / 'demo-pids.json')
    assert os.path.exists(tmp_path / 'mistral' / 'mistral.log')
