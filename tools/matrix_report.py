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
"""The tables of a matrix run: support (series x tier) and reliability.

Read from a results directory of tools/matrix.py: the JUnit XML and logs
of each job, the versions of each series, and the rows the fault tier's
cases wrote. Standard library only.
"""

import ast
import json
import os
import re
import time
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, 'README.rst')
TABLE_START = '.. support-table-start'
TABLE_END = '.. support-table-end'
RELIABILITY_START = '.. reliability-table-start'
RELIABILITY_END = '.. reliability-table-end'


def junit_counts(path):
    """{tests, failures, errors, skipped, time} of a JUnit XML file."""
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == 'testsuite' else root.findall('testsuite')
    total = dict.fromkeys(('tests', 'failures', 'errors', 'skipped'), 0)
    seconds = 0.0
    for suite in suites:
        for key in total:
            total[key] += int(suite.get(key, 0))
        seconds += float(suite.get('time', 0))
    total['time'] = seconds
    return total


def failed_tests(path, limit=10, said=600):
    """A line per failed test: its name, then why (`said` characters).

    Why: the failure's message, so that CI's output alone tells it.
    """
    root = ET.parse(path).getroot()
    names = []
    for case in root.iter('testcase'):
        bad = case.find('failure')
        bad = case.find('error') if bad is None else bad
        if bad is None:
            continue
        why = ' '.join((bad.get('message') or bad.text or '').split())
        names.append('%s::%s%s' % (
            case.get('classname'), case.get('name'),
            '\n        ' + why[:said] if why else ''))
    return names[:limit]


def cell(results, series, tier):
    """The job's result, then the same tier's in roots.

    Those are the jobs <series>-<tier>@<suite>, each after its Python.
    """
    text = job_cell(results, '%s-%s' % (series, tier))
    for name in extra_jobs(results, series, tier):
        text = ('' if text == 'not run' else text + '; ') + '%s: %s' % (
            job_python(results, name) or name.split('@')[1],
            job_cell(results, name))
    return text


def extra_jobs(results, series, tier):
    prefix = '%s-%s@' % (series, tier)
    return sorted(f[:-4] for f in os.listdir(results)
                  if f.startswith(prefix) and f.endswith('.log'))


def _text_of(path):
    """The file's text, stripped; '' when there is none."""
    if not os.path.exists(path):
        return ''
    with open(path) as f:
        return f.read().strip()


def job_python(results, name):
    return _text_of(os.path.join(results, '%s.python' % name))


def pythons(results, series, tiers):
    """Each Python the series ran on, with its tiers: '3.9.2: unit'."""
    by_python = {}
    for tier in tiers:
        for name in ['%s-%s' % (series, tier)] + extra_jobs(
                results, series, tier):
            version = job_python(results, name)
            if version and tier not in by_python.setdefault(version, []):
                by_python[version].append(tier)
    return '; '.join('%s: %s' % (v, ', '.join(t)) for v, t in sorted(
        by_python.items(), key=lambda i: tuple(map(int, i[0].split('.')))))


def job_cell(results, name):
    xml = os.path.join(results, '%s.xml' % name)
    log = os.path.join(results, '%s.log' % name)
    if not os.path.exists(log):
        return 'not run'
    if not os.path.exists(xml):
        return 'FAILED (no report)'
    c = junit_counts(xml)
    bad = c['failures'] + c['errors']
    passed = c['tests'] - bad - c['skipped']
    text = '%d passed' % passed if not bad else 'FAILED %d of %d' % (
        bad, c['tests'])
    if c['skipped']:
        text += ', %d skipped' % c['skipped']
    return '%s (%.0f s)' % (text, c['time'])


def once_cell(results, tier):
    """A tier run once: passed, or how many findings its log names."""
    log = os.path.join(results, '%s.log' % tier)
    rc_file = os.path.join(results, '%s.rc' % tier)
    if not os.path.exists(log):
        return 'not run'
    if not os.path.exists(rc_file):
        return 'FAILED (no result)'
    with open(rc_file) as f:
        rc, seconds = f.read().split()
    if rc == '0':
        return 'passed (%.0f s)' % float(seconds)
    with open(log) as f:
        findings = sum(1 for line in f if FINDING.search(line))
    return 'FAILED, %d finding(s) (%.0f s)' % (findings, float(seconds))


# A flake8 finding (path:line:column: code text) or a Sphinx warning or
# error (path:line: WARNING: text).
FINDING = re.compile(r'^\S+:\d+:\d+: [A-Z]+\d+|: (?:WARNING|ERROR): ')


def versions(results, series):
    return _text_of(os.path.join(results, '%s-versions.txt' % series))


def table(results, all_series, tiers, once_tiers):
    """The support table: a cell per series and tier.

    Then the tiers run once (once_tiers).
    """
    once = [t for t in tiers if t in once_tiers]
    tiers = [t for t in tiers if t not in once]
    header = ['Heat series', 'versions', 'Python'] + list(tiers)
    rows = [[s, versions(results, s), pythons(results, s, tiers)]
            + [cell(results, s, t) for t in tiers] for s in all_series]
    widths = [max(len(r[i]) for r in [header] + rows)
              for i in range(len(header))]
    line = ' '.join('=' * w for w in widths)
    fmt = ' '.join('%%-%ds' % w for w in widths)
    out = [line, fmt % tuple(header), line]
    out += [(fmt % tuple(r)).rstrip() for r in rows]
    out.append(line)
    out += ['', 'Run once: %s.' % '; '.join(
        '%s %s' % (t, once_cell(results, t)) for t in once)] if once else []
    stamp = 'From the run of %s, %d cores; written by tools/matrix.py.' % (
        time.strftime('%Y-%m-%d', time.gmtime(os.path.getmtime(results))),
        os.cpu_count())
    return '\n'.join([stamp, ''] + out) + '\n'


def fault_rows_file(results, series):
    return os.path.join(results, '%s-fault-rows.jsonl' % series)


def fault_rows(results, series):
    """The rows the fault tier's cases wrote on `series`, as written."""
    path = fault_rows_file(results, series)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def case_order(case):
    """Cases in number order (10 after 9), then any other names."""
    text = str(case)
    return (0, int(text), '') if text.isdigit() else (1, 0, text)


def recovered_by(row):
    if not row['passed']:
        return '-'
    seconds = '' if row['seconds'] is None else ' (%.0f s)' % row['seconds']
    return '%s%s' % ((row['recovery'] or '-').split(':')[0], seconds)


def declared_cases(directory):
    """(case, fault) of every @case(N, 'fault') test in `directory`."""
    found = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith('.py'):
            continue
        with open(os.path.join(directory, name)) as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            for deco in getattr(node, 'decorator_list', ()):
                args = getattr(deco, 'args', ())
                if (getattr(getattr(deco, 'func', None), 'id', None) ==
                        'case' and len(args) == 2 and
                        all(isinstance(a, ast.Constant) for a in args)):
                    found.append((args[0].value, args[1].value))
    return found


def not_run_rows(results, expected):
    """A "not run" row for each expected (case, fault) that wrote none.

    expected: {series: [(case, fault)]}.
    """
    rows = []
    for series, cases in sorted(expected.items()):
        written = {(str(r['case']), r['fault'])
                   for r in fault_rows(results, series)}
        rows += [[str(c), fault, series, '-', 'not run']
                 for c, fault in cases if (str(c), fault) not in written]
    return rows


def reliability_table(results, all_series, expected=None):
    """Fault x outcome x time to recover, from the fault tier's rows.

    expected: {series: [(case, fault)]} the tier was to run; a case that
    wrote no row there shows as "not run".
    """
    header = ['case', 'fault', 'Heat series', 'recovered by (time after '
              'the fault ended)', 'outcome']
    rows = [[str(r['case']), r['fault'], s, recovered_by(r), r['outcome']]
            for s in all_series for r in fault_rows(results, s)]
    rows += not_run_rows(results, expected or {})
    rows.sort(key=lambda r: (case_order(r[0]), r[1], r[2]))
    if not rows:
        return ('No fault tier results '
                '(python3 -m tools.matrix --tiers fault).\n')
    widths = [max(len(r[i]) for r in [header] + rows)
              for i in range(len(header) - 1)] + [len(header[-1])]
    line = ' '.join('=' * w for w in widths)
    fmt = ' '.join('%%-%ds' % w for w in widths)
    out = [line, fmt % tuple(header), line]
    out += [(fmt % tuple(r)).rstrip() for r in rows]
    out.append(line)
    stamp = ('From the fault tier\'s run of %s, %d cores; written by '
             'tools/matrix.py.' % (time.strftime('%Y-%m-%d', time.gmtime(
                 os.path.getmtime(results))), os.cpu_count()))
    return '\n'.join([stamp, ''] + out) + '\n'


def update_readme(text, start_marker=TABLE_START, end_marker=TABLE_END):
    with open(README) as f:
        readme = f.read()
    start = readme.index(start_marker) + len(start_marker)
    end = readme.index(end_marker)
    readme = readme[:start] + '\n\n' + text + '\n' + readme[end:]
    with open(README, 'w') as f:
        f.write(readme)
