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
"""The benchmark's parts that need RabbitMQ keep working.

engines (two heat-engine processes), scale, and the external parts on the
loopback cloud (Keystone, Mistral, heat-api-cfn), each at its smallest
size (benchmarks/run.sh --smallest --busy), in a subprocess that starts
and stops its own services. A tier of its own (bench), not in
tests/functional: it needs RabbitMQ, which the e2e hosts have and the
Debian roots that run functional do not; and not in tests/e2e, so that
it runs beside that tier's job instead of lengthening it. On the
newest series only: it took 602 s on 2025.1 in a complete run (279 s
engines and scale, 311 s external), and the benchmark's own runs
measure 2025.1 (eventlet). No timing is asserted.
"""

from benchmarks.merge import markers
from benchmarks.part_run import series_of_heat
from benchmarks import parts
from tests.benchmark_runs import read_results
from tests.benchmark_runs import run_sh
from tests.benchmark_runs import run_smallest


def test_engines_and_scale_parts_check_what_they_claim(tmp_path):
    results = tmp_path / 'results'
    names = ('engines',) + parts.SCALE_PARTS
    run_sh('--part', *names, '--smallest', '--busy',
           '--results-dir', str(results))
    found = read_results(results)
    engines = found['engines']['data']
    assert not engines.get('failed'), engines
    assert engines['problems'] == {'ours': [], 'in-tree': []}, engines
    assert engines['failures'] == {}, engines
    assert engines['lock_errors'] == {'ours': [], 'in-tree': []}, engines
    assert engines['restarts'] == [], engines
    for kind in ('ours', 'in-tree'):
        assert all(len(v) == 1 for v in engines['samples'][kind].values())
    runs = [r for name in parts.SCALE_PARTS for r in found[name]['data']]
    assert sorted((r['kind'], r['mode']) for r in runs) == [
        ('in-tree', 'concurrent'), ('in-tree', 'sequential'),
        ('ours', 'concurrent'), ('ours', 'sequential')], runs
    for name, mode in (('scale-ours-sequential', 'sequential'),
                       ('scale-ours-concurrent', 'concurrent')):
        assert [r['mode'] for r in found[name]['data']] == [mode]
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
    for s in by_kind['ours']:
        if s['how'] == 'told':  # its webhook seen reaching heat-api-cfn
            assert s['success'] - 0.005 <= s['arrived'] <= s['signalled'], s
    assert {s['how'] for s in by_kind['in-tree']} == {None}, case


def test_external_parts_on_the_loopback_cloud(tmp_path):
    found = run_smallest(tmp_path, parts.EXTERNAL_PARTS)
    results = tmp_path / 'results'
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
    readme = tmp_path / 'README.rst'
    # The series --report writes the headline of.
    readme.write_text('%s\n%s\n' % markers(series_of_heat()))
    out = run_sh('--report', '--results-dir', str(results),
                 '--readme', str(readme))
    # README's headline: a row per workflow length, with its calls.
    lines = readme.read_text().splitlines()
    for label in ('2 s ', '2 at once, 3 s ', 'notice lost, 6 s ', '4 s '):
        assert any(line.startswith(label) for line in lines), lines
    report = (results / 'results.md').read_text()
    for name in parts.EXTERNAL_PARTS:
        assert '## ExternalResource (%s)' % name in report, out + report
    assert 'ExternalResource told, 2 s workflows' in report, report
    assert 'notification lost: COMPLETE within one fallback period' in \
        report, report
