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

    python3 -m tools.matrix [--jobs N] [--series S,...] [--tiers T,...]
                            [--results DIR] [--readme]
    python3 -m tools.matrix --table-only [--results DIR] [--readme]

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
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from tools import matrix_report

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_RESULTS = os.path.join(ROOT, '.test-results')

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
    'fuzz': Tier(['tests/fuzz'], 'newest', None, True),
    'lint': Tier(None, ONCE, ['bash', 'tools/lint.sh'], False),
    'docs': Tier(None, DEFAULT, ['bash', 'tools/docs.sh'], False),
}
# A job's wall-clock limit; a job over it is killed and counts as failed.
# Heat 24.x (eventlet) functional takes about 12 min on a quiet 2-core
# machine and over 27 min when the machine is shared (measured 1611 s).
JOB_TIMEOUT = {'unit': 600, 'functional': 2700, 'e2e': 1800, 'fault': 2100,
               'dist': 1500, 'fuzz': 900, 'lint': 600, 'docs': 600}
# Longest first, so that two lanes finish close together.
TIER_ORDER = ('e2e', 'functional', 'fault', 'dist', 'fuzz', 'unit', 'docs',
              'lint')


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
        env['HLP_FAULT_ROWS'] = matrix_report.fault_rows_file(results,
                                                              job.series)
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


def write_versions(results, series, venv):
    out = subprocess.run(
        [os.path.join(venv, 'bin', 'python'), '-c',
         'import importlib.metadata as m; print(", ".join("%s %s" % '
         '(n, m.version(n)) for n in ("openstack-heat", "mistral", '
         '"keystone")))'], capture_output=True, text=True)
    with open(os.path.join(results, '%s-versions.txt' % series), 'w') as f:
        f.write(out.stdout.strip().replace('openstack-heat', 'heat'))


START = time.time()
WHEEL = None  # the wheel under test, once built


def parse_args(argv, all_series):
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
    args.series = [s for s in args.series.split(',') if s]
    args.tiers = [t for t in args.tiers.split(',') if t]
    for s in args.series:
        if s not in all_series:
            parser.error('unknown Heat series %r (supported: %s)'
                         % (s, ', '.join(all_series)))
    for t in args.tiers:
        if t not in TIERS:
            parser.error('unknown tier %r (tiers: %s)'
                         % (t, ', '.join(TIERS)))
    if args.table_only and not os.path.isdir(args.results):
        parser.error('no results in %s: run the tests first '
                     '(bash tools/run-tests.sh)' % args.results)
    return args


def tables(args, all_series, e2e_series, write=False):
    """Print (and write) the support and reliability tables.

    Every fault case declared in tests/fault has a row on each series the
    fault tier was to run on: "not run" if it wrote none.
    """
    once = [t for t in TIERS if TIERS[t].command]
    text = matrix_report.table(args.results, all_series, list(TIERS), once)
    cases = matrix_report.declared_cases(os.path.join(ROOT, 'tests', 'fault'))
    expected = {s: cases for s in e2e_series
                if 'fault' in args.tiers and s in args.series}
    faults = matrix_report.reliability_table(args.results, all_series,
                                             expected)
    if write:
        for name, content in (('support-table.rst', text),
                              ('reliability-table.rst', faults)):
            with open(os.path.join(args.results, name), 'w') as f:
                f.write(content)
    print(('\n' if write else '') + text + '\n' + faults)
    if args.readme:
        matrix_report.update_readme(text)
        matrix_report.update_readme(faults, matrix_report.RELIABILITY_START,
                                    matrix_report.RELIABILITY_END)


def planned_jobs(args, e2e_series, default):
    jobs = [Job(s, t) for t in TIER_ORDER if t in args.tiers
            for s in args.series
            if TIERS[t].series == 'all'
            or TIERS[t].series == 'e2e' and s in e2e_series
            or TIERS[t].series == 'newest' and s == default]
    jobs += [Job(None, t, default if TIERS[t].series == DEFAULT else None)
             for t in TIER_ORDER
             if t in args.tiers and TIERS[t].series in (ONCE, DEFAULT)]
    return jobs


def run_jobs(args, jobs, default):
    """Run the jobs; the series whose venv could not be built."""
    lock = threading.Lock()
    # Venvs are built one after the other (pip is the bottleneck); each
    # series' jobs start as soon as its venv is ready.
    pool = concurrent.futures.ThreadPoolExecutor(args.jobs)
    running = [pool.submit(run_job, job, None, args.results, lock, [])
               for job in jobs if job.venv_series is None]
    venv_failed = []
    for s in args.series + [default] * (default not in args.series):
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
    return venv_failed


def report_failures(args, jobs, venv_failed):
    """Print what failed; whether anything did."""
    failed = [j for j in jobs if j.rc not in (0, None)]
    for j in jobs:
        if j.venv_series in venv_failed:
            print('FAILED: Heat %s %s: its venv could not be built'
                  % (j.venv_series, j.tier))
    for j in failed:
        xml = os.path.join(args.results, '%s.xml' % j.name)
        names = matrix_report.failed_tests(xml) if os.path.exists(xml) \
            else []
        if j.series is None:
            names = ['see %s' % os.path.join(args.results, '%s.log' % j.name)]
        print('FAILED: %s%s%s' % (
            j.where, ' (%s)' % j.note if j.note else '',
            ''.join('\n    %s' % n for n in names)))
    return bool(failed or venv_failed)


def main(argv=None):
    all_series, e2e_series, default = series_settings()
    args = parse_args(argv, all_series)
    if args.table_only:
        tables(args, all_series, e2e_series)
        return 0
    shutil.rmtree(args.results, ignore_errors=True)
    os.makedirs(args.results)
    jobs = planned_jobs(args, e2e_series, default)
    print('Heat series %s; %d jobs, %d at a time' % (
        ', '.join(args.series), len(jobs), args.jobs), flush=True)
    # The wheel first: every series' venv installs it.
    global WHEEL
    WHEEL = build_dist(args.results)
    if WHEEL is None:
        print('FAILED: the sdist and wheel could not be built')
        return 1
    venv_failed = run_jobs(args, jobs, default)
    tables(args, all_series, e2e_series, write=True)
    failed = report_failures(args, jobs, venv_failed)
    print('total %.0f s' % (time.time() - START))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
