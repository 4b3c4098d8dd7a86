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
                            [--results DIR] [--readme] [--no-roots]
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

The unit and functional tiers of some series run in Debian roots on other
Pythons (tools/matrix_roots.py; --no-roots or HLP_ROOTS=0 keeps them on the
machine's), and each root runs the wheel's own dist checks. Venvs and
roots are built two at a time, beside the jobs of the series already built.

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

from tools import machine_use
from tools import matrix_commands
from tools import matrix_report
from tools import matrix_roots

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
    'bench': Tier(['tests/bench'], 'newest', None, True),
    'dist': Tier(['tests/dist'], 'newest', None, True),
    'fuzz': Tier(['tests/fuzz'], 'newest', None, True),
    'lint': Tier(None, ONCE, ['bash', 'tools/lint.sh'], False),
    # With the check of the generated references, which needs the newest
    # series on the machine's Python (tests/unit/test_references.py).
    'docs': Tier(None, DEFAULT, ['bash', '-c', (
        'bash tools/docs.sh && HLP_REFERENCES=required "$HLP_VENV/bin/python"'
        ' -m pytest -p no:cacheprovider -q tests/unit/test_references.py')],
        False),
}
# Jobs at once. A tier mostly waits on Heat's check loops: the 2026.1
# functional tier used 542 s of CPU in 940 s (57% of one core), so two
# jobs left most of a 2-core machine idle.
JOBS = 3
# A job's wall-clock limit; a job over it is killed and counts as failed.
# Heat 24.x (eventlet) functional takes about 12 min on a quiet 2-core
# machine and over 27 min when the machine is shared (measured 1611 s);
# 2025.1's e2e took 1589 s beside a long fuzz search; fuzz 882 s, three
# jobs beside it and a long search.
JOB_TIMEOUT = {'unit': 900, 'functional': 2700, 'e2e': 2700, 'fault': 2700,
               'dist': 1500, 'fuzz': 1500, 'bench': 1200, 'lint': 600,
               'docs': 600}
# Longest first, so that the lanes finish close together; the benchmark
# smokes (about 6 min) are a job of their own, so that they fill a lane's
# end instead of lengthening the longest job (e2e). Fault before
# functional: with functional first, 2025.1's fault (about 1000 s) waited
# behind four functional jobs (351-582 s) and ended the run alone.
TIER_ORDER = ('e2e', 'fault', 'functional', 'dist', 'fuzz', 'bench', 'unit',
              'docs', 'lint')


def series_settings():
    """(all series, e2e series, default) from tools/series.sh."""
    out = subprocess.run(
        ['bash', '-c', '. tools/series.sh; echo "$HLP_SERIES_ALL"; '
                       'echo "$HLP_SERIES_E2E"; echo "$HLP_SERIES_DEFAULT"'],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout
    all_series, e2e, default = out.splitlines()
    return all_series.split(), e2e.split(), default


class Job(object):
    def __init__(self, series, tier, venv_series=None, suite=None):
        self.series = series  # None for a tier run once
        self.tier = tier
        # Whose venv the job runs in (None: none), and in which root (None:
        # the machine's).
        self.venv_series = series or venv_series
        self.suite = suite
        self.paths = TIERS[tier].paths
        self.name = '%s-%s' % (series, tier) if series else tier
        self.where = 'Heat %s %s' % (series, tier) if series else tier
        if suite:
            self.where += ' (%s root)' % suite
        if suite and tier == 'dist':
            self.paths = matrix_roots.DIST_PATHS
            self.name += '@' + suite
        self.rc = None
        self.seconds = None
        self.note = ''

    @property
    def venv_key(self):
        return (self.suite, self.venv_series) if self.venv_series else None


def build_venv(key, results, lock):
    """Build (or reuse) the venv of key (suite or None, series).

    Its path (in the root, for a suite), or None on failure.
    """
    suite, series = key
    start = time.time()
    log = os.path.join(results, '%s-venv.log' % (
        '%s-%s' % (suite, series) if suite else series))
    if suite:
        venv = matrix_roots.build(suite, series, log)
        if venv:
            PYTHONS[key] = matrix_roots.python_version(suite)
    else:
        with open(log, 'w') as f:
            proc = subprocess.run(matrix_roots.BUILD_NICE +
                                  ['bash', 'tools/venv.sh', series],
                                  cwd=ROOT, stdout=subprocess.PIPE,
                                  stderr=f, text=True)
        venv = proc.returncode == 0 and \
            proc.stdout.strip().splitlines()[-1] or None
        if venv:
            PYTHONS[key] = matrix_commands.python_version(venv)
    with lock:
        print('[%6.0fs] Heat %s venv%s %s in %.0fs' % (
            time.time() - START, series,
            ' in the %s root' % suite if suite else '',
            'ready' if venv else 'FAILED (see %s)' % log,
            time.time() - start), flush=True)
    return venv


def run_job(job, venv, results, lock, extra_args):
    """Run a pytest tier in `venv`, or a tier's command (with HLP_VENV)."""
    xml = os.path.join(results, '%s.xml' % job.name)
    log = os.path.join(results, '%s.log' % job.name)
    if job.suite:
        base, inside = matrix_roots.workdir(job.suite, job.name)
        argv, cwd, env = matrix_commands.root_job_command(
            job, TIERS[job.tier], WHEEL, venv, inside, extra_args)
    else:
        base = tempfile.mkdtemp(prefix='hlp-%s-' % job.name)
        argv, cwd, env = matrix_commands.job_command(
            job, TIERS[job.tier], WHEEL, venv, base, xml, extra_args)
    if job.venv_key in PYTHONS:
        with open(os.path.join(results, '%s.python' % job.name), 'w') as f:
            f.write(PYTHONS[job.venv_key] + '\n')
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
    if job.suite and os.path.exists(os.path.join(base, 'junit.xml')):
        shutil.copy(os.path.join(base, 'junit.xml'), xml)
    shutil.rmtree(base, ignore_errors=True)
    if TIERS[job.tier].command:
        with open(os.path.join(results, '%s.rc' % job.name), 'w') as f:
            f.write('%d %.1f\n' % (job.rc, job.seconds))
    with lock:
        print('[%6.0fs] %-22s %s in %.0fs' % (
            time.time() - START, job.where,
            'passed' if job.rc == 0 else 'FAILED (rc %s%s, see %s)' % (
                job.rc, ', ' + job.note if job.note else '', log),
            job.seconds), flush=True)


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
    global WHEEL
    WHEEL = proc.stdout.strip().splitlines()[-1]
    return WHEEL


START = time.time()
WHEEL = None  # the wheel under test, once built
PYTHONS = {}  # venv key -> the Python version of that venv
# Venvs and roots built at once: pip and dpkg wait on the network for much
# of a fresh build.
BUILDS_AT_ONCE = 2


def parse_args(argv, all_series):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--jobs', type=int,
                        default=int(os.environ.get('HLP_JOBS', JOBS)))
    parser.add_argument('--series', default=','.join(all_series))
    parser.add_argument('--tiers', default=','.join(TIERS))
    parser.add_argument('--results', default=DEFAULT_RESULTS)
    parser.add_argument('--readme', action='store_true',
                        help='write the table into README.rst')
    parser.add_argument('--roots', action=argparse.BooleanOptionalAction,
                        default=os.environ.get('HLP_ROOTS', '1') == '1',
                        help='run the tiers placed in Debian roots there '
                             '(tools/matrix_roots.py; the default; '
                             '--no-roots or HLP_ROOTS=0: all on the '
                             "machine's Python)")
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
    jobs = [Job(s, t, suite=matrix_roots.suite_of(s, t) if args.roots
                else None)
            for t in TIER_ORDER if t in args.tiers
            for s in args.series
            if TIERS[t].series == 'all'
            or TIERS[t].series == 'e2e' and s in e2e_series
            or TIERS[t].series == 'newest' and s == default]
    if args.roots and 'dist' in args.tiers:
        # The wheel on each root's Python too.
        jobs += [Job(s, 'dist', suite=suite) for suite, s in
                 sorted(matrix_roots.suites(args.series).items())]
    jobs += [Job(None, t, default if TIERS[t].series == DEFAULT else None)
             for t in TIER_ORDER
             if t in args.tiers and TIERS[t].series in (ONCE, DEFAULT)]
    return jobs


def build_order(jobs, e2e_series):
    """The venvs the jobs need, longest jobs' (e2e, fault) first.

    So that the lanes start on those.
    """
    keys = []
    for job in sorted(jobs, key=lambda j: (j.venv_series not in e2e_series,
                                           j.suite is not None)):
        if job.venv_key and job.venv_key not in keys:
            keys.append(job.venv_key)
    return keys


class ReadyJobs(object):
    """The jobs whose venv is ready; a free lane takes the longest tier's.

    A pool runs its tasks first in, first out: a venv ready early (2025.1
    with e2e, fault, bench) would fill every lane with its own jobs while
    a longer one (2026.2's e2e) waits behind its shortest. Each submitted
    task instead runs the ready job that comes first in TIER_ORDER.
    """

    def __init__(self):
        self.lock = threading.Lock()
        self.jobs = []  # in the order added: min() keeps it within a tier

    def add(self, job, venv, extra_args):
        with self.lock:
            self.jobs.append((job, venv, extra_args))

    def take(self):
        with self.lock:
            best = min(self.jobs,
                       key=lambda entry: TIER_ORDER.index(entry[0].tier))
            self.jobs.remove(best)
            return best


def run_jobs(args, jobs, e2e_series, dist):
    """Run the jobs; the venv keys (suite, series) that failed to build.

    `dist`: the future of the wheel's build, which every venv's jobs wait
    for (the venvs' requirements install meanwhile).
    """
    lock = threading.Lock()
    pool = concurrent.futures.ThreadPoolExecutor(args.jobs)
    ready = ReadyJobs()

    def run_next():
        job, venv, extra_args = ready.take()
        run_job(job, venv, args.results, lock, extra_args)

    def queue(job, venv, extra_args):
        ready.add(job, venv, extra_args)
        return pool.submit(run_next)

    running = [queue(job, None, []) for job in jobs
               if job.venv_series is None]

    def build_then_queue(key):
        # Each venv's jobs start as soon as it is ready.
        venv = build_venv(key, args.results, lock)
        if venv is None or dist.result() is None:
            return key
        if key[0] is None or not os.path.exists(os.path.join(
                args.results, '%s-versions.txt' % key[1])):
            matrix_commands.write_versions(args.results, key[1], venv,
                                           key[0])
        for job in jobs:
            if job.venv_key == key:
                with lock:
                    running.append(queue(
                        job, venv, [] if TIERS[job.tier].command
                        else args.pytest_args))
        return None

    with concurrent.futures.ThreadPoolExecutor(BUILDS_AT_ONCE) as builders:
        builds = [builders.submit(build_then_queue, key)
                  for key in build_order(jobs, e2e_series)]
        venv_failed = [f.result() for f in builds if f.result()]
    for future in running:
        future.result()
    pool.shutdown()
    return venv_failed


def report_failures(args, jobs, venv_failed):
    """Print what failed; whether anything did."""
    failed = [j for j in jobs if j.rc not in (0, None)]
    for j in jobs:
        if j.venv_key in venv_failed:
            print('FAILED: %s: its venv could not be built' % j.where)
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
    # The wheel beside the venvs' requirements: every venv installs it
    # (tools/build-dist.sh builds once, under a lock).
    sampler = machine_use.Sampler(
        os.path.join(args.results, 'machine.tsv')).start()
    with concurrent.futures.ThreadPoolExecutor(1) as one:
        dist = one.submit(build_dist, args.results)
        venv_failed = run_jobs(args, jobs, e2e_series, dist)
    print(sampler.stop(), flush=True)
    if dist.result() is None:
        print('FAILED: the sdist and wheel could not be built')
        return 1
    tables(args, all_series, e2e_series, write=True)
    failed = report_failures(args, jobs, venv_failed)
    print('total %.0f s' % (time.time() - START))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
