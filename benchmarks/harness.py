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
"""The benchmark's engine: one real in-process Heat engine for every benchmark.

Reuses the test harness (heat_lifecycle_fixtures: the in-process
engine on a private MariaDB) so that our types and the in-tree types run in
the same process, on the same engine, database and machine. The in-tree types
are registered under other names by benchmarks/upstream_types.py, copied
into the engine's plugin dir next to our loader.
"""

# Before any other heat import, as in the in-process engine; the imports
# after this call are E402 by design.
from heat_lifecycle_plugins import heat_internals  # isort:skip
heat_internals.select_engine_runtime()  # as heat-engine does, first
import heat.tests.common  # noqa: F401,E402  isort:skip

import argparse  # noqa: E402
import contextlib  # noqa: E402
import faulthandler  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

import fixtures  # noqa: E402

from benchmarks import stack_watch  # noqa: E402
from heat_lifecycle_fixtures import inprocess_engine  # noqa: E402
from heat_lifecycle_fixtures.mariadb import MariaDB  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
UPSTREAM_PLUGIN = os.path.join(HERE, 'upstream_types.py')


def serialize_sync_point_parsing():
    """Make the engine parse sync-point input one call at a time.

    Convergence parses sync-point input with ast.literal_eval in concurrent
    threads (heat.engine.sync_point); this Python's ast is not thread-safe
    (CPython 3.11: "SystemError: AST constructor recursion depth mismatch",
    python/cpython#106905), which fails the update of a node with many
    concurrent inputs (the end node of a concurrent chain or floor at N=100).
    The benchmark parses one at a time, for every kind alike.
    """
    import ast
    import types

    from heat.engine import sync_point

    if isinstance(sync_point.ast, types.SimpleNamespace):
        return
    lock = threading.Lock()

    def literal_eval(text):
        with lock:
            return ast.literal_eval(text)
    sync_point.ast = types.SimpleNamespace(literal_eval=literal_eval)


class Terminated(SystemExit):
    """SIGTERM: the run ends through its cleanups."""


def main(run):
    """A benchmark command: run() and its exit status.

    SIGTERM ends the run through its cleanups (the services it started are
    stopped by their PIDs), then the process at once: threads of work the
    engine had not finished do not hold it. SIGUSR1 prints every thread's
    stack to stderr, so that a run that hangs shows where.
    """
    def terminate(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once is enough
        raise Terminated(143)
    signal.signal(signal.SIGTERM, terminate)
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    try:
        return run()
    except Terminated as exc:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(exc.code)


def add_output_arguments(parser):
    """--results-dir and --workdir, as every benchmark takes them."""
    parser.add_argument('--results-dir', default=os.path.join(HERE,
                                                              'results'))
    parser.add_argument('--workdir', help='scratch directory (default: a '
                                          'temporary one, removed '
                                          'afterwards)')


def parse_count_args(argv, module, doc, flag, default, what, kinds=()):
    """A run's arguments: `flag` N, how many `what`, and the outputs.

    module: the run's module (its prog); doc: its docstring; kinds: the
    kinds it measures, all by default, some with --kinds.
    """
    parser = argparse.ArgumentParser(prog='python -m ' + module,
                                     description=doc.splitlines()[0])
    parser.add_argument(flag, type=int, default=default,
                        help='%s (default %d)' % (what, default))
    if kinds:
        parser.add_argument('--kinds', nargs='+', choices=kinds,
                            default=list(kinds), help='the kinds to run')
    add_output_arguments(parser)
    return parser.parse_args(argv)


def say(text):
    """A line of a run's progress, shown at once."""
    print(text, flush=True)


@contextlib.contextmanager
def lone_engine(workdir, prefix, plugins=()):
    """One in-process engine on a private MariaDB, as the functional tier.

    In `workdir`, or a temporary directory (`prefix`) removed afterwards.
    """
    scratch = workdir or tempfile.mkdtemp(prefix=prefix)
    try:
        with MariaDB(os.path.join(scratch, 'mariadb')) as mariadb, \
                inprocess_engine.InProcessEngine(
                    os.path.join(scratch, 'heat-engine'),
                    mariadb.create_database(), plugins=plugins) as engine:
            from heat.engine import scheduler
            scheduler.ENABLE_SLEEP = False  # as the functional tests
            engine.ctx = inprocess_engine.context_with_heat_catalog(
                engine.ctx)
            yield engine
    finally:
        if not workdir:
            shutil.rmtree(scratch, ignore_errors=True)


class BenchmarkError(RuntimeError):
    """A benchmarked operation did not end as it should."""


def rss_bytes():
    """Resident set size of this process (the engine runs in it)."""
    with open('/proc/self/statm') as f:
        return int(f.read().split()[1]) * os.sysconf('SC_PAGE_SIZE')


def _status_kib(field):
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith(field + ':'):
                return int(line.split()[1]) * 1024
    return None


class PeakRSS(object):
    """This process's peak RSS, as the kernel keeps it (VmHWM).

    No sampler thread competes with the engine for the GIL: reset() clears
    the kernel's high-water mark (/proc/self/clear_refs, Linux 4.0+);
    `peak` reads it. Where the mark cannot be cleared, `peak` is the
    process's peak since it started.
    """

    def start(self):
        self.reset()
        return self

    def reset(self):
        try:
            with open('/proc/self/clear_refs', 'w') as f:
                f.write('5')
        except OSError:
            pass

    @property
    def peak(self):
        return _status_kib('VmHWM') or rss_bytes()

    def stop(self):
        pass


class BenchEngine(fixtures.Fixture):
    """MariaDB + the in-process engine, both stopped at cleanUp.

    MariaDB is stopped by its PID.
    """

    def __init__(self, workdir, forget_threads=True,
                 max_resources_per_stack=None):
        super(BenchEngine, self).__init__()
        self.workdir = workdir
        self.forget_threads = forget_threads
        self.max_resources_per_stack = max_resources_per_stack
        self.last_cpu_share = None

    def _setUp(self):
        if not MariaDB.available():
            raise BenchmarkError('mariadbd is not installed: run '
                                 'tools/install-system-deps.sh')
        self.mariadb = self.useFixture(
            MariaDB(os.path.join(self.workdir, 'mariadb')))
        # Heat 25-27's per-stack ThreadGroup refuses the 1001st thread and
        # never frees finished ones: every event takes one, so one engine
        # worker runs at most ~1000 events of a stack in its lifetime (a
        # 500-member flat chain fails to create). The lifecycle benchmarks
        # drop finished threads, for every kind alike; the scale benchmark
        # (forget_threads=False) runs the engine as it is.
        if self.forget_threads:
            heat_internals.forget_finished_threads()
        serialize_sync_point_parsing()
        self.engine = self.useFixture(inprocess_engine.InProcessEngine(
            os.path.join(self.workdir, 'heat-engine'),
            self.mariadb.create_database(), plugins=[UPSTREAM_PLUGIN]))
        if self.max_resources_per_stack is not None:
            from oslo_config import cfg
            cfg.CONF.set_override('max_resources_per_stack',
                                  self.max_resources_per_stack)
        self.rss = PeakRSS().start()
        self.addCleanup(self.rss.stop)
        self.watch = stack_watch.StackWatch(self.engine.db_url).start()
        self.addCleanup(self.watch.stop)

    # -- timed stack operations ---------------------------------------------

    def wait(self, ident, action, timeout):
        """Wait for `action` to end COMPLETE; the stack's row (None if gone).

        From outside the engine's process (benchmarks/stack_watch.py).
        Without forget_threads, a stack whose thread budget is spent never
        ends its action: stop waiting then.
        """
        return self.watch.wait(ident['stack_id'], action, timeout,
                               on_poll=self._check_budgets)

    def _check_budgets(self):
        if self.forget_threads:
            return
        spent = heat_internals.spent_thread_budgets(self.engine.service)
        if spent:
            raise BenchmarkError(
                'the thread budget of stack %s is spent (Heat refuses its '
                'next thread: "Maximum number of threads reached")'
                % ', '.join(spent))

    def timed(self, action, start, timeout):
        """Run start(), wait for `action` to complete; (seconds, identity).

        start is an RPC call returning the stack identity.
        """
        began, cpu = time.monotonic(), time.process_time()
        ident = start()
        self.wait(ident, action, timeout)
        seconds = time.monotonic() - began
        # CPU time of this process (the engine's threads; the stack watch
        # is a process of its own) per second of the operation: close to
        # 1.0 means the engine kept one core busy, all Python threads can
        # get.
        self.last_cpu_share = (time.process_time() - cpu) / seconds
        return seconds, ident

    def create(self, template, name, timeout, environment=None):
        eng = self.engine
        return self.timed('CREATE', lambda: eng.create(
            template, name=name, environment=environment, wait=False,
            timeout_mins=max(1, int(timeout // 60) + 1)), timeout)

    def update(self, ident, template, timeout, environment=None):
        eng = self.engine
        return self.timed('UPDATE', lambda: eng.update(
            ident, template, environment=environment, wait=False),
            timeout)[0]

    def delete(self, ident, timeout):
        eng = self.engine
        return self.timed('DELETE', lambda: (
            eng.delete(ident, wait=False), ident)[1], timeout)[0]


def median(values):
    return statistics.median(values) if values else None


def ratio(ours, theirs):
    if ours is None or not theirs:
        return None
    return ours / theirs
