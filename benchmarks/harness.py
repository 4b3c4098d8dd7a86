"""The benchmark's engine: one real in-process Heat engine for every benchmark.

Reuses the test harness (tests/inprocess_engine.py on a private MariaDB from
tests/services/mariadb.py) so that our types and the in-tree types run in the
same process, on the same engine, database and machine. The in-tree types
are registered under other names by benchmarks/upstream_types.py, copied
into the engine's plugin dir next to our loader.
"""

# Before any other heat import, as in tests/inprocess_engine.py.
from heat_lifecycle_plugins import heat_internals  # noqa: E402  isort:skip
heat_internals.select_engine_runtime()  # as heat-engine does, first
import heat.tests.common  # noqa: F401,E402  isort:skip

import os
import shutil
import statistics
import threading
import time

from heat.common import exception

from tests import inprocess_engine
from tests.services.mariadb import MariaDB

HERE = os.path.dirname(os.path.abspath(__file__))
UPSTREAM_PLUGIN = os.path.join(HERE, 'upstream_types.py')
TERMINAL = ('COMPLETE', 'FAILED')


def serialize_sync_point_parsing():
    """Convergence parses sync-point input with ast.literal_eval in
    concurrent threads (heat.engine.sync_point); this Python's ast is not
    thread-safe (CPython 3.11: "SystemError: AST constructor recursion depth
    mismatch", python/cpython#106905), which fails the update of a node with
    many concurrent inputs (the end node of a concurrent chain or floor at
    N=100). The benchmark parses one at a time, for every kind alike."""
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


class BenchmarkError(RuntimeError):
    """A benchmarked operation did not end as it should."""


def rss_bytes():
    """Resident set size of this process (the engine runs in it)."""
    with open('/proc/self/statm') as f:
        return int(f.read().split()[1]) * os.sysconf('SC_PAGE_SIZE')


class PeakRSS(object):
    """Samples this process's RSS in a thread; `peak` is the highest seen
    since the last reset()."""

    def __init__(self, interval=0.05):
        self.interval = interval
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self.reset()
        self._thread.start()
        return self

    def reset(self):
        self.peak = rss_bytes()

    def _run(self):
        while not self._stop.wait(self.interval):
            self.peak = max(self.peak, rss_bytes())

    def stop(self):
        self._stop.set()


class BenchEngine(object):
    """MariaDB + the in-process engine; stop() ends both (MariaDB by PID)."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.mariadb = None
        self.engine = None
        self.rss = None

    def start(self):
        if not MariaDB.available():
            raise BenchmarkError('mariadbd is not installed: run '
                                 'tools/install-system-deps.sh')
        os.makedirs(self.workdir, exist_ok=True)
        self.mariadb = MariaDB(os.path.join(self.workdir, 'mariadb')).start()
        engine = inprocess_engine.InProcessEngine(
            os.path.join(self.workdir, 'heat-engine'),
            self.mariadb.create_database())
        os.makedirs(engine.plugin_dir, exist_ok=True)
        shutil.copy(UPSTREAM_PLUGIN, os.path.join(
            engine.plugin_dir, 'hlp_benchmark_upstream_types.py'))
        # Heat 25-27's per-stack ThreadGroup refuses the 1001st thread and
        # never frees finished ones: every event takes one, so one engine
        # worker runs at most ~1000 events of a stack in its lifetime (a
        # 500-member chain fails to create). heat-engine spreads that over
        # workers; this single in-process worker cannot, so the benchmark
        # drops finished threads, for every type alike.
        heat_internals.forget_finished_threads()
        serialize_sync_point_parsing()
        self.engine = engine.start()
        self.rss = PeakRSS().start()
        return self

    def stop(self):
        try:
            if self.rss is not None:
                self.rss.stop()
            if self.engine is not None:
                self.engine.stop()
        finally:
            if self.mariadb is not None:
                self.mariadb.stop()

    # -- timed stack operations ---------------------------------------------

    def wait(self, ident, action, timeout, poll=0.02):
        """Wait for `action` to end COMPLETE; the stack (None if deleted)."""
        eng = self.engine
        deadline = time.monotonic() + timeout
        while True:
            try:
                stack = eng.show(ident, resolve_outputs=False)
            except exception.EntityNotFound:
                if action == 'DELETE':
                    return None
                raise
            if (stack['stack_action'] == action and
                    stack['stack_status'] in TERMINAL):
                if stack['stack_status'] != 'COMPLETE':
                    raise BenchmarkError('%s %s: %s' % (
                        action, stack['stack_status'],
                        stack['stack_status_reason']))
                return stack
            if time.monotonic() > deadline:
                raise BenchmarkError('%s did not end in %ss (%s_%s)' % (
                    action, timeout, stack['stack_action'],
                    stack['stack_status']))
            time.sleep(poll)

    def timed(self, action, start, timeout):
        """Run start() (an RPC call returning the stack identity), wait for
        `action` to complete; (seconds, identity)."""
        began = time.monotonic()
        ident = start()
        self.wait(ident, action, timeout)
        return time.monotonic() - began, ident

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
