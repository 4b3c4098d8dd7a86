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
"""Profile the engine on a chain case: ours against in-tree and the floor.

    python -m benchmarks.engine_profile --mode sequential --n 100 --out FILE.md
        [--kinds ours in-tree floor] [--rounds 2] [--py-spy PATH]
        [--segment-size N]

Issue 33, item 4: where a chain target is missed, what of the engine's
work is ours and what is Heat's own. The engine of the chain parts
(benchmarks/harness.py, the same warm-up round) runs in this process;
py-spy samples it from outside, 100 times a second, without pausing it
(--nonblocking), only threads holding the GIL (--gil): one recording per
kind, operation and round. FILE.md gets, per operation, each kind's wall
time, its seconds of Python work by layer (benchmarks/profile_summary.py),
the CPU seconds of the engine's process and of MariaDB and the statements
MariaDB ran (the wall time that is neither is waiting), and the functions
where ours spends more than in-tree and than the floor. py-spy is not a
project dependency: `pip install py-spy`, then --py-spy or PATH.
"""

import argparse
import gc
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from benchmarks import chain
from benchmarks import harness
from benchmarks import profile_summary as summary
from benchmarks import round_order
from benchmarks import stamp

RATE = 100
NO_PY_SPY = 'py-spy not found: pip install py-spy, then --py-spy PATH'


def parse_args(argv):
    p = argparse.ArgumentParser(prog='python -m benchmarks.engine_profile',
                                description=__doc__.splitlines()[0])
    p.add_argument('--mode', choices=('sequential', 'concurrent'),
                   required=True)
    p.add_argument('--n', type=int, required=True, help='chain members')
    p.add_argument('--kinds', nargs='+', choices=chain.KINDS,
                   default=list(chain.KINDS))
    p.add_argument('--rounds', type=int, default=2)
    p.add_argument('--py-spy', default=shutil.which('py-spy'),
                   help='the py-spy command (default: from PATH)')
    p.add_argument('--segment-size', type=int,
                   help='ours\' chain_segment_size (default: the option\'s '
                        'default), to tell the segments\' cost')
    p.add_argument('--out', required=True, help='the summary (markdown)')
    return p.parse_args(argv)


class Recording(object):
    """py-spy recording a process while the block runs (this one: pid None).

    how: py-spy's flags of what to sample (default: threads holding the
    GIL).
    """

    def __init__(self, py_spy, path, pid=None, how=('--gil',)):
        self.argv = [py_spy, 'record', '--pid', str(pid or os.getpid()),
                     '--rate', str(RATE)] + list(how) + [
                         '--nonblocking', '--format', 'raw',
                         '--full-filenames', '--output', path]
        self.path = path

    def __enter__(self):
        self.proc = subprocess.Popen(self.argv, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        time.sleep(1)  # py-spy attaches
        return self

    def __exit__(self, exc_type, *exc):
        self.proc.send_signal(signal.SIGINT)
        _out, err = self.proc.communicate(timeout=120)
        if exc_type is not None:
            return False  # the block's error, not py-spy's
        if not os.path.exists(self.path):
            raise harness.BenchmarkError('py-spy wrote nothing: %s' % err)
        with open(self.path) as f:
            self.stacks = summary.read_collapsed(f)


class FullCollections(object):
    """Count and time the garbage collector's full collections meanwhile.

    py-spy counts a collection to the Python frame that triggered it; this
    says how much of the Python work was collecting (the whole process's
    heap, whichever kind made it grow).
    """

    def __enter__(self):
        self.count, self.seconds, self._began = 0, 0.0, None
        gc.callbacks.append(self._seen)
        return self

    def __exit__(self, *exc):
        gc.callbacks.remove(self._seen)
        return False

    def _seen(self, phase, info):
        if info['generation'] != 2:
            return
        if phase == 'start':
            self._began = time.perf_counter()
        elif self._began is not None:
            self.count += 1
            self.seconds += time.perf_counter() - self._began
            self._began = None


class DatabaseWork(object):
    """CPU seconds of this process and of MariaDB, MariaDB's statements.

    The whole server's: the stack watch's reads (benchmarks/stack_watch.py,
    one SELECT each 20 ms) are among the SELECTs.
    """

    STATEMENTS = ('Com_select', 'Com_insert', 'Com_update', 'Com_delete')

    def __init__(self, mariadb):
        self.mariadb = mariadb

    def __enter__(self):
        self._began = self._read()
        return self

    def __exit__(self, *exc):
        ended = self._read()
        self.found = {key: ended[key] - self._began[key] for key in ended}
        return False

    def _read(self):
        import pymysql
        with open('/proc/%d/stat' % self.mariadb.server.pid) as f:
            fields = f.read().rsplit(')', 1)[1].split()
        ticks = os.sysconf('SC_CLK_TCK')
        found = {'engine_cpu': time.process_time(),
                 'mariadb_cpu': (int(fields[11]) + int(fields[12])) / ticks}
        conn = pymysql.connect(unix_socket=self.mariadb.socket, user='root')
        try:
            with conn.cursor() as cur:
                cur.execute('SHOW GLOBAL STATUS WHERE Variable_name IN '
                            '(%s)' % ', '.join(['%s'] * len(self.STATEMENTS)),
                            self.STATEMENTS)
                found.update((name, int(value)) for name, value in cur)
        finally:
            conn.close()
        return found


class RecordedBench(object):
    """`bench` whose create, update and delete each run under py-spy.

    chain.lifecycle_round drives it, so that a profile runs the very
    round the chain parts time; `stacks` holds each operation's samples.
    """

    def __init__(self, bench, py_spy, scratch, tag):
        self.bench, self.py_spy = bench, py_spy
        self.scratch, self.tag = scratch, tag
        self.stacks, self.collections, self.database = {}, {}, {}

    def __getattr__(self, name):
        return getattr(self.bench, name)

    def _recorded(self, op, *args, **kwargs):
        path = os.path.join(self.scratch, '%s-%s.txt' % (op, self.tag))
        with Recording(self.py_spy, path) as rec, FullCollections() as gcs, \
                DatabaseWork(self.bench.mariadb) as db:
            result = getattr(self.bench, op)(*args, **kwargs)
        self.stacks[op] = rec.stacks
        self.collections[op] = (gcs.count, gcs.seconds)
        self.database[op] = db.found
        return result

    def create(self, *args, **kwargs):
        return self._recorded('create', *args, **kwargs)

    def update(self, *args, **kwargs):
        return self._recorded('update', *args, **kwargs)

    def delete(self, *args, **kwargs):
        return self._recorded('delete', *args, **kwargs)


def profiled_round(bench, py_spy, kind, n, concurrent, tag, scratch):
    """A lifecycle round of `kind`.

    {operation: (seconds, stacks, (full collections, their seconds),
    database work)}.
    """
    recorded = RecordedBench(bench, py_spy, scratch,
                             '%s-%s' % (kind, tag))
    times = chain.lifecycle_round(recorded, kind, n, concurrent, tag)[0]
    return {op: (times[op], recorded.stacks[op], recorded.collections[op],
                 recorded.database[op])
            for op in chain.OPERATIONS}


def merged(rounds):
    """{op: (seconds, stacks, collections, database work)} of the rounds.

    Medians of the rounds, but the stacks: all rounds' together.
    """
    return {op: (harness.median([r[op][0] for r in rounds]),
                 [s for r in rounds for s in r[op][1]],
                 tuple(harness.median([r[op][2][i] for r in rounds])
                       for i in (0, 1)),
                 {key: harness.median([r[op][3][key] for r in rounds])
                  for key in rounds[0][op][3]})
            for op in chain.OPERATIONS}


def markdown(args, by_kind, origin):
    """The summary: per operation, each kind's time and layers."""
    rounds = args.rounds
    title = '# Profile: %s chain of %d, %s' % (args.mode, args.n,
                                               ', '.join(args.kinds))
    if args.segment_size is not None:
        title += ' (ours with chain_segment_size %d)' % args.segment_size
    lines = [title, '',
             origin, '',
             'py-spy, %d samples a second of the thread holding the GIL, '
             '%d round(s) a kind after one uncounted warm-up round; '
             'seconds of Python work per round, by layer (a sample counts '
             'to the first layer, in this order, one of its frames is in: '
             'the benchmark\'s own calls in the engine\'s process (its '
             '20 ms poll of the stack until it moved out), our plugin\'s code '
             'and what it calls, the in-tree chain\'s, the database, '
             'templates and functions, messaging, the rest of Heat); '
             'then the garbage collector\'s full collections in the '
             'engine\'s process during the operation (medians of the '
             'rounds; py-spy counts their time to the frame that triggered '
             'them, in whichever layer).'
             % (RATE, rounds), '']
    head = ('| operation | kind | wall s (median) | Python work s | ' +
            ' | '.join(summary.LAYER_NAMES) +
            ' | full collections (median) | their s |')
    lines += [head, '|' + '---|' * (6 + len(summary.LAYER_NAMES))]
    for op in chain.OPERATIONS:
        for kind in args.kinds:
            seconds, stacks, (collections, gc_seconds) = by_kind[kind][op][:3]
            per = summary.layers(stacks)
            total = sum(per.values())
            lines.append('| %s | %s | %.2f | %.2f | %s | %g | %.2f |' % (
                op, kind, seconds, total / RATE / rounds, ' | '.join(
                    '%.2f' % (per[name] / RATE / rounds)
                    for name in summary.LAYER_NAMES),
                collections, gc_seconds))
    lines += _database_section(args, by_kind)
    for other in (chain.INTREE, chain.FLOOR):
        if chain.OURS in by_kind and other in by_kind:
            lines += _grown_sections(by_kind, rounds, other)
    return '\n'.join(lines) + '\n'


def _database_section(args, by_kind):
    """Per operation and kind: CPU of the engine and MariaDB, statements."""
    lines = ['', '## CPU and the database', '',
             'Medians of the rounds: CPU seconds of the engine\'s process '
             '(this one, all its threads) and of MariaDB, and the statements '
             'MariaDB ran (the stack watch\'s reads, one each 20 ms, among '
             'the SELECTs). Wall time that is neither process\'s CPU is '
             'waiting (both share the machine\'s cores).', '',
             '| operation | kind | wall s | engine CPU s | MariaDB CPU s '
             '| SELECT | INSERT | UPDATE | DELETE |',
             '|---|---|---:|---:|---:|---:|---:|---:|---:|']
    for op in chain.OPERATIONS:
        for kind in args.kinds:
            seconds, _s, _c, db = by_kind[kind][op]
            lines.append('| %s | %s | %.2f | %.2f | %.2f | %d | %d | %d | '
                         '%d |' % ((op, kind, seconds, db['engine_cpu'],
                                    db['mariadb_cpu']) + tuple(
                             db[key] for key in DatabaseWork.STATEMENTS)))
    return lines


def _grown_sections(by_kind, rounds, other):
    """Per operation, the functions ours spends more time in than `other`."""
    lines = []
    for op in chain.OPERATIONS:
        ours = summary.inclusive(by_kind[chain.OURS][op][1])
        theirs = summary.inclusive(by_kind[other][op][1])
        lines += ['', '## %s: where ours spends more than %s' % (op, other),
                  '', '| function (with it on the stack) | ours s | %s s '
                  '| more s |' % other, '|---|---:|---:|---:|']
        for key, more in summary.grown(ours, theirs):
            lines.append('| `%s` | %.2f | %.2f | %.2f |' % (
                key, ours[key] / RATE / rounds,
                theirs.get(key, 0) / RATE / rounds, more / RATE / rounds))
    return lines


def origin():
    """A profile's first line: the commit, the tree, Heat, the time.

    Read as the profile begins: a commit made while it runs must not
    make it look measured on that commit.
    """
    return 'Commit %s%s, Heat %s, %s UTC.' % (
        stamp.git('rev-parse', '--short=10', 'HEAD'),
        '' if stamp.tree_clean() else ' (tree not clean)',
        stamp.heat_version(), time.strftime('%Y-%m-%d %H:%M', time.gmtime()))


def rounds_of(kinds, rounds, one_round, shown, prepare=None):
    """Each kind's rounds on the chain parts' engine, after a warm-up.

    one_round(bench, kind, tag, scratch) measures one (scratch: a
    directory of its own, removed at the end); shown(result) is its line
    of progress; prepare(bench), if given, runs before the warm-up. The
    kinds take turns in a balanced order. {kind: [result of each round]}.
    """
    scratch = tempfile.mkdtemp(prefix='hlp-rounds-')
    bench = harness.BenchEngine(os.path.join(scratch, 'engine'))
    try:
        bench.setUp()
        try:
            if prepare:
                prepare(bench)
            chain.warm_up(bench, harness.say)
            found = {kind: [] for kind in kinds}
            for r in range(rounds):
                for kind in round_order.balanced_order(tuple(kinds), r):
                    found[kind].append(
                        one_round(bench, kind, 'r%d' % r, scratch))
                    harness.say('  %s round %d: %s' % (
                        kind, r, shown(found[kind][-1])))
            return found
        finally:
            bench.cleanUp()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def write_report(path, text):
    """A tool's markdown written to `path`, and said so."""
    with open(path, 'w') as f:
        f.write(text)
    harness.say('report -> %s' % path)


def segment_size(size):
    """A prepare of rounds_of: ours' chain_segment_size set to `size`."""
    def prepare(bench):
        from oslo_config import cfg

        from heat_lifecycle_plugins import config
        cfg.CONF.set_override('chain_segment_size', size,
                              group=config.GROUP.name)
    return prepare


def run(argv=None):
    args = parse_args(argv)
    if not args.py_spy:
        print(NO_PY_SPY)
        return 2
    began = origin()
    rounds = rounds_of(
        args.kinds, args.rounds,
        lambda bench, kind, tag, scratch: profiled_round(
            bench, args.py_spy, kind, args.n,
            args.mode == 'concurrent', tag, scratch),
        lambda found: ', '.join('%s %.2fs' % (op, found[op][0])
                                for op in chain.OPERATIONS),
        None if args.segment_size is None else segment_size(
            args.segment_size))
    write_report(args.out, markdown(
        args, {k: merged(v) for k, v in rounds.items()}, began))
    return 0


if __name__ == '__main__':
    sys.exit(harness.main(run))
