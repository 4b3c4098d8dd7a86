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
"""A concurrent chain on heat-engine processes sharing RabbitMQ and MariaDB.

What a multi-host deployment runs: `count` unmodified heat-engine processes
(one worker each, our loader and benchmarks/upstream_types.py in their
plugin_dirs) on one RabbitMQ and one MariaDB, driven through the engine RPC
API as heat-api drives it. The in-tree chain's concurrency is the number of
engine services (it makes each member depend on the member that many places
before it); ours runs its lanes whatever the number of engines. Runs in a
process of its own (its RPC transport is RabbitMQ, not the in-process
engine's fake://):

    python -m benchmarks.engines N ROUNDS [--engines 2]   (prints JSON)

After each create it checks that every member exists once, COMPLETE,
and was not created twice (no second CREATE_COMPLETE event; Heat may
have pruned the first ones of a big stack), and at the end that no
engine logged a lock error (LOCK_ERRORS) while that kind ran. A kind whose
stack spends Heat's per-stack thread budget (an engine logs THREAD_BUDGET)
stops there: its failure is recorded, and its later rounds are not run (its
action never ends, so waiting for it would only take the timeout). The
engine processes are then restarted, as an operator would: the failed
stack's threads and log lines must not be charged to the next kind, and
the logs do not say which stack a line is about.
"""

import argparse
import collections
import contextlib
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# chain imports harness, which selects Heat's concurrency model first, as
# heat-engine does: the Heat imports below are E402 by design.
from benchmarks import chain  # isort:skip
from benchmarks import harness  # noqa: E402
from benchmarks import report  # noqa: E402
from benchmarks import round_order  # noqa: E402
from heat_lifecycle_fixtures import conf  # noqa: E402
from heat_lifecycle_fixtures import inprocess_engine  # noqa: E402
from heat_lifecycle_fixtures.mariadb import MariaDB  # noqa: E402
from heat_lifecycle_fixtures import process  # noqa: E402
from heat_lifecycle_fixtures.rabbitmq import RabbitMQ  # noqa: E402
from heat_lifecycle_fixtures import service  # noqa: E402
from heat_lifecycle_plugins import plugin_dir_installer  # noqa: E402
from oslo_config import cfg  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
GATES = ('chain_start', 'chain_end')  # our nested stack's gates
NESTED_DEPTH = 5  # segments of segments of a long chain
LOCK_ERRORS = re.compile(r'ActionInProgress|StackLock|lock(ed)? (by|held)|'
                         r'Failed to (steal|acquire|release)', re.I)
QUIET_LOGGERS = ('amqp=WARN', 'amqplib=WARN', 'sqlalchemy=WARN',
                 'oslo.messaging=INFO', 'oslo_messaging=INFO',
                 'stevedore=WARN', 'urllib3=WARN', 'keystonemiddleware=WARN',
                 'routes.middleware=WARN')
THREAD_BUDGET = 'Maximum number of threads reached'


def engine_settings(rabbitmq, db_url, plugin_dir, empty_dir):
    return {
        'DEFAULT': {
            'transport_url': rabbitmq.transport_url,
            'plugin_dirs': plugin_dir,
            'num_engine_workers': 1,
            'convergence_engine': 'true',
            'deferred_auth_method': 'password',
            'auth_encryption_key': 'k' * 32,
            'environment_dir': empty_dir,
            'template_dir': empty_dir,
            'max_resources_per_stack': -1,
            'periodic_interval': 3600,
            # INFO, but the engine's "Service ... is started" (DEBUG),
            # which says it takes calls.
            'default_log_levels': ','.join(QUIET_LOGGERS + (
                'heat.engine.service=DEBUG',)),
        },
        'database': {'connection': db_url},
        'oslo_messaging_rabbit': rabbitmq.client_options,
    }


class HeatEngines(service.Service):
    """`count` heat-engine processes of one heat.conf."""

    stop_timeout = 40  # heat-engine can take 10-30 s to stop

    def __init__(self, workdir, mariadb, rabbitmq, count):
        super(HeatEngines, self).__init__(workdir)
        self.mariadb = mariadb
        self.rabbitmq = rabbitmq
        self.count = count

    def _start(self):
        plugin_dir = self.path('plugins')
        empty_dir = self.path('empty')
        os.makedirs(empty_dir, exist_ok=True)
        plugin_dir_installer.install_loader(plugin_dir)
        shutil.copy(harness.UPSTREAM_PLUGIN, plugin_dir)
        self.conf = conf.write_ini(self.path('heat.conf'),
                                   engine_settings(
            self.rabbitmq, self.mariadb.create_database(), plugin_dir,
            empty_dir))
        process.run(self._command('heat.cmd.manage') + ['db_sync'],
                    'heat-manage db_sync')
        self.engines = [self.spawn('heat-engine-%d' % i,
                                   self._command('heat.cmd.engine'),
                                   cwd=self.workdir)
                        for i in range(self.count)]
        process.wait_until(self._started, 120, 'heat-engine processes',
                           interval=0.2)

    @property
    def logs(self):
        return [self.path('heat-engine-%d.log' % i)
                for i in range(self.count)]

    def restart(self):
        """Stop every engine process, start it again, wait until it serves.

        Their logs are appended to.
        """
        seen = [os.path.getsize(log) for log in self.logs]
        for proc in self.engines:
            proc.stop(self.stop_timeout)
        self.engines = [self.respawn(proc) for proc in self.engines]
        process.wait_until(functools.partial(self._started, seen), 120,
                           'heat-engine processes restarted', interval=0.2)

    def _command(self, module):
        return [sys.executable, '-c',
                'import sys; from %s import main; sys.exit(main())'
                % module, '--config-file', self.conf]

    def _started(self, seen=None):
        """Whether each log says its engine started (after `seen` bytes)."""
        for log, offset in zip(self.logs, seen or [0] * self.count):
            with open(log, errors='replace') as f:
                f.seek(offset)
                if ' is started' not in f.read():
                    return False
        return True


def start_engines(stack, workdir, count):
    """MariaDB, RabbitMQ, `count` heat-engine processes; (url, them)."""
    mariadb = stack.enter_context(MariaDB(os.path.join(workdir, 'mariadb')))
    rabbitmq = stack.enter_context(RabbitMQ(os.path.join(workdir, 'rabbit')))
    engines = stack.enter_context(HeatEngines(
        os.path.join(workdir, 'engines'), mariadb, rabbitmq, count))
    return rabbitmq.transport_url, engines


def peak_rss(pids):
    """Sum of the processes' peak RSS (VmHWM), bytes."""
    total = 0
    for pid in pids:
        with open('/proc/%d/status' % pid) as f:
            for line in f:
                if line.startswith('VmHWM:'):
                    total += int(line.split()[1]) * 1024
    return total


def member_problems(driver, ident, n):
    """What is wrong with the members after a create ([] if nothing)."""
    return problems_of(driver.resources(ident, NESTED_DEPTH),
                       driver.events(ident, nested_depth=NESTED_DEPTH), n)


def problems_of(resources, events, n):
    """What is wrong with a chain's members, from what Heat lists.

    The resource table says whether every member exists, COMPLETE. The
    events can only say whether a member was created twice: once a stack
    holds max_events_per_stack events, Heat deletes its oldest ones, so a
    member's CREATE_COMPLETE may be gone although it was created.
    """
    def is_member(r):
        # The top stack holds only the chain: any None there is nested.
        return (r['resource_type'] == chain.MEMBER and
                r['resource_name'] not in GATES)

    def key(r):
        # Segments each hold members of the same names.
        return r['stack_identity']['stack_id'], r['resource_name']

    members = [r for r in resources if is_member(r)]
    problems = []
    distinct = len({key(r) for r in members})
    if distinct != n:
        problems.append('%d members, not %d' % (distinct, n))
    states = {(r['resource_action'], r['resource_status']) for r in members}
    if states - {('CREATE', 'COMPLETE')}:
        problems.append('member states %s' % sorted(states))
    created = collections.Counter(
        key(e) for e in events
        if is_member(e) and e['resource_action'] == 'CREATE' and
        e['resource_status'] == 'COMPLETE')
    twice = sorted(name for (_, name), count in created.items() if count > 1)
    if twice:
        problems.append('created more than once: %s' % ', '.join(twice))
    return problems


class LogTail(object):
    """The lines a set of logs gained since the last read."""

    def __init__(self, logs):
        self.offsets = {log: 0 for log in logs}

    def gained(self):
        """[(log, line)] written since the last call (or the start)."""
        lines = []
        for log, offset in self.offsets.items():
            with open(log, errors='replace') as f:
                f.seek(offset)
                text = f.read()
                self.offsets[log] = f.tell()
            lines += [(log, line) for line in text.splitlines()]
        return lines


class BudgetSpent(Exception):
    """An engine refused a stack's next thread."""


class BudgetWatch(object):
    """The engines' logs, read once: thread budget and lock errors.

    Called as driver.wait's on_poll, it raises BudgetSpent once a log
    says THREAD_BUDGET; it reads only what the logs gained since its
    last look, at most once a `every` seconds. The lock errors it reads
    are kept for lock_errors().
    """

    def __init__(self, logs, every=1.0):
        self.tail = LogTail(logs)
        self.every = every
        self.looked = None
        self.locks = []
        self.spent = None  # the first budget message not yet raised

    def __call__(self, state=None):
        now = time.monotonic()
        if self.spent is None and (self.looked is None or
                                   now - self.looked >= self.every):
            self.looked = now
            self._read()
        if self.spent:
            spent, self.spent = self.spent, None
            raise BudgetSpent(spent)

    def lock_errors(self):
        """The lock errors logged since the last call, to the logs' ends.

        A budget message read on the way is raised by the next call.
        """
        self._read()
        found, self.locks = self.locks, []
        return found

    def restarted(self):
        """After the engines' restart: the lock errors of their stop.

        Budget messages of the old engines are dropped.
        """
        found = self.lock_errors()
        self.spent = None
        return found

    def _read(self):
        for log, line in self.tail.gained():
            if LOCK_ERRORS.search(line):
                self.locks.append(line.strip()[:200])
            if self.spent is None and THREAD_BUDGET in line:
                self.spent = budget_message(log, line)


def budget_message(log, line):
    """The log line's message, after its request context, and the log."""
    message = line.strip().split('] ', 1)[-1]
    return '%s (%s)' % (message[:300], os.path.basename(log))


def timed_step(driver, action, start, timeout, watch):
    began = time.monotonic()
    ident = start()
    driver.wait(ident, action, 'COMPLETE', timeout, interval=0.05,
                on_poll=watch)
    return time.monotonic() - began, ident


def start_step(driver, op, ident, kind, n, r):
    """Start the stack's `op` (create: version v1, update: v2); its id."""
    template, env = chain.stack_args(kind, n, True,
                                     'v1' if op == 'create' else 'v2')
    if op == 'create':
        return driver.create(template, name='multi-%s-%d' % (
            kind.replace('-', ''), r), environment=env, wait=False)
    if op == 'update':
        return driver.update(ident, template, environment=env, wait=False)
    driver.delete(ident, wait=False)
    return ident


def one_round(driver, kind, n, r, timeout, watch):
    """Create (checked), update, delete; ({op: s}, problems, failure).

    failure: None, or the step at which `watch` saw the budget spent.
    """
    times, problems, ident = {}, [], None
    for op in chain.OPERATIONS:
        try:
            times[op], ident = timed_step(
                driver, op.upper(), functools.partial(
                    start_step, driver, op, ident, kind, n, r),
                timeout, watch)
        except BudgetSpent as exc:
            return times, problems, 'round %d, %s: %s' % (r, op, exc)
        if op == 'create':
            problems = member_problems(driver, ident, n)
    return times, problems, None


def play(order, one, restart):
    """Run one(r, kind) for each (round, kind) of `order`.

    one returns a failure (or None); a kind that failed is not run again.
    restart(kind, r) is called after a failure when another kind has rounds
    left. Returns ({kind: failure}, ['after <kind> stopped at round <r>']).
    """
    failures, restarts = {}, []
    for i, (r, kind) in enumerate(order):
        if kind in failures:
            continue
        failure = one(r, kind)
        if not failure:
            continue
        failures[kind] = failure
        if any(k not in failures for _, k in order[i + 1:]):
            restart(kind, r)
            restarts.append('after %s stopped at round %d' % (kind, r))
    return failures, restarts


def run_rounds(n, rounds, count, workdir):
    with contextlib.ExitStack() as stack:
        url, engines = start_engines(stack, workdir, count)
        # The engines' heat.conf: the same RabbitMQ options (durable
        # queues), or the driver's exchange declaration is refused.
        cfg.CONF(['--config-file', engines.conf], project='heat')
        driver = inprocess_engine.EngineDriver()
        driver.use_rpc(url)
        kinds = (chain.OURS, chain.INTREE)
        samples = {kind: {op: [] for op in chain.OPERATIONS}
                   for kind in kinds}
        problems = {kind: [] for kind in kinds}
        locks = {kind: [] for kind in kinds}
        peaks = []
        watch = BudgetWatch(engines.logs)

        def one(r, kind):
            times, found, failure = one_round(
                driver, kind, n, r, 120 + 3 * n, watch)
            for op, seconds in times.items():
                samples[kind][op].append(seconds)
            problems[kind] += ['round %d: %s' % (r, p) for p in found]
            locks[kind] += watch.lock_errors()
            return failure

        def restart(kind, r):
            peaks.append(peak_rss(p.pid for p in engines.engines))
            engines.restart()
            locks[kind] += watch.restarted()  # its stack's, at the stop

        failures, restarts = play(
            [(r, kind) for r in range(rounds)
             for kind in round_order.balanced_order(kinds, r)],
            one, restart)
        peaks.append(peak_rss(p.pid for p in engines.engines))
        return {'n': n, 'engines': count, 'rounds': rounds,
                'samples': samples, 'peak_rss': max(peaks),
                'problems': problems, 'failures': failures,
                'restarts': restarts, 'lock_errors': locks}


def run(n, rounds, log, count=2):
    """run_rounds in a fresh process; its result (or {'failed': ...})."""
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix='hlp-engines-') as workdir:
        proc = subprocess.run(
            [sys.executable, '-m', 'benchmarks.engines', str(n), str(rounds),
             '--engines', str(count), '--workdir', workdir],
            cwd=os.path.dirname(HERE), capture_output=True, text=True,
            timeout=rounds * 2 * 3 * (120 + 3 * n) + 300)
    lines = [line for line in proc.stdout.splitlines()
             if line.startswith('{')]
    if proc.returncode or not lines:
        result = {'n': n, 'engines': count, 'failed': 'run exited %d: %s' % (
            proc.returncode, proc.stderr.strip()[-500:])}
    else:
        result = json.loads(lines[-1])
    log('  %d engine processes, concurrent N=%d: %s (%.0f s)' % (
        count, n, result.get('failed') or json.dumps(result['samples']),
        time.monotonic() - began))
    return result


def medians(result):
    return {kind: {op: harness.median(values) for op, values in ops.items()}
            for kind, ops in result['samples'].items()}


def markdown(result):
    if result.get('failed'):
        return 'FAILED: %s' % result['failed']
    med = medians(result)
    lines = [
        '%d unmodified heat-engine processes (one worker each) on one '
        'RabbitMQ and one MariaDB, driven through the engine RPC API; '
        'concurrent chain of %d OS::Heat::None; medians of %d rounds; peak '
        'RSS of the engine processes together %s MiB.' % (
            result['engines'], result['n'], result['rounds'],
            report.fmt(result['peak_rss'] / report.MIB, 0)),
        '',
        '| operation | ours (s) | in-tree (s) | in-tree / ours |',
        '|---|---:|---:|---:|']
    for op in chain.OPERATIONS:
        o, i = med[chain.OURS][op], med[chain.INTREE][op]
        lines.append('| %s | %s | %s | %s |' % (
            op, report.fmt(o), report.fmt(i),
            report.fmt(harness.ratio(i, o), 1, 'x')))
    for kind, failure in sorted(result.get('failures', {}).items()):
        lines += ['', '%s stopped at %s (its later rounds not run).' % (
            kind, failure)]
    if result.get('restarts'):
        lines += ['', 'Engine processes restarted: %s.' % '; '.join(
            result['restarts'])]
    return '\n'.join(lines)


def kind_lock_errors(result, kind):
    """The lock errors logged while `kind` ran.

    Results measured before the engines were restarted after a failure
    hold one list for both kinds: all of it is charged to each.
    """
    locks = result.get('lock_errors', [])
    return locks.get(kind, []) if isinstance(locks, dict) else locks


def targets(result):
    """Two engine processes: every member once, no lock errors."""
    title = ('concurrent N=%d on %d engine processes: every member once, '
             'no lock errors' % (result['n'], result['engines']))
    if result.get('failed'):
        return [(title, result['failed'][:200], 'MISSED')]
    failures = result.get('failures', {})
    problems = list(result.get('problems', {}).get(chain.OURS, []))
    problems += [failures[chain.OURS]] if chain.OURS in failures else []
    locks = kind_lock_errors(result, chain.OURS)
    med = medians(result)
    seen = 'in-tree / ours: ' + ', '.join(
        '%s %s' % (op, report.fmt(harness.ratio(
            med[chain.INTREE][op], med[chain.OURS][op]), 1, 'x'))
        for op in chain.OPERATIONS)
    if chain.INTREE in failures:
        seen += '; in-tree stopped at ' + failures[chain.INTREE]
    if problems or locks:
        seen += '; ' + '; '.join((problems + locks)[:3])
    return [(title, seen, 'MISSED' if problems or locks else 'met')]


def main(argv):
    p = argparse.ArgumentParser(prog='python -m benchmarks.engines')
    p.add_argument('n', type=int)
    p.add_argument('rounds', type=int)
    p.add_argument('--engines', type=int, default=2)
    p.add_argument('--workdir', required=True)
    args = p.parse_args(argv)
    print(json.dumps(run_rounds(args.n, args.rounds, args.engines,
                                args.workdir)), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
