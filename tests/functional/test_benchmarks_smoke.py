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
"""The benchmark command keeps working.

benchmarks/run.sh --quick (smallest N, one round) of the in-process
benchmarks, in a subprocess that starts its own MariaDB, engine and
Mistral and stops them by PID. No timing is asserted: the numbers are the
benchmark's business, not the test suite's. On the oldest (eventlet) and
the newest series only: the benchmarks differ between series only in the
engine's threading, which those two cover, and each run costs minutes of
CI on every series.
"""

import json
import os
import re
import signal
import subprocess
import sys

import pytest

from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import releases

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
PNG_MAGIC = b'\x89PNG\r\n\x1a\n'
NUMBER = r'\d+(?:\.\d+)?'
TIMEOUT = 600  # seconds; each run takes 15 to 120
SERIES = releases.series_of(heat_internals.heat_version()).name
pytestmark = pytest.mark.skipif(
    SERIES not in (releases.SERIES[0].name, releases.SERIES[-1].name),
    reason='benchmark smoke runs on the oldest and newest series only')


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


def test_quick_run_writes_tables_and_plot(tmp_path):
    results = tmp_path / 'results'
    env = dict(os.environ, HLP_BENCH_PYTHON=sys.executable)
    out = run_benchmark(
        ['bash', os.path.join(ROOT, 'benchmarks', 'run.sh'), '--quick',
         '--only', 'chain', 'changes', 'external',
         '--results-dir', str(results), '--workdir', str(tmp_path / 'work')],
        env=env)

    report = (results / 'results.md').read_text()
    for title in ('## Targets', '## Chain lifecycle', '## Peak RSS',
                  '## Insert at 0 and removal mid-list of 10',
                  '## ExternalResource on a real Mistral',
                  '## Machine and method'):
        assert title in report, report
    # Every kind has a measured number for every operation of N=10.
    for mode in ('sequential', 'concurrent'):
        for op in ('create', 'update', 'delete'):
            row = re.search(r'\| %s \| 10 \| %s \|(.*)\|' % (mode, op),
                            report)
            assert row, (mode, op, report)
            cells = [c.strip() for c in row.group(1).split('|')]
            assert all(re.fullmatch(NUMBER + 'x?', c) for c in cells), cells
    for change in ('insert at 0', 'remove mid-list'):
        for kind in ('ours', 'in-tree', 'floor'):
            assert re.search(r'\| %s of 10 \| %s \| \d+ \| \d+ \| %s \|'
                             % (change, kind, NUMBER), report), report
    assert 'n/a' not in report, report
    with open(results / 'chain.png', 'rb') as f:
        assert f.read(8) == PNG_MAGIC
    # The headline table is printed too.
    assert '| mode | N | operation |' in out


def test_signal_load_quick_run_writes_its_table(tmp_path):
    results = tmp_path / 'results'
    out = run_benchmark(
        [sys.executable, '-m', 'benchmarks.signals', '--signals', '250',
         '--results-dir', str(results), '--workdir', str(tmp_path / 'work')])
    table = (results / 'signals.md').read_text()
    kinds = re.findall(r'^\| ([^|]+?) \| 250 \| (\d+) \|', table, re.M)
    assert [k for k, _ in kinds][:2] == ['ours', 'in-tree'], table
    assert dict(kinds)['ours'] == '250', table
    assert '| ours |' in out


def test_long_lived_quick_run_shows_the_thread_budget_and_its_remedy(
        tmp_path):
    from heat_lifecycle_plugins import heat_internals
    from heat_lifecycle_plugins import releases
    results = tmp_path / 'results'
    run_benchmark(
        [sys.executable, '-m', 'benchmarks.long_lived', '--actions', '12',
         '--results-dir', str(results), '--workdir', str(tmp_path / 'work')])
    measured = json.loads((results / 'long-lived.json').read_text())
    by_kind = {r['kind']: r for r in measured['results']}
    for result in by_kind.values():
        assert result['actions'] == 12 and not result['first_failure'], \
            result
        assert result['update_after'] == 'UPDATE_COMPLETE', result
        assert result['delete_after'] == 'DELETE_COMPLETE', result
    keys = {i.key for i in releases.issues_of(heat_internals.heat_version())}
    if 'per-stack-thread-budget' in keys:
        # Finished threads pile up as installed; the remedy drops them.
        assert by_kind['as installed']['threads_left'] > 12, by_kind
        assert by_kind['forget_finished_threads on']['threads_left'] <= 2, \
            by_kind
    else:
        assert list(by_kind) == ['as installed'], by_kind
    assert '| as installed | 12 |' in (results / 'long-lived.md').read_text()
