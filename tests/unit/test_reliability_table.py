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
"""tools/matrix.py's reliability table, from the fault tier's rows."""

import importlib.util
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def load_matrix():
    spec = importlib.util.spec_from_file_location(
        'matrix', os.path.join(ROOT, 'tools', 'matrix_report.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def row(case, passed, outcome, recovery=None, seconds=None):
    return {'case': case, 'fault': 'fault %s' % case, 'passed': passed,
            'outcome': outcome, 'recovery': recovery, 'down': 1.0,
            'seconds': seconds, 'test': 'test_%s' % case}


def test_every_row_says_what_happened_and_how_long_recovery_took(tmp_path):
    matrix = load_matrix()
    rows = {'2026.2': [row(4, True, 'CREATE_COMPLETE; tool ran once',
                           'none: the next pass', 8.3),
                       row(1, False, 'FAILED: StackFailed: a reason')],
            '2025.1': [row(1, True, 'left CREATE_IN_PROGRESS',
                           'stack update --existing', 41.6)]}
    for series, found in rows.items():
        with open(matrix.fault_rows_file(str(tmp_path), series), 'w') as f:
            f.writelines(json.dumps(r) + '\n' for r in found)
    lines = matrix.reliability_table(
        str(tmp_path), ['2025.1', '2026.2']).splitlines()
    body = [line.split() for line in lines[5:-1]]
    assert [b[:4] for b in body] == [
        ['1', 'fault', '1', '2025.1'], ['1', 'fault', '1', '2026.2'],
        ['4', 'fault', '4', '2026.2']]
    assert ' stack update --existing (42 s) ' in lines[5]
    assert lines[5].endswith(' left CREATE_IN_PROGRESS')
    assert lines[6].split(None, 5)[4:] == [
        '-', 'FAILED: StackFailed: a reason']
    assert ' none (8 s) ' in lines[7]


def test_no_rows_say_so(tmp_path):
    text = load_matrix().reliability_table(str(tmp_path), ['2026.2'])
    assert text.startswith('No fault tier results')


def test_cases_are_in_number_order(tmp_path):
    matrix = load_matrix()
    with open(matrix.fault_rows_file(str(tmp_path), '2026.2'), 'w') as f:
        f.writelines(json.dumps(row(case, True, 'ok', 'none', 1.0)) + '\n'
                     for case in (10, 2, 9))
    lines = matrix.reliability_table(str(tmp_path), ['2026.2']).splitlines()
    assert [line.split()[0] for line in lines[5:-1]] == ['2', '9', '10']


def test_a_case_that_wrote_no_row_shows_as_not_run(tmp_path):
    matrix = load_matrix()
    with open(matrix.fault_rows_file(str(tmp_path), '2026.2'), 'w') as f:
        f.write(json.dumps(row(1, True, 'ok', 'none', 1.0)) + '\n')
    expected = {'2026.2': [(1, 'fault 1'), (11, 'fault 11')],
                '2025.1': [(1, 'fault 1')]}
    lines = matrix.reliability_table(str(tmp_path), ['2025.1', '2026.2'],
                                     expected).splitlines()
    body = [line.split() for line in lines[5:-1]]
    assert [b[:4] + b[-2:] for b in body] == [
        ['1', 'fault', '1', '2025.1', 'not', 'run'],
        ['1', 'fault', '1', '2026.2', 's)', 'ok'],
        ['11', 'fault', '11', '2026.2', 'not', 'run']]


def test_every_case_of_the_fault_tier_is_declared():
    cases = load_matrix().declared_cases(os.path.join(ROOT, 'tests',
                                                      'fault'))
    numbers = sorted(set(c for c, _fault in cases))
    assert numbers == list(range(1, 13)), numbers
    assert all(isinstance(fault, str) and fault for _c, fault in cases)
