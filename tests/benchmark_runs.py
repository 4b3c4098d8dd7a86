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
"""Running benchmarks/run.sh from a test, and reading what it wrote.

Shared by the smoke tests of the in-process parts (tests/functional) and
of the parts that need RabbitMQ or the loopback cloud (tests/bench).
"""

import glob
import importlib.metadata
import json
import os
import re
import signal
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 600  # seconds; each run takes 15 to 120


def run_benchmark(command, env=None):
    """Run a benchmark command; a hang fails with every thread's stack.

    On TIMEOUT its process group gets SIGUSR1 (harness.main prints
    the stacks), then SIGTERM (it stops the services it started).
    """
    proc = subprocess.Popen(command, cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        # Heat's service waits up to 60 s for its threads after SIGTERM.
        for signum, wait in ((signal.SIGUSR1, 2), (signal.SIGTERM, 120),
                             (signal.SIGKILL, None)):
            os.killpg(proc.pid, signum)
            try:
                out, err = proc.communicate(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        pytest.fail('no end in %d s: %s\n%s\n%s' % (
            TIMEOUT, command, out[-3000:], err[-20000:]))
    assert proc.returncode == 0, out[-3000:] + err[-8000:]
    return out


def run_sh(*args):
    env = dict(os.environ, HLP_BENCH_PYTHON=sys.executable)
    return run_benchmark(['bash', os.path.join(ROOT, 'benchmarks', 'run.sh')]
                         + list(args), env=env)


def git(*args):
    # The tiers run a staged copy: git is in the checkout it came from.
    root = os.environ.get('HLP_SOURCE_ROOT') or ROOT
    return subprocess.run(['git'] + list(args), cwd=root, text=True,
                          capture_output=True, check=True).stdout.strip()


def read_results(results):
    found = {}
    for path in glob.glob(str(results / '*.json')):
        with open(path) as f:
            found[os.path.basename(path)[:-5]] = json.load(f)
    return found


def assert_stamped(result):
    s = result['stamp']
    assert s['commit'] == git('rev-parse', 'HEAD'), s
    assert s['clean_tree'] == (s['dirty'] == []), s
    assert s['heat'] == importlib.metadata.version('openstack-heat'), s
    assert re.fullmatch(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ', s['date']), s
    assert s['machine']['cores'] == os.cpu_count(), s
    assert s['machine']['memory_bytes'] > 2 ** 20, s
    for key in ('load_before', 'load_after'):
        assert len(s[key]) == 3 and all(v >= 0 for v in s[key]), s
    assert s['busy'] is True and result['smallest'] is True, result


def run_smallest(tmp_path, names):
    """Run the parts `names` at their smallest size; their results.

    Each stamped, under its own name, and no other; the services' logs
    stay in tmp_path/w.
    """
    results = tmp_path / 'results'
    run_sh('--part', *names, '--smallest', '--busy',
           '--results-dir', str(results), '--workdir', str(tmp_path / 'w'))
    found = read_results(results)
    assert sorted(found) == sorted(names), found
    for name, result in found.items():
        assert result['part'] == name
        assert_stamped(result)
    return found
