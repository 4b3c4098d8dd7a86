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
"""The benchmark's parts keep working.

benchmarks/run.sh --part ... --smallest --busy (each part at its smallest
size) in a subprocess that starts its own MariaDB, engine and Mistral and
stops them by PID; then --report merges the stamped results, and --list
and the refusal of a busy machine. No timing is asserted: the numbers are
the benchmark's business, not the test suite's. Not run here: feedback
(the loopback cloud). The external parts run on the loopback cloud too,
both in one run that shares it: their test needs RabbitMQ and is skipped
without it.
On the oldest (eventlet) and the newest series only: the benchmarks
differ between series only in the engine's threading, which those two
cover, and each run costs minutes of CI on every series.
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

from heat_lifecycle_fixtures import rabbitmq
from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import releases

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
PNG_MAGIC = b'\x89PNG\r\n\x1a\n'
NUMBER = r'\d+(?:\.\d+)?'
TIMEOUT = 600  # seconds; each run takes 15 to 120
ENGINE_PARTS = ('chain-small', 'chain-concurrent', 'chain-large-sequential',
                'chain-large-concurrent', 'changes')
EXTERNAL_PARTS = ('external-short', 'external-600')
PROCESS_PARTS = ('signals-ours', 'signals-in-tree', 'long-lived')
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
    assert isinstance(s['clean_tree'], bool), s
    assert s['heat'] == importlib.metadata.version('openstack-heat'), s
    assert re.fullmatch(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ', s['date']), s
    assert s['machine']['cores'] == os.cpu_count(), s
    assert s['machine']['memory_bytes'] > 2 ** 20, s
    for key in ('load_before', 'load_after'):
        assert len(s[key]) == 3 and all(v >= 0 for v in s[key]), s
    assert s['busy'] is True and result['smallest'] is True, result


def assert_chain_rounds(result):
    rows = result['data']
    assert {r['kind'] for r in rows} == {'ours', 'in-tree', 'floor'}, rows
    for row in rows:
        for op in ('create', 'update', 'delete'):
            samples = row['samples'][op]
            assert len(samples) == result['plan']['rounds'], row
            assert all(t > 0 for t in samples), row


def test_engine_parts_write_stamped_results_and_report(tmp_path):
    results = tmp_path / 'results'
    run_sh('--part', *ENGINE_PARTS, '--smallest', '--busy',
           '--results-dir', str(results), '--workdir', str(tmp_path / 'w'))
    found = read_results(results)
    assert sorted(found) == sorted(ENGINE_PARTS), found
    for name, result in found.items():
        assert result['part'] == name
        assert_stamped(result)
    for name in ENGINE_PARTS[:4]:
        assert_chain_rounds(found[name])
    n, changes = found['changes']['data']
    assert changes['insert at 0']['ours']['samples'], changes
    # A result whose commit predates the chain's last change is stale.
    old = dict(found['chain-large-sequential'])
    old['stamp'] = dict(old['stamp'], commit=git(
        'rev-list', '--max-parents=0', 'HEAD').split()[0])
    (results / 'chain-large-sequential.json').write_text(json.dumps(old))
    readme = tmp_path / 'README.rst'
    readme.write_text('Top\n\n.. benchmark-headline-start\n\nold\n\n'
                      '.. benchmark-headline-end\n\nBottom\n')
    out = run_sh('--report', '--results-dir', str(results),
                 '--readme', str(readme))
    assert 'README headline: written' in out, out
    text = readme.read_text()
    assert 'old' not in text and 'Bottom' in text, text
    assert re.search(r'sequential +10 +create', text), text
    report = (results / 'results.md').read_text()
    for name in ENGINE_PARTS:
        row = re.search(r'^\| %s \| [0-9a-f]{10} \|.*$' % name, report, re.M)
        assert row and 'BUSY' in row.group(0), report
        assert 'smallest size' in row.group(0), report
        assert ('STALE' in row.group(0)) == (
            name == 'chain-large-sequential'), row.group(0)
    assert '| engines | not measured |' in report, report
    # chain-small ran 2 rounds: each ratio has a band of 2 rounds.
    assert re.search(r'\| sequential \| 10 \| create \| %sx \(%s-%s, 2 '
                     r'rounds' % ((NUMBER,) * 3), report), report
    for title in ('## Targets', '## Chain lifecycle: per-round ratios',
                  '## Insert at 0 and removal mid-list of 10'):
        assert title in report, report
    assert 'n/a' not in report.split('## Targets')[1], report
    with open(results / 'chain.png', 'rb') as f:
        assert f.read(8) == PNG_MAGIC


def test_list_and_refusal_of_a_busy_machine(tmp_path):
    out = run_sh('--list', '--results-dir', str(tmp_path))
    for name in ENGINE_PARTS + PROCESS_PARTS + EXTERNAL_PARTS + (
            'engines', 'scale-ours', 'scale-in-tree', 'feedback'):
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


@pytest.mark.skipif(not rabbitmq.RabbitMQ.available(),
                    reason='the engines part needs RabbitMQ, which a Debian '
                           'root (tools/python-root.sh) lacks')
def test_engines_and_scale_parts_check_what_they_claim(tmp_path):
    results = tmp_path / 'results'
    names = ('engines', 'scale-ours', 'scale-in-tree')
    run_sh('--part', *names, '--smallest', '--busy',
           '--results-dir', str(results))
    found = read_results(results)
    engines = found['engines']['data']
    assert not engines.get('failed'), engines
    assert engines['problems'] == {'ours': [], 'in-tree': []}, engines
    assert engines['lock_errors'] == [], engines
    for kind in ('ours', 'in-tree'):
        assert all(len(v) == 1 for v in engines['samples'][kind].values())
    for name, kind in (('scale-ours', 'ours'), ('scale-in-tree', 'in-tree')):
        runs = found[name]['data']
        assert {(r['kind'], r['mode']) for r in runs} == {
            (kind, 'sequential'), (kind, 'concurrent')}, runs
        for r in runs:
            assert not r['failed'], r
            assert sorted(r['times']) == ['create', 'delete',
                                          'update one member'], r


def assert_external_case(case, ours_ended):
    """Every stack of both types COMPLETE, its figures read.

    ours_ended: how ours' stacks may have ended.
    """
    by_kind = {}
    for s in case['samples']:
        by_kind.setdefault(s['kind'], []).append(s)
        assert s['status'] == 'COMPLETE', s
        assert s['mistral_state'] == 'SUCCESS' and s['latency'] is not None
        assert s['calls'] >= 2 and s['fetches'] >= 1, s  # start, a read
    assert sorted(by_kind) == ['in-tree', 'ours'], case
    assert len(by_kind['ours']) == len(by_kind['in-tree']) == (
        case['stacks'] * (case['rounds'] if case['layout'] == 'rounds'
                          else 1)), case
    assert {s['how'] for s in by_kind['ours']} <= set(ours_ended), case
    assert {s['how'] for s in by_kind['in-tree']} == {None}, case


def test_external_parts_on_the_loopback_cloud(tmp_path):
    from heat_lifecycle_fixtures.cloud import Cloud
    if not Cloud.available():
        pytest.skip('the loopback cloud needs mariadb-server and '
                    'rabbitmq-server (tools/install-system-deps.sh)')
    results = tmp_path / 'results'
    run_sh('--part', *EXTERNAL_PARTS, '--smallest', '--busy',
           '--results-dir', str(results), '--workdir', str(tmp_path / 'w'))
    found = read_results(results)
    assert sorted(found) == sorted(EXTERNAL_PARTS), found
    for result in found.values():
        assert_stamped(result)
    short = found['external-short']['data']['cases']
    assert sorted(short) == ['batch', 'lost', 'short'], short
    for name in ('short', 'batch'):
        assert_external_case(short[name], ('told', 'fallback'))
    # heat-api-cfn was down as the workflow ended: ours' notice was lost.
    assert_external_case(short['lost'], ('fallback',))
    assert_external_case(found['external-600']['data']['cases']['long'],
                         ('told', 'fallback'))
    window = short['short']['windows'][0]
    assert window['kinds'] in (['ours'], ['in-tree']), window
    out = run_sh('--report', '--results-dir', str(results),
                 '--readme', str(tmp_path / 'README.rst'))
    report = (results / 'results.md').read_text()
    for name in EXTERNAL_PARTS:
        assert '## ExternalResource (%s)' % name in report, out + report
    assert 'ExternalResource told, 2 s workflows' in report, report
    assert 'notification lost: COMPLETE within one fallback period' in \
        report, report
