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
"""Run benchmark parts, list them, or merge their results into a report.

    bash benchmarks/run.sh --heat SERIES --part NAME [NAME ...] [--busy]
    bash benchmarks/run.sh --heat SERIES --list
    bash benchmarks/run.sh --heat SERIES --report

Each part writes RESULTS_DIR/<part>.json: its stamp (benchmarks/stamp.py),
its plan and its raw figures. A part refuses to start while the 1-minute
load average is over --max-load (0.7) unless told --busy; its result then
says it was measured busy. Parts named together share one in-process
engine, and a single uncounted warm-up round before the first chain part.
"""

import argparse
import collections
import json
import os
import shutil
import sys
import tempfile

from benchmarks import parts
from benchmarks import stamp

Context = collections.namedtuple('Context', 'bench plan workdir log series')


def default_results_dir(series):
    return os.path.join(stamp.ROOT, 'benchmarks', 'results', series)


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog='benchmarks/run.sh [--heat SERIES]',
        description='Benchmark parts, one at a time (issues 33, 55).')
    do = p.add_mutually_exclusive_group(required=True)
    do.add_argument('--part', nargs='+', choices=sorted(parts.BY_NAME),
                    metavar='NAME', help='run these parts (--list)')
    do.add_argument('--list', action='store_true',
                    help='the parts and their expected minutes')
    do.add_argument('--report', action='store_true',
                    help='merge the newest result of every part')
    p.add_argument('--busy', action='store_true',
                   help='run on a busy machine; the result says so')
    p.add_argument('--max-load', type=float, default=stamp.MAX_LOAD,
                   help='the 1-minute load average a part refuses above')
    p.add_argument('--smallest', action='store_true',
                   help='each part at its smallest size (a smoke run)')
    p.add_argument('--results-dir', help='default benchmarks/results/'
                                         '<series of the installed Heat>')
    p.add_argument('--readme', default=os.path.join(stamp.ROOT,
                                                    'README.rst'),
                   help='--report writes the headline between its markers')
    p.add_argument('--workdir', help='scratch directory (default: a '
                                     'temporary one, removed afterwards)')
    return p.parse_args(argv)


def series_of_heat():
    from heat_lifecycle_plugins import heat_internals
    from heat_lifecycle_plugins import releases
    return releases.series_of(heat_internals.heat_version()).name


def result_path(results_dir, name):
    return os.path.join(results_dir, name + '.json')


def list_parts(results_dir):
    """Each part, its expected minutes and, if measured, its last run's."""
    lines = ['%-24s %8s %9s  %s' % ('part', 'expected', 'last run',
                                    'content')]
    for part in parts.PARTS:
        last = ''
        try:
            with open(result_path(results_dir, part.name)) as f:
                last = '%.1f min' % json.load(f)['stamp']['minutes']
        except (OSError, ValueError, KeyError):
            pass
        lines.append('%-24s %4d min %9s  %s' % (part.name, part.minutes,
                                                last, part.content))
    return '\n'.join(lines)


def _log(msg):
    print(msg, flush=True)


def jsonable(value):
    """value with every mapping's keys made text (JSON keys are text)."""
    if isinstance(value, dict):
        return {k if isinstance(k, str) else ' '.join(map(str, k))
                if isinstance(k, tuple) else str(k): jsonable(v)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def measure(part, ctx, args, series):
    """One part: its stamped result, written; the path."""
    plan = part.smallest if args.smallest else part.full
    began = stamp.begin(args.busy, args.load_before)
    _log('part %s (%s)' % (part.name, part.content))
    data = part.measure(ctx._replace(plan=plan, workdir=os.path.join(
        ctx.workdir, part.name)))
    result = {'part': part.name, 'series': series, 'plan': plan,
              'smallest': args.smallest, 'stamp': stamp.end(began),
              'data': jsonable(data)}
    os.makedirs(args.results_dir, exist_ok=True)
    path = result_path(args.results_dir, part.name)
    with open(path, 'w') as f:
        json.dump(result, f, indent=1, sort_keys=True)
    _log('  %s: %.1f min, load %.2f before, %.2f after -> %s' % (
        part.name, result['stamp']['minutes'],
        result['stamp']['load_before'][0], result['stamp']['load_after'][0],
        path))
    return path


def run_parts(args, series):
    """The named parts in one process; the in-process engine if needed."""
    chosen = [parts.BY_NAME[name] for name in args.part]
    workdir = args.workdir or tempfile.mkdtemp(prefix='hlp-bench-')
    bench = None
    try:
        if any(p.engine for p in chosen):
            from benchmarks import harness
            engine = harness.BenchEngine(os.path.join(workdir, 'engine'))
            engine.setUp()  # a failed setUp has cleaned up after itself
            bench = engine
        ctx = Context(bench, None, workdir, _log, series)
        warm = False
        for part in chosen:
            if part.name in parts.CHAIN_PARTS and not warm:
                from benchmarks import chain
                chain.warm_up(bench, _log)
                warm = True
            measure(part, ctx, args, series)
    finally:
        if bench is not None:
            bench.cleanUp()
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)


def run(argv=None):
    args = parse_args(argv)
    series = series_of_heat()
    args.results_dir = args.results_dir or default_results_dir(series)
    if args.list:
        _log(list_parts(args.results_dir))
        return 0
    if args.report:
        from benchmarks import merge
        _log(merge.merge_report(args.results_dir, args.readme, series))
        return 0
    args.load_before, over = stamp.load_judged(args.max_load)
    if over and not args.busy:
        _log('refused: load average %.2f is over %.2f; wait for a quiet '
             'machine, or run with --busy (the result is then marked '
             'busy)' % (args.load_before[0], args.max_load))
        return 3
    run_parts(args, series)
    return 0


if __name__ == '__main__':
    from benchmarks import harness
    sys.exit(harness.main(run))
