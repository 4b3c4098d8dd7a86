"""Run every benchmark in one process on one in-process Heat engine.

    python -m benchmarks.run [--quick] [--results-dir DIR]

(benchmarks/run.sh does it inside the project venv.) Writes
DIR/results.md and DIR/chain.png and prints the headline table.
"""

import argparse
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from benchmarks import chain
from benchmarks import harness
from benchmarks import report
from benchmarks import targets

HERE = os.path.dirname(os.path.abspath(__file__))
FULL = dict(sizes=[10, 100, 500], concurrent_sizes=[10, 100], rounds=3,
            insert_n=50, insert_rounds=3, external_rounds=8,
            external_long=60)
QUICK = dict(sizes=[10], concurrent_sizes=[10], rounds=1, insert_n=10,
             insert_rounds=1, external_rounds=1,
             external_long=5)


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog='benchmarks/run.sh',
        description='Benchmarks of our Heat types against the in-tree ones '
                    '(medians, ratios ours / in-tree).')
    p.add_argument('--quick', action='store_true',
                   help='smallest N, one round (a smoke run, minutes)')
    p.add_argument('--sizes', type=int, nargs='*',
                   help='chain sizes of the sequential runs')
    p.add_argument('--concurrent-sizes', type=int, nargs='*',
                   help='chain sizes of the concurrent runs')
    p.add_argument('--rounds', type=int, help='rounds per size')
    p.add_argument('--only', nargs='+',
                   choices=['chain', 'insert', 'external', 'feedback',
                            'signals'],
                   help='run only these benchmarks')
    p.add_argument('--results-dir', default=os.path.join(HERE, 'results'),
                   help='where results.md and chain.png go')
    p.add_argument('--workdir', help='scratch directory (default: a '
                                     'temporary one, removed afterwards)')
    args = p.parse_args(argv)
    plan = dict(QUICK if args.quick else FULL)
    for key in ('sizes', 'concurrent_sizes', 'rounds'):
        if getattr(args, key) is not None:
            plan[key] = getattr(args, key)
    plan['only'] = set(args.only or
                       ['chain', 'insert', 'external', 'feedback',
                        'signals'])
    plan['signals'] = 1500 if args.quick else 5000
    return args, plan


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
        '- One in-process heat-engine (convergence, fake:// RPC, private '
        'MariaDB) runs ours and the in-tree type side by side; rounds are '
        'interleaved ours / in-tree / floor; figures are medians.',
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


def run(argv=None):
    args, plan = parse_args(argv)

    def log(msg):
        print(msg, flush=True)

    # SIGTERM ends the run through the finally below: the services it
    # started are stopped by their PIDs.
    def terminate(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once is enough
        sys.exit(143)
    signal.signal(signal.SIGTERM, terminate)
    started = time.monotonic()
    load_before = os.getloadavg()
    workdir = args.workdir or tempfile.mkdtemp(prefix='hlp-bench-')
    bench = harness.BenchEngine(workdir)
    bench.setUp()
    sections = []
    measured = {}
    try:
        if 'chain' in plan['only']:
            log('ResourceChain lifecycle (items 1, 2)')
            rows = chain.run_lifecycle(bench, plan['sizes'], plan['rounds'],
                                       plan['concurrent_sizes'], log)
            measured['chain'] = rows
            sections.append(('Chain lifecycle: ours vs in-tree vs flat floor',
                             report.headline_markdown(rows)))
            sections.append(('Peak RSS of the engine process',
                             report.rss_markdown(rows)))
            report.plot(rows, os.path.join(args.results_dir, 'chain.png'))
            with open(os.path.join(args.results_dir, 'headline.rst'),
                      'w') as f:
                f.write(report.headline_rst(rows) + '\n')
        if 'insert' in plan['only']:
            log('Insert at position 0 (item 3)')
            insert = chain.run_insert(bench, plan['insert_n'],
                                      plan['insert_rounds'], log)
            measured['insert'] = (plan['insert_n'], insert)
            sections.append(('Insert one entry at position 0 of %d'
                             % plan['insert_n'],
                             report.insert_markdown(insert,
                                                    plan['insert_n'])))
        if 'external' in plan['only']:
            from benchmarks import external
            log('ExternalResource against a real Mistral (item 5)')
            ext = external.run(bench, plan['external_rounds'], workdir, log,
                               long_seconds=plan['external_long'])
            measured['external'] = ext
            sections.append(('ExternalResource on a real Mistral',
                             external.markdown(ext)))
        if 'feedback' in plan['only']:
            from benchmarks import feedback
            log('Time to first feedback (item 4)')
            fb = feedback.run(bench, log, quick=args.quick)
            measured['feedback'] = fb
            sections.append(('Time to first feedback', feedback.markdown(fb)))
    finally:
        bench.cleanUp()
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
    if 'signals' in plan['only']:
        log('Signal load on one stack (issue 13)')
        measured['signals'] = run_signals(args.results_dir, plan['signals'])
        with open(os.path.join(args.results_dir, 'signals.md')) as f:
            sections.append(('Signals to one stack, one engine worker',
                             f.read().strip()))
    sections.insert(0, ('Targets', targets.markdown(measured)))
    sections.append(('Machine and method',
                     machine_section(started, load_before)))
    path = report.write(args.results_dir, sections)
    log('')
    if 'chain' in measured:
        log(report.headline_markdown(measured['chain']))
    log('')
    log(targets.markdown(measured))
    log('\nresults: %s' % path)
    return 0


if __name__ == '__main__':
    sys.exit(run())
