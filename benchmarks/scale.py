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
"""Scale: long chains on an unmodified engine.

A chain of N OS::Heat::None members (sequential and concurrent) is created,
updated with one member changed (the middle one becomes an
OS::Heat::RandomString: that member is replaced, the others stay) and
deleted, on an engine running as heat-engine does: finished threads are
not forgotten (BenchEngine(forget_threads=False)), so every stack has the
1000-thread budget of Heat 25-27. Each run is a process of its own (its own
MariaDB and engine), so that a run that spends a stack's budget leaves
nothing behind for the next one and peak RSS is that run's. In-tree goes
up a ladder of sizes until a size fails: its largest working size.

max_resources_per_stack (default 1000, counted over the whole stack tree)
is lifted for every kind alike: a 2000-member chain has 2000+ resources.

    python -m benchmarks.scale KIND MODE N   (one run; prints JSON)
"""

import json
import os
import subprocess
import sys
import tempfile
import time

from benchmarks import chain
from benchmarks.upstream_types import UPSTREAM_CHAIN

STEPS = ('create', 'update one member', 'delete')
SIZES = (500, 1000, 2000)
IN_TREE_LADDER = (100, 200, 300, 500, 1000, 2000)
NOTE = ('One process per run (its own MariaDB and in-process engine, '
        'finished threads not forgotten: Heat 25+ gives each stack id 1000 '
        'threads per engine worker, one per event); members OS::Heat::None; '
        'max_resources_per_stack lifted for every kind. In-tree runs up '
        'the sizes %s until one fails; a run stops at its first failure.'
        % ', '.join(str(n) for n in IN_TREE_LADDER))
# Seconds a step may take per member, plus a fixed allowance.
PER_MEMBER = 1.0


def step_timeout(n):
    return 120 + PER_MEMBER * n


def member_types(n, changed=False):
    """N OS::Heat::None members; changed: the middle one another type."""
    types = [chain.MEMBER] * n
    if changed:
        types[n // 2] = chain.INSERT_TYPES[1]
    return types


def chain_type(kind):
    return chain.OUR_CHAIN if kind == chain.OURS else UPSTREAM_CHAIN


def measure(bench, kind, mode, n):
    """Create, change one member, delete; {'times', 'failed', 'peak_rss'}."""
    concurrent = mode == 'concurrent'
    times, failed = {}, None
    timeout = step_timeout(n)
    ident = None
    for step in STEPS:
        try:
            if step == 'delete':
                times[step] = bench.delete(ident, timeout)
                continue
            template = chain.chain_template(
                chain_type(kind), member_types(n, step != 'create'),
                concurrent)
            if step == 'create':
                times[step], ident = bench.create(
                    template, 'scale-%s' % mode, timeout)
            else:
                times[step] = bench.update(ident, template, timeout)
        except Exception as exc:
            failed = '%s: %s' % (step, str(exc)[:300])
            break
    return {'kind': kind, 'mode': mode, 'n': n, 'times': times,
            'failed': failed, 'peak_rss': bench.rss.peak}


def run_in_process(kind, mode, n, log):
    """run_one in a fresh Python process; its result."""
    timeout = len(STEPS) * step_timeout(n) + 300
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix='hlp-scale-') as workdir:
        proc = subprocess.run(
            [sys.executable, '-m', 'benchmarks.scale', kind, mode, str(n),
             '--workdir', workdir],
            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
            capture_output=True, text=True, timeout=timeout)
    lines = [line for line in proc.stdout.splitlines()
             if line.startswith('{')]
    if proc.returncode or not lines:
        result = {'kind': kind, 'mode': mode, 'n': n, 'times': {},
                  'peak_rss': None,
                  'failed': 'run exited %d: %s' % (
                      proc.returncode, proc.stderr.strip()[-300:])}
    else:
        result = json.loads(lines[-1])
    log('  scale %-10s N=%-5d %-7s %s (%.0f s)' % (
        mode, n, kind, describe(result), time.monotonic() - began))
    return result


def describe(result):
    done = ', '.join('%s %.1fs' % (s, result['times'][s])
                     for s in STEPS if s in result['times'])
    if result['failed']:
        return '%s; FAILED at %s' % (done or 'nothing done',
                                     result['failed'])
    return done


def run(sizes, modes, log, ladder=IN_TREE_LADDER, kinds=None):
    """Ours at every size; in-tree up its ladder until a size fails.

    kinds: the kinds to run (default both).
    """
    kinds = kinds or (chain.OURS, chain.INTREE)
    results = []
    for mode in modes:
        if chain.OURS in kinds:
            results += [run_in_process(chain.OURS, mode, n, log)
                        for n in sizes]
        for n in ladder if chain.INTREE in kinds else ():
            result = run_in_process(chain.INTREE, mode, n, log)
            results.append(result)
            if result['failed']:
                break
    return results


def largest_working(results, kind, mode):
    ok = [r['n'] for r in results if r['kind'] == kind and
          r['mode'] == mode and not r['failed']]
    return max(ok) if ok else None


def main(argv):
    import argparse
    p = argparse.ArgumentParser(prog='python -m benchmarks.scale')
    p.add_argument('kind', choices=[chain.OURS, chain.INTREE])
    p.add_argument('mode', choices=['sequential', 'concurrent'])
    p.add_argument('n', type=int)
    p.add_argument('--workdir', required=True)
    args = p.parse_args(argv)
    from benchmarks import harness
    bench = harness.BenchEngine(args.workdir, forget_threads=False,
                                max_resources_per_stack=-1)
    bench.setUp()
    try:
        result = measure(bench, args.kind, args.mode, args.n)
        print(json.dumps(result), flush=True)
    except BaseException:
        bench.cleanUp()
        raise
    if result['failed']:
        # The engine's threads of a stack that failed this way wait for
        # good, and so would a graceful engine stop: stop the database (by
        # its PID) and leave with them.
        bench.mariadb.cleanUp()
        os._exit(0)
    bench.cleanUp()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
