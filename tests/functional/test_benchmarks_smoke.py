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
"""The benchmark's in-process parts keep working.

benchmarks/run.sh --part ... --smallest --busy (each part at its smallest
size) in a subprocess that starts its own MariaDB, engine and Mistral and
stops them by PID; then --report merges the stamped results, and --list
and the refusal of a busy machine. No timing is asserted: the numbers are
the benchmark's business, not the test suite's. The parts that need
RabbitMQ or the loopback cloud (engines, scale, external) are smoked in
tests/bench, on the hosts with RabbitMQ; feedback is not run.
On the oldest (eventlet) and the newest series only: the benchmarks
differ between series only in the engine's threading, which those two
cover, and each run costs minutes of CI on every series. The engine
parts (5 min of CI on 2025.1) on the newest only: their harness is the
same code on eventlet, where the parts themselves run them in full.
"""

import json
import os
import re
import subprocess
import sys

import pytest

from benchmarks import merge
from benchmarks import parts
from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import releases
from tests.benchmark_runs import assert_stamped
from tests.benchmark_runs import git
from tests.benchmark_runs import read_results
from tests.benchmark_runs import run_sh
from tests.benchmark_runs import run_smallest
from tests.benchmark_runs import TIMEOUT

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
PNG_MAGIC = b'\x89PNG\r\n\x1a\n'
NUMBER = r'\d+(?:\.\d+)?'
PROCESS_PARTS = ('signals-ours', 'signals-in-tree', 'long-lived')
SERIES = releases.series_of(heat_internals.heat_version()).name
pytestmark = pytest.mark.skipif(
    SERIES not in (releases.SERIES[0].name, releases.SERIES[-1].name),
    reason='benchmark smoke runs on the oldest and newest series only')


def assert_chain_rounds(result):
    rows = result['data']
    assert {r['kind'] for r in rows} == {'ours', 'in-tree', 'floor'}, rows
    for row in rows:
        for op in ('create', 'update', 'delete'):
            samples = row['samples'][op]
            assert len(samples) == result['plan']['rounds'], row
            assert all(t > 0 for t in samples), row


@pytest.mark.skipif(SERIES != releases.SERIES[-1].name,
                    reason='engine parts smoke on the newest series only')
def test_engine_parts_write_stamped_results_and_report(tmp_path):
    found = run_smallest(tmp_path, parts.CHAIN_PARTS)
    results = tmp_path / 'results'
    for name in parts.CHAIN_PARTS[:4]:
        assert_chain_rounds(found[name])
    n, changes = found['changes']['data']
    assert changes['insert at 0']['ours']['samples'], changes
    # A result whose commit predates the chain's last change is stale.
    old = dict(found['chain-large-sequential'])
    old['stamp'] = dict(old['stamp'], commit=git(
        'rev-list', '--max-parents=0', 'HEAD').split()[0])
    (results / 'chain-large-sequential.json').write_text(json.dumps(old))
    readme = tmp_path / 'README.rst'
    start, end = merge.markers(SERIES)
    readme.write_text('Top\n\n%s\n\nold\n\n%s\n\nBottom\n' % (start, end))
    out = run_sh('--report', '--results-dir', str(results),
                 '--readme', str(readme))
    assert 'README headline: written' in out, out
    text = readme.read_text()
    assert 'old' not in text and 'Bottom' in text, text
    assert 'Heat %s (' % SERIES in text, text  # its origin line
    assert re.search(r'sequential +10 +create', text), text
    report = (results / 'results.md').read_text()
    for name in parts.CHAIN_PARTS:
        row = re.search(r'^\| %s \| [0-9a-f]{10} \|.*$' % name, report, re.M)
        assert row and 'BUSY' in row.group(0), report
        assert 'smallest size' in row.group(0), report
        assert ('STALE' in row.group(0)) == (
            name == 'chain-large-sequential'), row.group(0)
    assert '| engines | not measured |' in report, report
    # chain-small ran 2 rounds: each ratio shows them all, too few for a
    # 95 % interval (6), and is undecided.
    assert re.search(r'\| sequential \| 10 \| create \| %sx \(all %s-%s, 2 '
                     r'rounds: too few for a 95 %% interval\)' % (
                         (NUMBER,) * 3), report), report
    for title in ('## Targets', '## Chain lifecycle: per-round ratios',
                  '## Insert at 0 and removal mid-list of 10'):
        assert title in report, report
    assert 'n/a' not in report.split('## Targets')[1], report
    with open(results / 'chain.png', 'rb') as f:
        assert f.read(8) == PNG_MAGIC


def test_list_and_refusal_of_a_busy_machine(tmp_path):
    out = run_sh('--list', '--results-dir', str(tmp_path))
    for name in parts.CHAIN_PARTS + PROCESS_PARTS + parts.EXTERNAL_PARTS + (
            'engines', 'feedback') + parts.SCALE_PARTS:
        assert re.search(r'^%s +\d+ min' % name, out, re.M), out
    proc = subprocess.run(
        ['bash', os.path.join(ROOT, 'benchmarks', 'run.sh'), '--part',
         'chain-small', '--max-load', '-1', '--results-dir', str(tmp_path)],
        cwd=ROOT, env=dict(os.environ, HLP_BENCH_PYTHON=sys.executable),
        text=True, capture_output=True, timeout=TIMEOUT)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert 'refused: load average' in proc.stdout, proc.stdout
    assert not list(tmp_path.iterdir())


def test_process_parts_signals_and_long_lived(tmp_path):
    results = tmp_path / 'results'
    run_sh('--part', *PROCESS_PARTS, '--smallest', '--busy',
           '--results-dir', str(results))
    found = read_results(results)
    assert sorted(found) == sorted(PROCESS_PARTS), found
    for result in found.values():
        assert_stamped(result)
    ours = found['signals-ours']['data']['results']
    assert [r['kind'] for r in ours] == ['ours'], ours
    assert ours[0]['handled'] == ours[0]['sent'] == 250, ours
    # The probe after the signals can succeed.
    assert ours[0]['update_after'] == 'UPDATE_COMPLETE', ours
    intree = found['signals-in-tree']['data']['results']
    assert intree[0]['kind'] == 'in-tree' and intree[0]['sent'], intree
    measured = found['long-lived']['data']
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
