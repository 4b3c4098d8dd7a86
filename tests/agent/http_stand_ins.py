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
"""HTTP endpoints the agent signals, served from a thread of the test.

SignalReceiver stands in for a pre-signed signal URL (CFN_SIGNAL,
TEMP_URL_SIGNAL). KeystoneHeatStandIn speaks the protocol python-heatclient
uses for HEAT_SIGNAL: a Keystone v3 password token whose catalog lists an
orchestration endpoint, then POST .../stacks/<name>/<id>/resources/<res>/signal
with that token; it hands each signal to a callback (the in-process engine's
resource_signal in the engine test).
"""

import collections
import http.server
import json
import re
import threading
import time
import uuid

from heat_lifecycle_fixtures import tokens

Request = collections.namedtuple('Request', 'method path headers body')


class _Server(object):
    """A threaded HTTP server on 127.0.0.1, stopped with stop()."""

    def __init__(self):
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _handle(self):
                length = int(self.headers.get('Content-Length') or 0)
                raw = self.rfile.read(length) if length else b''
                status, headers, body = owner.handle(
                    self.command, self.path, dict(self.headers), raw)
                data = body if isinstance(body, bytes) else (
                    b'' if body is None else json.dumps(body).encode())
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                if 'Content-Type' not in headers:
                    self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_POST = do_PUT = do_GET = _handle

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0),
                                                     Handler)
        self.port = self.httpd.server_address[1]
        self.base = 'http://127.0.0.1:%d' % self.port
        self.lock = threading.Lock()
        self.requests = []
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       daemon=True)
        self.thread.start()

    def record(self, method, path, headers, raw):
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw
        with self.lock:
            self.requests.append(Request(method, path, headers, body))
        return body

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(10)


class SignalReceiver(_Server):
    """Records signals; answers with the queued statuses, then 200.

    holds: seconds each answer is held back, in order (a slow heat-api);
    received/answered: the wall-clock time (time.time()) of each
    request's arrival and of its answer, in arrival order.
    """

    def __init__(self):
        self.statuses = []
        self.holds = []
        self.received = []
        self.answered = []
        super(SignalReceiver, self).__init__()

    def url(self, path='/signal', query='Signature=s3cr3t-signature'):
        return '%s%s?%s' % (self.base, path, query)

    def handle(self, method, path, headers, raw):
        with self.lock:
            index = len(self.received)
            self.received.append(time.time())
            self.answered.append(None)
            hold = self.holds.pop(0) if self.holds else 0
        self.record(method, path, headers, raw)
        with self.lock:
            status = self.statuses.pop(0) if self.statuses else 200
        time.sleep(hold)
        self.answered[index] = time.time()
        return status, {}, {'status': status}

    @property
    def bodies(self):
        return [r.body for r in self.requests]


def heat_error(status, message):
    """An error body in heat-api's format (heatclient parses it)."""
    return {'code': status, 'title': 'Error', 'explanation': message,
            'error': {'message': message, 'type': 'StandInError',
                      'traceback': None}}


class KeystoneHeatStandIn(_Server):
    """Keystone v3 tokens plus Heat's resource signal API."""

    SIGNAL = re.compile(r'^/v1/(?P<project>[^/]+)/stacks/(?P<stack>[^/]+)/'
                        r'(?P<stack_id>[^/]+)/resources/(?P<resource>[^/]+)'
                        r'/signal$')

    def __init__(self, user_id, password, project_id, on_signal=None):
        self.credentials = [(user_id, password, project_id)]
        self.tokens = set()
        self.on_signal = on_signal
        self.signal_statuses = []
        self.signals = []
        super(KeystoneHeatStandIn, self).__init__()

    def accept(self, user, password, project_id):
        """Also issue tokens to `user` (an id or a name)."""
        self.credentials.append((user, password, project_id))

    @property
    def auth_url(self):
        return self.base + '/v3'

    def handle(self, method, path, headers, raw):
        body = self.record(method, path, headers, raw)
        if method == 'GET' and path.rstrip('/') == '/v3':
            return 200, {}, {'version': {
                'id': 'v3.14', 'status': 'stable',
                'updated': '2020-04-07T00:00:00Z',
                'links': [{'rel': 'self', 'href': self.auth_url + '/'}],
                'media-types': [{
                    'base': 'application/json',
                    'type': 'application/vnd.openstack.identity-v3+json'}]}}
        if method == 'POST' and path == '/v3/auth/tokens':
            return self._token(body)
        match = self.SIGNAL.match(path)
        if method == 'POST' and match:
            if headers.get('X-Auth-Token') not in self.tokens:
                return 401, {}, {'error': 'bad token'}
            with self.lock:
                status = (self.signal_statuses.pop(0)
                          if self.signal_statuses else 200)
            if status != 200:
                return status, {}, heat_error(status, 'queued answer')
            self.signals.append(body)
            if self.on_signal is not None:
                try:
                    self.on_signal(match.group('stack'),
                                   match.group('stack_id'),
                                   match.group('resource'), body)
                except Exception as exc:
                    return 400, {}, heat_error(400, str(exc))
            return 200, {'Content-Type': 'text/plain'}, b''
        return 404, {}, {'error': 'not found: %s' % path}

    def _token(self, body):
        try:
            user = body['auth']['identity']['password']['user']
            project_id = body['auth']['scope']['project']['id']
        except (KeyError, TypeError):
            return 400, {}, {'error': 'not a v3 password scoped request'}
        user_id = user.get('id') or user.get('name')
        if (user_id, user.get('password'), project_id) \
                not in self.credentials:
            return 401, {}, {'error': {'code': 401,
                                       'message': 'wrong credentials'}}
        token = uuid.uuid4().hex
        self.tokens.add(token)
        return 201, {'X-Subject-Token': token}, tokens.token_body(
            user_id, project_id, [tokens.catalog_entry(
                'orchestration', 'heat',
                '%s/v1/%s' % (self.base, project_id))],
            roles=['heat_stack_user'])
