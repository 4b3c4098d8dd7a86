"""ExternalResource against a real Mistral (issue item 5).

A stack with one ExternalResource whose CREATE workflow sleeps a few
seconds, for our OS::Mistral::ExternalResource and the in-tree type
(Upstream::Mistral::ExternalResource), on the same engine and Mistral:

- completion latency: from the Mistral execution reaching SUCCESS to the
  resource reaching CREATE_COMPLETE, both observed by polling their APIs
  every 20 ms from this process (Mistral directly, the resource through the
  engine's list_events: showing the resource would resolve its attributes,
  and the in-tree type answers that with a Mistral call);
- Mistral API calls of the engine during the create, counted by a small
  HTTP proxy that both types are pointed at;
- Heat database writes (INSERT/UPDATE/DELETE statements, per table) issued
  while the stack is created, counted on the engine's SQLAlchemy engine.

Mistral is heat_lifecycle_plugins.fixtures.mistral's real server (one
process, its own PID). The in-tree type reaches it through Heat's own
mistral client plugin, whose client factory is pointed at the proxy (no
Keystone catalog here).
"""

import collections
import http.client
import http.server
import re
import threading
import time
import urllib.parse

from oslo_config import cfg
import sqlalchemy

from benchmarks import harness
from benchmarks.upstream_types import UPSTREAM_EXTERNAL
from heat_lifecycle_plugins import config
from heat_lifecycle_plugins.fixtures.mistral import Mistral
from heat_lifecycle_plugins.fixtures.stacks import TERMINAL

OURS = 'ours'
INTREE = 'in-tree'
TYPES = {OURS: 'OS::Mistral::ExternalResource', INTREE: UPSTREAM_EXTERNAL}
# The workflow's sleep moves by a quarter of the poll interval from round to
# round, so that SUCCESS falls at every phase of the ~1 s polling; a fixed
# sleep favours whichever type happens to poll just after it.
SLEEP_SECONDS = [2.0, 2.25, 2.5, 2.75]
POLL = 0.02

WORKFLOW = """
version: '2.0'
%s:
  input: [seconds]
  output:
    slept: <%% $.seconds %%>
  tasks:
    wait:
      action: std.sleep
      input:
        seconds: <%% $.seconds %%>
"""

WRITE = re.compile(r'^\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+`?(\w+)`?',
                   re.IGNORECASE)


class CountingProxy(object):
    """HTTP proxy on 127.0.0.1 to one upstream; counts requests."""

    def __init__(self, upstream_url):
        parsed = urllib.parse.urlsplit(upstream_url)
        self.upstream = (parsed.hostname, parsed.port)
        self.prefix = parsed.path.rstrip('/')
        self.calls = collections.Counter()
        self.polls = []  # monotonic times of GET /executions/<id>
        self.lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def log_message(self, *args):
                pass

            def _forward(self):
                length = int(self.headers.get('Content-Length') or 0)
                body = self.rfile.read(length) if length else None
                parts = self.path.split('?')[0].strip('/').split('/')
                with proxy.lock:
                    proxy.calls[(self.command, parts[1] if len(parts) > 1
                                 else self.path)] += 1
                    if (self.command == 'GET' and len(parts) == 3 and
                            parts[1] == 'executions'):
                        proxy.polls.append(time.monotonic())
                conn = http.client.HTTPConnection(*proxy.upstream,
                                                  timeout=60)
                headers = {k: v for k, v in self.headers.items()
                           if k.lower() not in ('host', 'connection')}
                conn.request(self.command, self.path, body, headers)
                answer = conn.getresponse()
                data = answer.read()
                conn.close()
                self.send_response(answer.status)
                for k, v in answer.getheaders():
                    if k.lower() not in ('transfer-encoding', 'connection',
                                         'content-length'):
                        self.send_header(k, v)
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_DELETE = _forward

        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0),
                                                      Handler)
        self.server.daemon_threads = True
        self.url = 'http://127.0.0.1:%d%s' % (self.server.server_address[1],
                                              self.prefix)
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def take(self):
        """The calls and poll interval seen since the last take().

        (calls by (method, collection), median seconds between two polls of an
        execution or None).
        """
        with self.lock:
            calls, self.calls = self.calls, collections.Counter()
            polls, self.polls = self.polls, []
        gaps = [b - a for a, b in zip(polls, polls[1:])]
        return calls, harness.median(gaps)


class WriteCounter(object):
    """Counts INSERT/UPDATE/DELETE statements per table on Heat's DB."""

    def __init__(self):
        from heat.db import api as db_api
        self.engine = db_api.get_engine()
        self.writes = collections.Counter()
        self.lock = threading.Lock()
        sqlalchemy.event.listen(self.engine, 'before_cursor_execute',
                                self._seen)

    def _seen(self, conn, cursor, statement, params, context, executemany):
        match = WRITE.match(statement)
        if match:
            with self.lock:
                self.writes[match.group(2).lower()] += 1

    def take(self):
        with self.lock:
            writes, self.writes = self.writes, collections.Counter()
        return writes

    def stop(self):
        sqlalchemy.event.remove(self.engine, 'before_cursor_execute',
                                self._seen)


def point_intree_client_at(url):
    """Point Heat's mistral client plugin at url, without a Keystone catalog.

    Replaces the client factory and the catalog check; returns a function
    undoing it.
    """
    from heat.engine.clients.os import mistral as mistral_plugin
    from keystoneauth1 import session
    from mistralclient.api import client as mistral_client

    plugin = mistral_plugin.MistralClientPlugin
    saved = {name: plugin.__dict__.get(name)
             for name in ('_create', 'does_endpoint_exist')}
    plugin._create = lambda self, version=None: mistral_client.client(
        mistral_url=url, session=session.Session())
    plugin.does_endpoint_exist = lambda self, *args, **kwargs: True

    def restore():
        for name, value in saved.items():
            if value is None:
                delattr(plugin, name)
            else:
                setattr(plugin, name, value)
    return restore


def template(kind, workflow, seconds):
    return {'heat_template_version': '2016-10-14',
            'resources': {'ext': {
                'type': TYPES[kind],
                'properties': {
                    'actions': {'CREATE': {'workflow': workflow}},
                    'input': {'seconds': seconds}}}}}


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


def measure_once(bench, mistral, proxy, writes, kind, tag, seconds):
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
    ident = eng.create(template(kind, workflow, seconds),
                       name='bench-ext-%s-%s' % (kind.replace('-', ''), tag),
                       wait=False)
    deadline = time.monotonic() + 120
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
                                         'in 120 s' % kind)
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


def run(bench, rounds, workdir, log):
    mistral = Mistral(workdir + '/mistral')
    mistral.setUp()
    proxy = CountingProxy(mistral.url).start()
    restore = point_intree_client_at(proxy.url)
    group = config.GROUP.name
    cfg.CONF.set_override('mistral_endpoint', proxy.url, group=group)
    cfg.CONF.set_override('mistral_auth_type', 'none', group=group)
    writes = WriteCounter()
    samples = {OURS: [], INTREE: []}
    try:
        for r in range(rounds):
            for kind in samples:
                s = measure_once(bench, mistral, proxy, writes, kind,
                                 'r%d' % r,
                                 SLEEP_SECONDS[r % len(SLEEP_SECONDS)])
                samples[kind].append(s)
                log('  %-7s round %d: SUCCESS -> COMPLETE %.2fs, %d Mistral '
                    'calls %s, polled every %.2fs, %d DB writes '
                    '(resource_data %d, resource %d)'
                    % (kind, r, s['latency'], s['mistral_calls'],
                       s['mistral_calls_by'], s['poll_gap'] or 0,
                       s['db_writes'],
                       s['resource_data_writes'], s['resource_writes']))
    finally:
        writes.stop()
        cfg.CONF.clear_override('mistral_endpoint', group=group)
        cfg.CONF.clear_override('mistral_auth_type', group=group)
        restore()
        proxy.stop()
        mistral.cleanUp()
    result = {'poll_interval': cfg.CONF[group].mistral_poll_interval,
              'sleep': SLEEP_SECONDS[:rounds]}
    for kind, rows in samples.items():
        result[kind] = {key: harness.median([row[key] for row in rows])
                        for key in ('latency', 'mistral_calls', 'poll_gap',
                                    'db_writes',
                                    'resource_data_writes',
                                    'resource_writes')}
        result[kind]['rounds'] = len(rows)
    return result


def markdown(ext):
    lines = [
        'CREATE workflow: one std.sleep of %s s (one per round); our poll '
        'interval %.1f s (the default); medians.' % (
            ', '.join('%g' % s for s in ext['sleep']),
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
    lines += ['', 'Mistral calls include validation (workflow lookup), '
              'starting the execution and every poll. DB writes count every '
              'INSERT/UPDATE/DELETE the engine issued during the stack '
              'create (stack, events, resource state); resource_data holds '
              'the stored workflow outputs.']
    return '\n'.join(lines)


def targets(ext):
    ours, intree = ext[OURS], ext[INTREE]
    limit = ext['poll_interval'] + 0.5
    return [
        ('ExternalResource: COMPLETE <= poll interval + 0.5 s (%.1f s) '
         'after SUCCESS' % limit,
         'ours %.2fs, in-tree %.2fs' % (ours['latency'], intree['latency']),
         'met' if ours['latency'] <= limit else 'MISSED'),
        ('ExternalResource: <= 1 output write per completed execution',
         'resource_data writes: ours %d, in-tree %d'
         % (ours['resource_data_writes'], intree['resource_data_writes']),
         'met' if ours['resource_data_writes'] <= 1 else 'MISSED'),
    ]
