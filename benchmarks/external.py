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
"""ExternalResource against a real Mistral .

Stacks with one ExternalResource, for our OS::Mistral::ExternalResource and
the in-tree type (Upstream::Mistral::ExternalResource), on the same engine
and Mistral, rounds interleaved:

- completion latency: from the Mistral execution reaching SUCCESS to the
  resource reaching CREATE_COMPLETE, both observed by polling their APIs
  every 20 ms from this process (Mistral directly, the resource through the
  engine's list_events: showing the resource would resolve its attributes,
  and the in-tree type answers that with a Mistral call). The CREATE
  workflow is one std.http call that a local server answers after a
  fractional delay (2.0 to 2.875 s, one per round: std.sleep takes whole
  seconds, which would put SUCCESS at the same phase of the ~1 s polling in
  every round);
- Mistral API calls of the engine per create, counted by a small HTTP
  proxy that both types reach through the request's Keystone catalog
  (`workflowv2`, as in a cloud), over the short workflow and over one of
  LONG_SECONDS;
- Heat database writes (INSERT/UPDATE/DELETE statements, per table) issued
  while the stack is created, counted on the engine's SQLAlchemy engine.

Mistral is heat_lifecycle_fixtures.mistral's real server (one
process, its own PID).
"""

import threading
import time

from oslo_config import cfg

from benchmarks import external_servers as servers
from benchmarks import harness
from benchmarks.upstream_types import UPSTREAM_EXTERNAL
from heat_lifecycle_fixtures.mistral import Mistral
from heat_lifecycle_fixtures.stacks import TERMINAL
from heat_lifecycle_fixtures import tokens
from heat_lifecycle_plugins import config

OURS = 'ours'
INTREE = 'in-tree'
TYPES = {OURS: 'OS::Mistral::ExternalResource', INTREE: UPSTREAM_EXTERNAL}
# The workflow's duration moves by an eighth of a second from round to
# round, so that SUCCESS falls at every phase of the ~1 s polling of the
# in-tree type; a fixed duration favours whichever type happens to poll
# just after it.
SLEEP_SECONDS = [2.0 + n * 0.125 for n in range(8)]
LONG_SECONDS = 60
POLL = 0.02
TARGET_LATENCY = 0.2

WORKFLOW = """
version: '2.0'
%s:
  input: [delay_url]
  output:
    slept: <%% $.delay_url %%>
  tasks:
    wait:
      action: std.http
      input:
        url: <%% $.delay_url %%>
        method: GET
"""


def template(kind, workflow, delay_url):
    return {'heat_template_version': '2016-10-14',
            'resources': {'ext': {
                'type': TYPES[kind],
                'properties': {
                    'actions': {'CREATE': {'workflow': workflow}},
                    'input': {'delay_url': delay_url}}}}}


def watch_success(client, workflow, found, stop):
    """Thread body: note when the execution of `workflow` succeeds.

    found['success'] = monotonic time the execution is first seen in SUCCESS
    (polled directly, not proxied).
    """
    while not stop.is_set():
        try:
            execs = client.executions.list(workflow_name=workflow, limit=1)
        except Exception:
            execs = []
        if execs and execs[0].state == 'SUCCESS':
            found['success'] = time.monotonic()
            return
        time.sleep(POLL)


def measure_once(bench, mistral, proxy, writes, delays, kind, tag,
                 seconds):
    workflow = 'bench_sleep_%s_%s' % (kind.replace('-', ''), tag)
    mistral.client().workflows.create(WORKFLOW % workflow)
    eng = bench.engine
    found, stop = {}, threading.Event()
    watcher = threading.Thread(target=watch_success,
                               args=(mistral.client(), workflow, found, stop),
                               daemon=True)
    proxy.take()
    writes.take()
    watcher.start()
    ident = eng.create(template(kind, workflow, delays.url(seconds)),
                       name='bench-ext-%s-%s' % (kind.replace('-', ''), tag),
                       wait=False)
    deadline = time.monotonic() + seconds + 120
    while True:
        # Events, not the resource itself: showing a resource resolves its
        # attributes, which makes the in-tree type call Mistral.
        ended = [e for e in eng.events(ident, 'ext')
                 if e['resource_action'] == 'CREATE' and
                 e['resource_status'] in TERMINAL]
        if ended:
            complete = time.monotonic()
            break
        if time.monotonic() > deadline:
            raise harness.BenchmarkError('%s ExternalResource not complete '
                                         'in %d s' % (kind, seconds + 120))
        time.sleep(POLL)
    if ended[0]['resource_status'] != 'COMPLETE':
        raise harness.BenchmarkError('%s ExternalResource: %s' % (
            kind, ended[0]['resource_status_reason']))
    bench.wait(ident, 'CREATE', 60)
    stop.set()
    watcher.join(5)
    calls, poll_gap = proxy.take()
    db = writes.take()
    bench.delete(ident, 60)
    if 'success' not in found:
        raise harness.BenchmarkError('the SUCCESS of %s was not seen'
                                     % workflow)
    return {'latency': complete - found['success'],
            'mistral_calls': sum(calls.values()),
            'mistral_calls_by': dict(calls),
            'poll_gap': poll_gap,
            'db_writes': sum(db.values()),
            'resource_data_writes': db.get('resource_data', 0),
            'resource_writes': db.get('resource', 0)}


def run(bench, rounds, workdir, log, long_seconds=LONG_SECONDS):
    mistral = Mistral(workdir + '/mistral')
    mistral.setUp()
    proxy = servers.CountingProxy(mistral.url).start()
    delays = servers.DelayServer().start()
    # Both types find Mistral (the proxy) in the request's catalog.
    bench.engine.use_catalog([tokens.catalog_entry('workflowv2', 'mistral',
                                                   proxy.url)])
    writes = servers.WriteCounter()
    samples = {OURS: [], INTREE: []}
    long = {}

    def measure(kind, tag, seconds):
        s = measure_once(bench, mistral, proxy, writes, delays, kind, tag,
                         seconds)
        log('  %-7s %s (%gs): SUCCESS -> COMPLETE %.2fs, %d Mistral '
            'calls %s, polled every %.2fs, %d DB writes '
            '(resource_data %d, resource %d)'
            % (kind, tag, seconds, s['latency'], s['mistral_calls'],
               s['mistral_calls_by'], s['poll_gap'] or 0, s['db_writes'],
               s['resource_data_writes'], s['resource_writes']))
        return s

    try:
        for r in range(rounds):
            for kind in samples:
                samples[kind].append(measure(
                    kind, 'r%d' % r,
                    SLEEP_SECONDS[r % len(SLEEP_SECONDS)]))
        if long_seconds:
            for kind in samples:
                long[kind] = measure(kind, 'long', long_seconds)
    finally:
        writes.stop()
        bench.engine.use_catalog(None)
        delays.stop()
        proxy.stop()
        mistral.cleanUp()
    return _summary(samples, long, rounds, long_seconds)


def _summary(samples, long, rounds, long_seconds):
    """The medians of each type's rounds, and its long run."""
    result = {'poll_interval': cfg.CONF[config.GROUP.name].
              mistral_poll_interval,
              'sleep': sorted(set(SLEEP_SECONDS[:rounds])),
              'long_seconds': long_seconds}
    for kind, rows in samples.items():
        result[kind] = {key: harness.median([row[key] for row in rows])
                        for key in ('latency', 'mistral_calls', 'poll_gap',
                                    'db_writes',
                                    'resource_data_writes',
                                    'resource_writes')}
        result[kind]['latencies'] = [row['latency'] for row in rows]
        result[kind]['rounds'] = len(rows)
        if kind in long:
            result[kind]['long'] = long[kind]
    return result


def markdown(ext):
    lines = [
        'CREATE workflow: one std.http call answered after %s s (one per '
        'round); our longest poll interval %.1f s (the default); medians.'
        % (', '.join('%g' % s for s in ext['sleep']),
           ext['poll_interval']), '',
        '| kind | SUCCESS -> COMPLETE (s) | Mistral API calls per create '
        '| seconds between polls | Heat DB writes per create '
        '| of them resource_data | of them resource |',
        '|---|---:|---:|---:|---:|---:|---:|']
    for kind in (OURS, INTREE):
        r = ext[kind]
        lines.append('| %s | %.2f | %d | %.2f | %d | %d | %d |' % (
            kind, r['latency'], r['mistral_calls'], r['poll_gap'] or 0,
            r['db_writes'],
            r['resource_data_writes'], r['resource_writes']))
    lines += ['', 'Every round (s): ' + '; '.join(
        '%s %s' % (kind, ', '.join('%.2f' % v
                                   for v in ext[kind]['latencies']))
        for kind in (OURS, INTREE))]
    if 'long' in ext[OURS]:
        lines += ['', 'One create whose workflow runs %d s:' %
                  ext['long_seconds'], '',
                  '| kind | Mistral API calls | of them polls of the '
                  'execution | SUCCESS -> COMPLETE (s) |',
                  '|---|---:|---:|---:|']
        for kind in (OURS, INTREE):
            r = ext[kind]['long']
            lines.append('| %s | %d | %d | %.2f |' % (
                kind, r['mistral_calls'],
                r['mistral_calls_by'].get(('GET', 'executions'), 0),
                r['latency']))
    lines += ['', 'Mistral calls include validation (workflow lookup), '
              'starting the execution and every poll. DB writes count every '
              'INSERT/UPDATE/DELETE the engine issued during the stack '
              'create (stack, events, resource state); resource_data holds '
              'the stored workflow outputs. Ours polls an execution every '
              'tenth of its age (0.2 s at least, the longest interval at '
              'most); the in-tree type once per Heat step (about 1 s).']
    return '\n'.join(lines)


def targets(ext):
    ours, intree = ext[OURS], ext[INTREE]
    rows = [
        ('ExternalResource: median SUCCESS -> COMPLETE <= %.1f s and <= '
         'in-tree' % TARGET_LATENCY,
         'ours %.2fs, in-tree %.2fs' % (ours['latency'], intree['latency']),
         'met' if (ours['latency'] <= TARGET_LATENCY and
                   ours['latency'] <= intree['latency']) else 'MISSED'),
        ('ExternalResource: <= 1 output write per completed execution',
         'resource_data writes: ours %d, in-tree %d'
         % (ours['resource_data_writes'], intree['resource_data_writes']),
         'met' if ours['resource_data_writes'] <= 1 else 'MISSED'),
    ]
    if 'long' in ours:
        calls = (ours['long']['mistral_calls'],
                 intree['long']['mistral_calls'])
        rows.append(('ExternalResource: Mistral calls over a %d s workflow '
                     '<= in-tree' % ext['long_seconds'],
                     'ours %d, in-tree %d' % calls,
                     'met' if calls[0] <= calls[1] else 'MISSED'))
    return rows
