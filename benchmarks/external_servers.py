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
"""The local servers of the ExternalResource benchmark.

DelayServer answers the workflow's std.http call after a given delay;
CountingProxy stands between the engine and Mistral and counts the
calls (and keeps each request, to tell whose it was); WriteCounter
counts the Heat database writes of an in-process engine.
"""

import collections
import http.client
import http.server
import json
import re
import threading
import time
import urllib.parse

import sqlalchemy

from benchmarks import harness


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    # 50 stacks' calls at once: the default backlog (5) would drop
    # connections, which the client retries only a second later.
    request_queue_size = 128


class LocalServer(object):
    """A threaded HTTP server on a free 127.0.0.1 port, in this process."""

    def __init__(self, handler):
        self.server = _Server(('127.0.0.1', 0), handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class _Quiet(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass


class DelayServer(LocalServer):
    """Answers GET /?seconds=S after S seconds."""

    def __init__(self):
        class Handler(_Quiet):
            def do_GET(self):
                query = urllib.parse.parse_qs(
                    urllib.parse.urlsplit(self.path).query)
                time.sleep(float(query['seconds'][0]))
                self.send_response(200)
                self.send_header('Content-Length', '2')
                self.end_headers()
                self.wfile.write(b'{}')

        super(DelayServer, self).__init__(Handler)

    def url(self, seconds):
        return 'http://127.0.0.1:%d/?seconds=%s' % (self.port, seconds)


WRITE = re.compile(r'^\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+`?(\w+)`?',
                   re.IGNORECASE)


class CountingProxy(LocalServer):
    """HTTP proxy on 127.0.0.1 to one upstream; counts requests."""

    def __init__(self, upstream_url):
        parsed = urllib.parse.urlsplit(upstream_url)
        self.upstream = (parsed.hostname, parsed.port)
        self.prefix = parsed.path.rstrip('/')
        self.calls = collections.Counter()
        self.polls = []  # monotonic times of GET /executions/<id>
        self.requests = []  # Request of every call, until take_requests()
        self.lock = threading.Lock()
        proxy = self

        class Handler(_Quiet):
            protocol_version = 'HTTP/1.1'

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
                    proxy.requests.append(request_of(self.command,
                                                     self.path, body))
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

        super(CountingProxy, self).__init__(Handler)
        self.url = 'http://127.0.0.1:%d%s' % (self.port, self.prefix)

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

    def take_requests(self):
        """The Requests seen since the last take_requests()."""
        with self.lock:
            found, self.requests = self.requests, []
        return found


# One call through the proxy: its method, the collection it names
# (executions, workflows, tasks, ...) and every word of it that may name
# a workflow or an execution (path segments, query values, the
# workflow named in a POST body).
Request = collections.namedtuple('Request', 'method collection words')


def request_of(method, path, body):
    path, _sep, query = path.partition('?')
    segments = [s for s in path.strip('/').split('/') if s]
    words = set(segments)
    for values in urllib.parse.parse_qs(query).values():
        words.update(values)
    if body:
        try:
            data = json.loads(body)
        except ValueError:
            data = None
        if isinstance(data, dict):
            words.update(str(data[k]) for k in (
                'workflow_name', 'workflow_id', 'workflow_identifier')
                if data.get(k))
    return Request(method, segments[1] if len(segments) > 1 else path,
                   frozenset(words))


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
