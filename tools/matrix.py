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
"""Run the test tiers on every supported Heat series, a few jobs at a time.

    python3 tools/matrix.py [--jobs N] [--series S,...] [--tiers T,...]
                            [--results DIR] [--readme]
    python3 tools/matrix.py --table-only [--results DIR] [--readme]

Each series' venv is built once (tools/venv.sh) and then serves every tier
run on it; the lint tier runs once, in its own venv (tools/lint.sh), while
the series' venvs are built; the docs tier runs once, in the default
series' venv (tools/docs.sh), when that venv is ready. Jobs that share
nothing (their own ports, databases and pytest temp dirs) run in parallel.
Each job writes DIR/<series>-<tier>.log and a JUnit XML file (a tier run
once: DIR/<tier>.log and DIR/<tier>.rc); the summary table is printed,
written to DIR/support-table.rst and, with --readme, into README.rst
between the support-table markers. The fault tier's cases write their rows
(fault, outcome, time to recover) to DIR/<series>-fault-rows.jsonl; they
make the reliability table, written to DIR/reliability-table.rst and, with
--readme, between README's reliability-table markers. Exit status 1 if
any job failed; the failures name their series (if any) and tier.

Standard library only: it runs with the machine's python3 before any venv
exists.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_RESULTS = os.path.join(ROOT, '.test-results')
README = os.path.join(ROOT, 'README.rst')
TABLE_START = '.. support-table-start'
TABLE_END = '.. support-table-end'
RELIABILITY_START = '.. reliability-table-start'
RELIABILITY_END = '.. reliability-table-end'

# A tier runs pytest on its test paths in a series' venv, on every series
# ('all'), on the e2e series ('e2e') or on the newest ('newest'); or it
# runs its command once, in no series' venv ('once') or in the default
# series' venv ('default', given to the command as HLP_VENV).
# A tier marked `wheel` runs in a copy of the repo without
# heat_lifecycle_plugins/, so that it tests the wheel installed in the venv
# (tools/venv.sh), as an operator has it; the others run in the tree.
Tier = collections.namedtuple('Tier', 'paths series command wheel')
ONCE, DEFAULT = 'once', 'default'
TIERS = {
    'unit': Tier(['tests/unit', 'tests/agent'], 'all', None, False),
    'functional': Tier(['tests/functional'], 'all', None, True),
    'e2e': Tier(['tests/e2e'], 'e2e', None, True),
    'fault': Tier(['tests/fault'], 'e2e', None, True),
    'dist': Tier(['tests/dist'], 'newest', None, True),
    'lint': Tier(None, ONCE, ['bash', 'tools/lint.sh'], False),
    'docs': Tier(None, DEFAULT, ['bash', 'tools/docs.sh'], False),
}
# A job's wall-clock limit; a job over it is killed and counts as failed.
# Heat 24.x (eventlet) functional takes about 12 min on a quiet 2-core
# machine and over 27 min when the machine is shared (measured 1611 s).
JOB_TIMEOUT = {'unit': 600, 'functional': 2700, 'e2e': 1800, 'fault': 1200,
               'dist': 1500, 'lint': 600, 'docs': 600}
# Longest first, so that two lanes finish close together.
TIER_ORDER = ('e2e', 'functional', 'fault', 'dist', 'unit', 'docs', 'lint')


def series_settings():
    """(all series, e2e series, default) from tools/series.sh."""
    out = subprocess.run(
        ['bash', '-c', '. tools/series.sh; echo "$HLP_SERIES_ALL"; '
                       'echo "$HLP_SERIES_E2E"; echo "$HLP_SERIES_DEFAULT"'],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout
    all_series, e2e, default = out.splitlines()
    return all_series.split(), e2e.split(), default


class Job(object):
    def __init__(self, series, tier, venv_series=None):
        self.series = series  # None for a tier run once
        self.tier = tier
        # Whose venv the job runs in (None: none).
        self.venv_series = series or venv_series
        self.paths = TIERS[tier].paths
        self.name = '%s-%s' % (series, tier) if series else tier
        self.where = 'Heat %s %s' % (series, tier) if series else tier
        self.rc = None
        self.seconds = None
        self.note = ''


def build_venv(series, results, lock):
    """Build (or reuse) the series' venv; its path, or None on failure."""
    log = os.path.join(results, '%s-venv.log' % series)
    with open(log, 'w') as f:
        proc = subprocess.run(['bash', 'tools/venv.sh', series], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=f, text=True)
    with lock:
        print('[%6.0fs] Heat %s venv %s' % (
            time.time() - START, series,
            'ready' if proc.returncode == 0 else 'FAILED (see %s)' % log),
            flush=True)
    if proc.returncode != 0:
        return None
    return proc.stdout.strip().splitlines()[-1]


def run_job(job, venv, results, lock, extra_args):
    """Run a pytest tier in `venv`, or a tier's command (with HLP_VENV)."""
    base = tempfile.mkdtemp(prefix='hlp-%s-' % job.name)
    xml = os.path.join(results, '%s.xml' % job.name)
    log = os.path.join(results, '%s.log' % job.name)
    env = dict(os.environ, TMPDIR=base)
    command = TIERS[job.tier].command
    cwd = ROOT
    if TIERS[job.tier].wheel:
        cwd = stage_without_package(os.path.join(base, 'src'))
        env['HLP_INSTALLED_WHEEL'] = WHEEL
        env['HLP_SOURCE_ROOT'] = ROOT  # the checkout, for its git
    if command:
        argv = command
        if venv:
            env['HLP_VENV'] = venv
    else:
        env['HLP_VENV'] = venv
        argv = [os.path.join(venv, 'bin', 'python'), '-m', 'pytest',
                '-p', 'no:cacheprovider', '-q', '-rfE',
                '--basetemp', os.path.join(base, 'pytest'),
                '--junitxml', xml] + extra_args + job.paths
        env['HLP_SERIES'] = job.series
        env['HLP_FAULT_ROWS'] = fault_rows_file(results, job.series)
    start = time.time()
    with open(log, 'w') as f:
        proc = subprocess.Popen(argv, cwd=cwd, stdout=f,
                                stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
        try:
            job.rc = proc.wait(JOB_TIMEOUT[job.tier])
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()
            job.rc = -9
            job.note = 'killed after %ss' % JOB_TIMEOUT[job.tier]
    job.seconds = time.time() - start
    shutil.rmtree(base, ignore_errors=True)
    if command:
        with open(os.path.join(results, '%s.rc' % job.name), 'w') as f:
            f.write('%d %.1f\n' % (job.rc, job.seconds))
    with lock:
        print('[%6.0fs] %-22s %s in %.0fs' % (
            time.time() - START, job.where,
            'passed' if job.rc == 0 else 'FAILED (rc %s%s, see %s)' % (
                job.rc, ', ' + job.note if job.note else '', log),
            job.seconds), flush=True)


def stage_without_package(dest):
    """A copy of the repo's files without heat_lifecycle_plugins/.

    Tests, fixtures, examples and tools are there; our package is not, so
    it is imported from the venv's installed wheel, and whatever the wheel
    lacks fails the tests that need it.
    """
    files = subprocess.run(
        ['git', 'ls-files', '-co', '--exclude-standard', '-z'], cwd=ROOT,
        capture_output=True, check=True).stdout.decode().split('\0')
    for path in files:
        if not path or path.startswith('heat_lifecycle_plugins/'):
            continue
        source = os.path.join(ROOT, path)
        if not os.path.isfile(source):
            continue  # deleted in the work tree
        target = os.path.join(dest, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(source, target)
    return dest


def build_dist(results):
    """The sdist and the wheel (tools/build-dist.sh): the wheel's path."""
    log = os.path.join(results, 'dist-build.log')
    with open(log, 'w') as f:
        proc = subprocess.run(['bash', 'tools/build-dist.sh'], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=f, text=True)
    print('[%6.0fs] sdist and wheel %s' % (
        time.time() - START, 'built and checked' if proc.returncode == 0
        else 'FAILED (see %s)' % log), flush=True)
    if proc.returncode != 0:
        return None
    return proc.stdout.strip().splitlines()[-1]


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


def failed_tests(path, limit=10):
    root = ET.parse(path).getroot()
    names = []
    for case in root.iter('testcase'):
        if case.find('failure') is not None or case.find('error') is not None:
            names.append('%s::%s' % (case.get('classname'), case.get('name')))
    return names[:limit]


def cell(results, series, tier):
    xml = os.path.join(results, '%s-%s.xml' % (series, tier))
    log = os.path.join(results, '%s-%s.log' % (series, tier))
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
    path = os.path.join(results, '%s-versions.txt' % series)
    if not os.path.exists(path):
        return ''
    with open(path) as f:
        return f.read().strip()


def table(results, all_series, tiers):
    once = [t for t in tiers if TIERS[t].command]
    tiers = [t for t in tiers if t not in once]
    header = ['Heat series', 'versions'] + list(tiers)
    rows = [[s, versions(results, s)] + [cell(results, s, t) for t in tiers]
            for s in all_series]
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
    """The rows the fault tier's cases wrote on `series`, in case order."""
    path = fault_rows_file(results, series)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return sorted(rows, key=lambda r: (str(r['case']), r['test']))


def recovered_by(row):
    if not row['passed']:
        return '-'
    seconds = '' if row['seconds'] is None else ' (%.0f s)' % row['seconds']
    return '%s%s' % ((row['recovery'] or '-').split(':')[0], seconds)


def reliability_table(results, all_series):
    """Fault x outcome x time to recover, from the fault tier's rows."""
    header = ['case', 'fault', 'Heat series', 'recovered by (time after '
              'the fault ended)', 'outcome']
    rows = [[str(r['case']), r['fault'], s, recovered_by(r), r['outcome']]
            for s in all_series for r in fault_rows(results, s)]
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    if not rows:
        return 'No fault tier results (tools/matrix.py --tiers fault).\n'
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


def write_versions(results, series, venv):
    out = subprocess.run(
        [os.path.join(venv, 'bin', 'python'), '-c',
         'import importlib.metadata as m; print(", ".join("%s %s" % '
         '(n, m.version(n)) for n in ("openstack-heat", "mistral", '
         '"keystone")))'], capture_output=True, text=True)
    with open(os.path.join(results, '%s-versions.txt' % series), 'w') as f:
        f.write(out.stdout.strip().replace('openstack-heat', 'heat'))


def update_readme(text, start_marker=TABLE_START, end_marker=TABLE_END):
    with open(README) as f:
        readme = f.read()
    start = readme.index(start_marker) + len(start_marker)
    end = readme.index(end_marker)
    readme = readme[:start] + '\n\n' + text + '\n' + readme[end:]
    with open(README, 'w') as f:
        f.write(readme)


START = time.time()
WHEEL = None  # the wheel under test, once built


def main(argv=None):
    all_series, e2e_series, default = series_settings()
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--jobs', type=int,
                        default=int(os.environ.get('HLP_JOBS', 2)))
    parser.add_argument('--series', default=','.join(all_series))
    parser.add_argument('--tiers', default=','.join(TIERS))
    parser.add_argument('--results', default=DEFAULT_RESULTS)
    parser.add_argument('--readme', action='store_true',
                        help='write the table into README.rst')
    parser.add_argument('--table-only', action='store_true',
                        help='print the table of an earlier run')
    parser.add_argument('pytest_args', nargs='*')
    args = parser.parse_args(argv)
    series = [s for s in args.series.split(',') if s]
    tiers = [t for t in args.tiers.split(',') if t]
    for s in series:
        if s not in all_series:
            parser.error('unknown Heat series %r (supported: %s)'
                         % (s, ', '.join(all_series)))
    for t in tiers:
        if t not in TIERS:
            parser.error('unknown tier %r (tiers: %s)'
                         % (t, ', '.join(TIERS)))
    if args.table_only:
        if not os.path.isdir(args.results):
            parser.error('no results in %s: run the tests first '
                         '(bash tools/run-tests.sh)' % args.results)
        text = table(args.results, all_series, list(TIERS))
        faults = reliability_table(args.results, all_series)
        print(text + '\n' + faults)
        if args.readme:
            update_readme(text)
            update_readme(faults, RELIABILITY_START, RELIABILITY_END)
        return 0

    shutil.rmtree(args.results, ignore_errors=True)
    os.makedirs(args.results)
    lock = threading.Lock()
    jobs = [Job(s, t) for t in TIER_ORDER if t in tiers for s in series
            if TIERS[t].series == 'all'
            or TIERS[t].series == 'e2e' and s in e2e_series
            or TIERS[t].series == 'newest' and s == default]
    jobs += [Job(None, t, default if TIERS[t].series == DEFAULT else None)
             for t in TIER_ORDER
             if t in tiers and TIERS[t].series in (ONCE, DEFAULT)]
    print('Heat series %s; %d jobs, %d at a time' % (
        ', '.join(series), len(jobs), args.jobs), flush=True)

    # The wheel first: every series' venv installs it.
    global WHEEL
    WHEEL = build_dist(args.results)
    if WHEEL is None:
        print('FAILED: the sdist and wheel could not be built')
        return 1
    # Venvs are built one after the other (pip is the bottleneck); each
    # series' jobs start as soon as its venv is ready.
    pool = concurrent.futures.ThreadPoolExecutor(args.jobs)
    running = [pool.submit(run_job, job, None, args.results, lock, [])
               for job in jobs if job.venv_series is None]
    venv_failed = []
    for s in series + [default] * (default not in series):
        if not any(job.venv_series == s for job in jobs):
            continue  # no tier of this run needs its venv
        venv = build_venv(s, args.results, lock)
        if venv is None:
            venv_failed.append(s)
            continue
        write_versions(args.results, s, venv)
        for job in jobs:
            if job.venv_series == s:
                running.append(pool.submit(
                    run_job, job, venv, args.results, lock,
                    [] if TIERS[job.tier].command else args.pytest_args))
    for future in running:
        future.result()
    pool.shutdown()

    text = table(args.results, all_series, list(TIERS))
    with open(os.path.join(args.results, 'support-table.rst'), 'w') as f:
        f.write(text)
    faults = reliability_table(args.results, all_series)
    with open(os.path.join(args.results, 'reliability-table.rst'), 'w') as f:
        f.write(faults)
    print('\n' + text + '\n' + faults)
    if args.readme:
        update_readme(text)
        update_readme(faults, RELIABILITY_START, RELIABILITY_END)
    failed = [j for j in jobs if j.rc not in (0, None)]
    for j in jobs:
        if j.venv_series in venv_failed:
            print('FAILED: Heat %s %s: its venv could not be built'
                  % (j.venv_series, j.tier))
    for j in failed:
        xml = os.path.join(args.results, '%s.xml' % j.name)
        names = failed_tests(xml) if os.path.exists(xml) else []
        if j.series is None:
            names = ['see %s' % os.path.join(args.results, '%s.log' % j.name)]
        print('FAILED: %s%s%s' % (
            j.where, ' (%s)' % j.note if j.note else '',
            ''.join('\n    %s' % n for n in names)))
    print('total %.0f s' % (time.time() - START))
    return 1 if failed or venv_failed else 0


if __name__ == '__main__':
    sys.exit(main())
