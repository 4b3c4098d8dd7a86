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
"""The ExternalResource cases, on the loopback cloud (external_cloud).

A window is a batch of stacks created at once through heat-api as the
demo user, each one ExternalResource whose CREATE workflow (its own, so
that every Mistral call names its stack) is one std.http call the
DelayServer answers after the workflow's length. Per stack: SUCCESS ->
COMPLETE, its Mistral calls and how it ended (told, or found by the
fallback poll); per window: the engine workers' threads in use.

- in_rounds(): each round a window of ours then one of in-tree, the
  order changing each round (round_order);
- side_by_side(): windows of both types, interleaved, the order
  changing per pair, one window after another; with lose=True
  heat-api-cfn is down while the workflows end (their notifications are
  lost).
"""

import concurrent.futures
import itertools
import time

from benchmarks import external_watch as watch
from benchmarks import harness
from benchmarks import round_order
from benchmarks.upstream_types import UPSTREAM_EXTERNAL
from heat_lifecycle_fixtures import faults
from heat_lifecycle_fixtures import stacks

OURS, INTREE = 'ours', 'in-tree'
KINDS = (OURS, INTREE)
TYPES = {OURS: 'OS::Mistral::ExternalResource', INTREE: UPSTREAM_EXTERNAL}
# Workflow lengths move by an eighth of a second from stack to stack, so
# that SUCCESS falls at every phase of the in-tree type's ~1 s polling.
PHASES = 8
CREATORS = 4  # stacks created at once through heat-api
SETTLE = 2.0  # seconds after a window's deletes before the next baseline
# Seconds heat-api may take to return finished what Heat's database shows.
API_SLACK = 30
WORKFLOW = """
%s:
  input: [delay_url, timeout]
  output:
    slept: <%% $.delay_url %%>
  tasks:
    wait:
      action: std.http
      input:
        url: <%% $.delay_url %%>
        method: GET
        timeout: <%% $.timeout %%>
"""
_tags = itertools.count()


def template(kind, workflow, delay_url, seconds):
    return {'heat_template_version': '2016-10-14',
            'resources': {'ext': {
                'type': TYPES[kind],
                'properties': {
                    'actions': {'CREATE': {'workflow': workflow}},
                    'input': {'delay_url': delay_url,
                              'timeout': int(seconds) + 120}}}}}


def found_at(events):
    """When ours' event saying the execution ended was first read, or None.

    Ours adds it once the check read the ended execution from Mistral,
    before Heat stores the state: it splits SIGNAL -> COMPLETE into the
    check's part and Heat's.
    """
    return next((e.seen for e in events
                 if ' ended: ' in e.reason and
                 e.reason.startswith('Mistral execution ')), None)


def how_it_ended(events):
    """told / fallback (ours' events say which), polled, or None."""
    for event in events:
        if event.reason.endswith('ended: told by Mistral'):
            return 'told'
        if 'found by the fallback poll' in event.reason:
            return 'fallback'
    if any('polling it' in e.reason for e in events):
        return 'polled'
    return None


class Window(object):
    """One batch of stacks: entries [(kind, seconds, round)]."""

    def __init__(self, env, case, entries):
        self.env = env
        self.tag = '%s%d' % (case, next(_tags))
        self.stacks = [dict(kind=kind, seconds=seconds, round=round_,
                            workflow='bx_%s_%d' % (self.tag, i))
                       for i, (kind, seconds, round_) in enumerate(entries)]
        self.driver = None
        self.api = None  # watch.ApiReads, once the stacks exist

    def _create(self, indices):
        hc = self.env.heat()
        for i in indices:
            s = self.stacks[i]
            s['name'] = 'bx-%s-%d' % (self.tag, i)
            created = hc.stacks.create(
                stack_name=s['name'], parameters={},
                template=template(s['kind'], s['workflow'],
                                  self.env.delays.url(s['seconds']),
                                  s['seconds']))
            s['stack'] = created['stack']['id']
            s['created'] = time.time()

    def create(self):
        """Register the workflows, take the baseline, create the stacks."""
        self.env.mistral.workflows.create("version: '2.0'\n" + ''.join(
            WORKFLOW % s['workflow'] for s in self.stacks))
        time.sleep(SETTLE)
        now = time.time()
        idle = self.env.threads.between(now - SETTLE, now)
        # The least: a delete's or a periodic task's thread passing by
        # is not idle (the smoke run's median took in one).
        self.baseline = min(idle) if idle else None
        self.env.proxy.take_requests()  # calls before the window: nobody's
        self.driver = stacks.StackDriver(self.env.heat(), self.env.workdir,
                                         prefix='bx')
        self.driver.setUp()
        shares = [list(range(n, len(self.stacks), CREATORS))
                  for n in range(min(CREATORS, len(self.stacks)))]
        with concurrent.futures.ThreadPoolExecutor(len(shares)) as pool:
            for done in [pool.submit(self._create, share)
                         for share in shares]:
                done.result()
        self.driver.stack_ids.extend(s['stack'] for s in self.stacks)
        self.api = watch.ApiReads(self.env.heat, self.env.events,
                                  self.stacks).start()

    def wait_started(self, timeout):
        """Until every execution runs (for ours: with its webhook)."""
        def started(s, running):
            reasons = [e.reason for e in self.env.events.of(s['stack'],
                                                            'ext')]
            want = 'Mistral tells' if s['kind'] == OURS else ''
            return s['workflow'] in running and any(want in r
                                                    for r in reasons)

        def all_started():
            running = self.running()
            return all(started(s, running) for s in self.stacks)
        self._until(all_started, timeout, 'every execution started')

    def running(self):
        return self.env.mistral_log.read().executions_of(
            {s['workflow'] for s in self.stacks})

    def wait_ended(self, timeout):
        """Until every execution ended, as Mistral's log shows."""
        def ended():
            found = self.running()
            return len(found) == len(self.stacks) and all(
                e in self.env.mistral_log.ended for e in found.values())
        self._until(ended, timeout, 'every execution ended in Mistral')

    def wait_complete(self, timeout):
        def done(s):
            return self.env.events.first(s['stack'], 'ext', 'CREATE',
                                         stacks.TERMINAL)
        self._until(lambda: all(done(s) for s in self.stacks), timeout,
                    'every ExternalResource COMPLETE')
        self._until(self.api.done, API_SLACK,
                    'heat-api returning every ExternalResource finished')

    def _until(self, check, timeout, what):
        deadline = time.monotonic() + timeout
        while not check():
            if self.env.events.error is not None:
                raise harness.BenchmarkError('reading Heat\'s events: %s'
                                             % self.env.events.error)
            if self.api is not None and self.api.error is not None:
                raise harness.BenchmarkError('reading through heat-api: %s'
                                             % self.api.error)
            if time.monotonic() > deadline:
                raise harness.BenchmarkError('%s %s: not in %d s' % (
                    self.tag, what, timeout))
            time.sleep(0.1)

    def collect(self):
        """Each stack's figures, and the window's threads and calls."""
        executions = self.running()
        owners = {}
        for n, s in enumerate(self.stacks):
            owners[s['workflow']] = n
            if s['workflow'] in executions:
                owners[executions[s['workflow']]] = n
        mine, nobody = watch.attribute(self.env.proxy.take_requests(),
                                       owners)
        for n, s in enumerate(self.stacks):
            self._figures(s, executions.get(s['workflow']), mine[n])
        busiest = busy_stretches(self._spans(executions))
        return {'kinds': sorted({s['kind'] for s in self.stacks}),
                'rounds': sorted({s['round'] for s in self.stacks}),
                'stacks': len(self.stacks), 'unattributed': dict(nobody),
                'at_once': busiest[0] if busiest else 0,
                'threads': self._threads(busiest)}

    def _spans(self, executions):
        """(start, end) of each execution (Mistral's log), by start."""
        log = self.env.mistral_log
        return sorted((log.started[e], log.ended[e][1]) for e in
                      executions.values()
                      if e in log.started and e in log.ended)

    def _figures(self, s, execution, calls):
        log = self.env.mistral_log
        events = self.env.events.of(s['stack'], 'ext')
        end = self.env.events.first(s['stack'], 'ext', 'CREATE',
                                    stacks.TERMINAL)
        state, success = log.ended.get(execution, (None, None))
        signal = self.env.events.first(s['stack'], 'ext', 'SIGNAL',
                                       ('IN_PROGRESS', 'COMPLETE', 'FAILED'))
        arrived = self.env.cfn_log.read().arrived.get(s['stack'])
        read_back, read = self.api.seen.get(s['stack'], (None, None))
        s.update(execution=execution, mistral_state=state, success=success,
                 complete=end.seen, status=end.status,
                 latency=(end.seen - success) if success else None,
                 api_seen=read_back, api_read=read,
                 api_reads=self.api.reads[s['stack']],
                 api_from=watch.READ_FROM,
                 user_latency=(read_back - success)
                 if success and read_back else None,
                 signalled=signal.seen if signal else None,
                 found=found_at(events),
                 arrived=arrived[0] if arrived else None,
                 how=how_it_ended(events), calls=sum(calls.values()),
                 calls_by=dict(calls), fetches=log.fetches[execution])

    def _threads(self, busiest):
        """Engine threads in use while at least half the most ran at once.

        busiest: busy_stretches() of the window's executions. Half, not
        all: 50 creates outlast a 60 s workflow, and the most ran together
        for under a second. Each stretch from half a second after it began;
        in use (not on a futex) above the idle baseline.
        """
        if not busiest or self.baseline is None:
            return None
        most, stretches = busiest

        def sampled(column):
            return [n for start, end in stretches
                    for n in self.env.threads.between(start + 0.5, end,
                                                      column)]
        in_use = [n - self.baseline for n in sampled(2)]
        return {'baseline': self.baseline, 'samples': len(in_use),
                'at_least': (most + 1) // 2,
                'seconds': round(sum(b - a for a, b in stretches), 1),
                'median': harness.median(in_use),
                'peak': max(in_use) if in_use else None,
                'all_threads': harness.median(sampled(1))}

    def stop_reads(self):
        if self.api is not None:
            self.api.stop()

    def delete(self):
        for s in self.stacks:
            self.driver.delete(s['stack'], wait=False)
        for s in self.stacks:
            self.driver.wait(s['stack'], 'DELETE', timeout=300)
            self.driver.stack_ids.remove(s['stack'])
        self.driver.cleanUp()


def run_window(env, case, entries, timeout, log, lose=False):
    """One window: (its stacks' figures, the window's); stacks deleted."""
    window = Window(env, case, entries)
    try:
        window.create()
        outage = lose_notifications(window, timeout) if lose else None
        window.wait_complete(timeout)
        found = window.collect()
    except BaseException:
        if window.driver is not None:
            window.driver.cleanUp()  # deletes what is left, best effort
        raise
    finally:
        window.stop_reads()
    window.delete()
    if outage:
        found['outage'] = outage
    for s in window.stacks:
        log('    %-7s %6.3fs workflow: SUCCESS -> COMPLETE %s (through '
            'heat-api %s), %d Mistral calls %s, %s' % (
                s['kind'], s['seconds'], seconds_or(s['latency']),
                seconds_or(s['user_latency']), s['calls'],
                s['calls_by'], s['how'] or 'in-tree'))
    log('    threads in use: %s; calls of no stack: %s' % (
        found['threads'], found['unattributed']))
    return window.stacks, found


def seconds_or(value):
    return '%.3fs' % value if value is not None else 'not seen'


def lose_notifications(window, timeout):
    """heat-api-cfn stopped while the executions end, then started.

    Mistral's webhooks meet a closed port; it never sends them again.
    """
    window.wait_started(timeout)
    with faults.outage(window.env.cfn()):
        stopped = time.time()
        window.wait_ended(timeout)
        time.sleep(2)  # the last webhook meets the closed port
    return {'cfn_stopped': stopped, 'cfn_started': time.time()}


def busy_stretches(spans):
    """(most at once, [(from, until)] where at least half that many ran).

    spans: (start, end) of each execution; None if there are none.
    """
    # At the same time, an end before a start: touching spans never
    # overlap.
    events = sorted([(a, 1) for a, _b in spans] +
                    [(b, -1) for _a, b in spans])
    most = running = 0
    for _t, step in events:
        running += step
        most = max(most, running)
    if not most:
        return None
    need, running, since, found = (most + 1) // 2, 0, None, []
    for t, step in events:
        running += step
        if running >= need and since is None:
            since = t
        elif running < need and since is not None:
            if t > since:
                found.append((since, t))
            since = None
    return most, found


def phase(seconds, n):
    return seconds + (n % PHASES) * 0.125


def in_rounds(env, case, rounds, per_window, seconds, log, slack=120):
    """Each round a window per type, alone, in balanced order."""
    found = {'layout': 'rounds', 'seconds': seconds, 'rounds': rounds,
             'stacks': per_window, 'samples': [], 'windows': []}
    for r in range(rounds):
        for kind in round_order.balanced_order(KINDS, r):
            log('  %s round %d: %s, %d stack(s) of %gs' % (
                case, r, kind, per_window, seconds))
            entries = [(kind, phase(seconds, r + i), r)
                       for i in range(per_window)]
            _add_window(found, env, case, entries, seconds + slack, log)
    return found


def _add_window(found, env, case, entries, timeout, log, lose=False):
    """Run one window of `entries`; its samples and record into found."""
    samples, window = run_window(env, case, entries, timeout, log,
                                 lose=lose)
    found['samples'] += samples
    found['windows'].append(window)


def side_by_side_entries(pairs, seconds, window=0):
    """(kind, workflow seconds, pair) of one window's stacks, interleaved.

    The pairs are numbered on from the earlier windows', so that a pair
    of stacks (external_report.pairs) is never split across windows.
    """
    first = window * pairs
    return [(kind, phase(seconds, i), i) for i in range(first, first + pairs)
            for kind in round_order.balanced_order(KINDS, i)]


def side_by_side(env, case, pairs, seconds, log, lose=False, slack=120,
                 windows=1):
    """Windows one after another, each of `pairs` stacks per type at once.

    The types interleaved within a window; `windows` of them.
    """
    found = {'layout': 'side by side', 'seconds': seconds, 'rounds': pairs,
             'stacks': pairs, 'samples': [], 'windows': []}
    for w in range(windows):
        log('  %s%s: %d stack(s) of each type side by side, %gs workflows%s'
            % (case, ' window %d' % w if windows > 1 else '', pairs,
               seconds, ', heat-api-cfn down as they end' if lose else ''))
        _add_window(found, env, case, side_by_side_entries(pairs, seconds, w),
                    seconds + slack, log, lose=lose)
    return found


def warm_up(env, log):
    """One uncounted window of each type (2 s workflows)."""
    side_by_side(env, 'warm', 1, 2.0, lambda msg: None)
    log('  warm-up window done (not counted)')
