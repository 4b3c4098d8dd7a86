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
"""The complete run's plan with --roots, and the table's Python column."""

from tools import matrix
from tools import matrix_report
from tools import matrix_roots

ALL = ['2025.1', '2025.2', '2026.1', '2026.2']
E2E = ['2025.1', '2026.2']


def plan(*argv):
    args = matrix.parse_args(list(argv), ALL)
    return {(j.series, j.tier, j.suite): j
            for j in matrix.planned_jobs(args, E2E, '2026.2')}


def test_roots_move_tiers_and_add_a_dist_job_per_root():
    jobs = plan('--roots')
    assert ('2025.1', 'unit', 'bullseye') in jobs
    assert ('2025.1', 'functional', 'bullseye') in jobs
    assert ('2026.1', 'functional', 'trixie') in jobs
    assert ('2026.2', 'unit', 'forky') in jobs
    # Moved, not added: no machine run of those.
    assert ('2025.1', 'unit', None) not in jobs
    assert ('2026.1', 'unit', None) not in jobs
    # e2e, fault, fuzz and the full dist tier stay on the machine.
    for tier in ('e2e', 'fault'):
        assert ('2025.1', tier, None) in jobs
        assert ('2026.2', tier, None) in jobs
    assert ('2025.2', 'unit', None) in jobs
    assert ('2026.2', 'dist', None) in jobs
    for suite, series in (('bullseye', '2025.1'), ('trixie', '2026.1'),
                          ('forky', '2026.2')):
        dist = jobs[(series, 'dist', suite)]
        assert dist.name == '%s-dist@%s' % (series, suite)
        assert dist.paths == matrix_roots.DIST_PATHS


def test_without_roots_everything_is_on_the_machine(monkeypatch):
    assert {suite for (_, _, suite) in plan('--no-roots')} == {None}
    monkeypatch.setenv('HLP_ROOTS', '0')
    assert {suite for (_, _, suite) in plan()} == {None}


def test_roots_are_the_default(monkeypatch):
    monkeypatch.delenv('HLP_ROOTS', raising=False)
    assert set(plan()) == set(plan('--roots'))


def test_the_e2e_series_venvs_are_built_first():
    jobs = list(plan('--roots').values())
    order = matrix.build_order(jobs, E2E)
    assert set(order[:2]) == {(None, '2025.1'), (None, '2026.2')}
    assert (None, '2026.1') not in order  # 2026.1 runs in trixie only
    assert ('trixie', '2026.1') in order


def write(results, name, text):
    (results / name).write_text(text)


def junit(passed):
    return ('<testsuite tests="%d" failures="0" errors="0" skipped="0" '
            'time="12"></testsuite>' % passed)


def test_table_names_each_python_and_the_root_dist_results(tmp_path):
    for name, python, passed in (('2025.1-unit', '3.9.2', 580),
                                 ('2025.1-e2e', '3.11.2', 36),
                                 ('2026.2-dist', '3.11.2', 17),
                                 ('2026.2-dist@forky', '3.14.8', 3)):
        write(tmp_path, name + '.log', '')
        write(tmp_path, name + '.xml', junit(passed))
        write(tmp_path, name + '.python', python + '\n')
    text = matrix_report.table(str(tmp_path), ALL,
                               ['unit', 'e2e', 'dist'], [])
    rows = {line.split()[0]: line for line in text.splitlines()
            if line[:4] in ('2025', '2026')}
    assert 'Python' in text
    assert '3.9.2: unit; 3.11.2: e2e' in rows['2025.1']
    assert '3.11.2: dist; 3.14.8: dist' in rows['2026.2']
    assert '17 passed (12 s); 3.14.8: 3 passed (12 s)' in rows['2026.2']


def test_a_failed_job_is_reported_with_its_log(tmp_path, capsys):
    lint = matrix.Job(None, 'lint')
    unit = matrix.Job('2025.1', 'unit', suite='bullseye')
    assert (unit.rc, unit.note, unit.seconds) == (None, '', None)
    lint.rc, unit.rc = 1, 1
    args = matrix.parse_args(['--results', str(tmp_path)], ALL)
    assert matrix.report_failures(args, [lint, unit], [])
    out = capsys.readouterr().out
    assert 'FAILED: lint\n' in out
    assert 'FAILED: Heat 2025.1 unit (bullseye root)' in out


def test_a_failed_test_is_named_with_why(tmp_path):
    xml = tmp_path / 'j.xml'
    xml.write_text(
        '<testsuites><testsuite name="pytest">'
        '<testcase classname="tests.a" name="test_ok"/>'
        '<testcase classname="tests.a" name="test_bad">'
        '<failure message="AssertionError: {&#39;failed&#39;: 1}\n  more">'
        'trace</failure></testcase>'
        '<testcase classname="tests.b" name="test_err">'
        '<error>setup went\nwrong</error></testcase>'
        '</testsuite></testsuites>')
    assert matrix_report.failed_tests(str(xml)) == [
        "tests.a::test_bad\n        AssertionError: {'failed': 1} more",
        'tests.b::test_err\n        setup went wrong']
