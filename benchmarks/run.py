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
"""Run every benchmark in one process on one in-process Heat engine.

    python -m benchmarks.run [--quick] [--results-dir DIR]
    python -m benchmarks.run --part NAME | --list | --report   (parts)

With --part, --list or --report it hands over to benchmarks/part_run.py:
the benchmark in parts, the way to measure.

(benchmarks/run.sh does it inside the project venv.) Writes
DIR/results.md and DIR/chain.png and prints the headline table.
"""

import argparse
import collections
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

from benchmarks import chain
from benchmarks import harness
from benchmarks import report
from benchmarks import targets

HERE = os.path.dirname(os.path.abspath(__file__))
FULL = dict(sizes=[10, 100, 500], concurrent_sizes=[10, 100, 150],
            rounds=3, change_n=50, change_rounds=3, external_rounds=8,
            external_long=60, scale_sizes=[500, 1000, 2000], engines_n=150,
            engines_rounds=3, signals=5000, actions=500)
QUICK = dict(sizes=[10], concurrent_sizes=[10], rounds=1, change_n=10,
             change_rounds=1, external_rounds=1, external_long=5,
             scale_sizes=[100], engines_n=10, engines_rounds=1, signals=1500,
             actions=30)
BENCHMARKS = ['chain', 'changes', 'engines', 'scale', 'external',
              'feedback', 'signals', 'long_lived']
# What --quick runs unless --only says otherwise: scale takes an hour,
# engines starts RabbitMQ and two heat-engine processes.
QUICK_BENCHMARKS = ['chain', 'changes', 'external', 'feedback', 'signals']


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog='benchmarks/run.sh',
        description='Benchmarks of our Heat types against the in-tree ones '
                    '(medians, ratios ours / in-tree).',
        epilog='run.sh takes --heat SERIES as its first option: the Heat '
               'series whose venv runs the benchmarks (default: the '
               'newest); results then go to benchmarks/results/SERIES.')
    p.add_argument('--quick', action='store_true',
                   help='smallest N, one round (a smoke run, minutes)')
    p.add_argument('--sizes', type=int, nargs='*',
                   help='chain sizes of the sequential runs')
    p.add_argument('--concurrent-sizes', type=int, nargs='*',
                   help='chain sizes of the concurrent runs')
    p.add_argument('--rounds', type=int, help='rounds per size')
    p.add_argument('--scale-sizes', type=int, nargs='*',
                   help='chain sizes of the scale runs (ours; in-tree goes '
                        'up its own ladder until a size fails)')
    p.add_argument('--only', nargs='+', choices=BENCHMARKS,
                   help='run only these benchmarks')
    p.add_argument('--results-dir', default=os.path.join(HERE, 'results'),
                   help='where results.md and chain.png go')
    p.add_argument('--workdir', help='scratch directory (default: a '
                                     'temporary one, removed afterwards)')
    args = p.parse_args(argv)
    plan = dict(QUICK if args.quick else FULL)
    for key in ('sizes', 'concurrent_sizes', 'rounds', 'scale_sizes'):
        if getattr(args, key) is not None:
            plan[key] = getattr(args, key)
    plan['only'] = set(args.only or
                       (QUICK_BENCHMARKS if args.quick else BENCHMARKS))
    return args, plan


def heat_release():
    import importlib.metadata
    return importlib.metadata.version('openstack-heat')


def machine_section(started, load_before):
    load_after = os.getloadavg()
    return '\n'.join([
        '- Date (UTC): %s; wall time of the run: %.0f s' % (
            time.strftime('%Y-%m-%d %H:%M', time.gmtime()),
            time.monotonic() - started),
        '- Machine: %s, %d CPUs, Python %s' % (
            platform.platform(), os.cpu_count(), platform.python_version()),
        '- Load average (1/5/15 min) before: %s; after: %s' % (
            '/'.join('%.2f' % v for v in load_before),
            '/'.join('%.2f' % v for v in load_after)),
        '- Heat %s. One in-process heat-engine (convergence, fake:// RPC, '
        'private MariaDB) runs ours and the in-tree type side by side; '
        'rounds are interleaved ours / in-tree / floor; figures are '
        'medians.' % heat_release(),
    ])


def run_signals(results_dir, signals):
    """benchmarks/signals.py in a process of its own; its results.

    Its engine must start without the remedy this process's engine has.
    """
    subprocess.run([sys.executable, '-m', 'benchmarks.signals',
                    '--signals', str(signals), '--results-dir', results_dir],
                   check=True, cwd=os.path.dirname(HERE))
    with open(os.path.join(results_dir, 'signals.json')) as f:
        return json.load(f)


def run_long_lived(results_dir, actions):
    """benchmarks/long_lived.py in a process of its own; its results.

    It measures the engine as installed first, then with the remedy.
    """
    subprocess.run([sys.executable, '-m', 'benchmarks.long_lived',
                    '--actions', str(actions), '--results-dir', results_dir],
                   check=True, cwd=os.path.dirname(HERE))
    with open(os.path.join(results_dir, 'long-lived.json')) as f:
        return json.load(f)


def _chain(ctx):
    rows = chain.run_lifecycle(ctx.bench, ctx.plan['sizes'],
                               ctx.plan['rounds'],
                               ctx.plan['concurrent_sizes'], ctx.log)
    report.plot(rows, os.path.join(ctx.args.results_dir, 'chain.png'))
    with open(os.path.join(ctx.args.results_dir, 'headline.rst'), 'w') as f:
        f.write(report.headline_rst(rows) + '\n')
    return rows, [('Chain lifecycle: ours vs in-tree vs flat floor',
                   report.headline_markdown(rows)),
                  ('Peak RSS of the engine process',
                   report.rss_markdown(rows))]


def _changes(ctx):
    n = ctx.plan['change_n']
    changes = chain.run_changes(ctx.bench, n, ctx.plan['change_rounds'],
                                ctx.log)
    return (n, changes), [('Insert at 0 and removal mid-list of %d' % n,
                           report.changes_markdown(changes, n))]


def _engines(ctx):
    from benchmarks import engines
    result = engines.run(ctx.plan['engines_n'], ctx.plan['engines_rounds'],
                         ctx.log)
    title = ('Concurrent N=%d on two heat-engine processes'
             % ctx.plan['engines_n'])
    return result, [(title, engines.markdown(result))]


def _scale(ctx):
    from benchmarks import scale
    results = scale.run(ctx.plan['scale_sizes'],
                        ('sequential', 'concurrent'), ctx.log)
    return results, [('Scale: create, one member changed, delete on an '
                      'unpatched engine', scale.NOTE + '\n\n' +
                      report.scale_markdown(results))]


def _external(ctx):
    from benchmarks import external
    from benchmarks import external_report
    ext = external.run(ctx.bench, ctx.plan['external_rounds'], ctx.workdir,
                       ctx.log, long_seconds=ctx.plan['external_long'])
    return ext, [('ExternalResource on a real Mistral',
                  external_report.markdown(ext))]


def _feedback(ctx):
    from benchmarks import feedback
    fb = feedback.run(ctx.bench, ctx.log, quick=ctx.args.quick)
    return fb, [('Time to first feedback', feedback.markdown(fb))]


# The parts that share one in-process engine: (name, what the log says,
# the function measuring it).
ENGINE_PARTS = (
    ('chain', 'ResourceChain lifecycle', _chain),
    ('changes', 'Insert at 0 and removal mid-list', _changes),
    ('engines', 'Concurrent chain on two heat-engine processes', _engines),
    ('scale', 'Scale on an unpatched engine, one run per process', _scale),
    ('external', 'ExternalResource against a real Mistral', _external),
    ('feedback', 'Time to first feedback', _feedback),
)
Context = collections.namedtuple('Context', 'bench plan args workdir log')


def _log(msg):
    print(msg, flush=True)


def run_engine_parts(args, plan, measured, sections):
    """The parts that need the in-process engine, then its cleanup."""
    workdir = args.workdir or tempfile.mkdtemp(prefix='hlp-bench-')
    bench = harness.BenchEngine(workdir)
    bench.setUp()
    try:
        ctx = Context(bench, plan, args, workdir, _log)
        for name, title, part in ENGINE_PARTS:
            if name in plan['only']:
                _log(title)
                measured[name], found = part(ctx)
                sections += found
    finally:
        bench.cleanUp()
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)


def run(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if {'--part', '--list', '--report'} & set(argv):
        from benchmarks import part_run
        return part_run.run(argv)
    args, plan = parse_args(argv)
    started = time.monotonic()
    load_before = os.getloadavg()
    sections, measured = [], {}
    run_engine_parts(args, plan, measured, sections)
    if 'signals' in plan['only']:
        _log('Signal load on one stack')
        measured['signals'] = run_signals(args.results_dir, plan['signals'])
        with open(os.path.join(args.results_dir, 'signals.md')) as f:
            sections.append(('Signals to one stack, one engine worker',
                             f.read().strip()))
    if 'long_lived' in plan['only']:
        _log('A long-lived stack')
        measured['long_lived'] = run_long_lived(args.results_dir,
                                                plan['actions'])
        with open(os.path.join(args.results_dir, 'long-lived.md')) as f:
            sections.append(('A long-lived stack, one engine worker',
                             f.read().strip()))
    sections.insert(0, ('Targets', targets.markdown(measured)))
    sections.append(('Machine and method',
                     machine_section(started, load_before)))
    path = report.write(args.results_dir, sections)
    _log('')
    if 'chain' in measured:
        _log(report.headline_markdown(measured['chain']))
    _log('')
    _log(targets.markdown(measured))
    _log('\nresults: %s' % path)
    return 0


if __name__ == '__main__':
    sys.exit(harness.main(run))
