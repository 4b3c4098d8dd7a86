"""A tiny JSON "thing" store over HTTP: what test workflows manage.

Mistral's std.http action creates, changes and deletes things here, and
tests look at the store to see what the workflows really did:

    POST   /things           create, body JSON -> 201 {"id": ..., **body}
    GET    /things           {"things": {id: thing}}
    GET    /things/ID        the thing, 404 if absent
    PUT    /things/ID        merge body into the thing, 404 if absent
    DELETE /things/ID        204, 404 if absent
    GET    /log              {"log": [[method, path, body], ...]}

Run `python -m tests.services.thing_store PORT PARENT_PID` (it exits when
PARENT_PID is no longer its parent); ThingStore below starts it
as a subprocess on a free 127.0.0.1 port and stops it by its PID.
"""

import json
import os
import sys
import threading
import uuid
from http import server

from tests.services import procs


class _Handler(server.BaseHTTPRequestHandler):
    things = {}
    log = []
    lock = threading.Lock()

    def log_message(self, fmt, *args):
        sys.stderr.write('%s\n' % (fmt % args))

    def _body(self):
        length = int(self.headers.get('Content-Length') or 0)
        raw = self.rfile.read(length) if length else b''
        return json.loads(raw) if raw.strip() else {}

    def _reply(self, status, payload=None):
        data = b'' if payload is None else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _handle(self, method):
        try:
            body = self._body() if method in ('POST', 'PUT') else None
        except ValueError as exc:
            return self._reply(400, {'error': 'bad JSON: %s' % exc})
        parts = [p for p in self.path.split('/') if p]
        with self.lock:
            self.log.append([method, self.path, body])
            if parts == ['log'] and method == 'GET':
                return self._reply(200, {'log': self.log})
            if not parts or parts[0] != 'things' or len(parts) > 2:
                return self._reply(404, {'error': 'no route %s' % self.path})
            if len(parts) == 1:
                if method == 'GET':
                    return self._reply(200, {'things': self.things})
                if method == 'POST':
                    thing = dict(body, id=uuid.uuid4().hex)
                    self.things[thing['id']] = thing
                    return self._reply(201, thing)
                return self._reply(405, {'error': method})
            thing_id = parts[1]
            if thing_id not in self.things:
                return self._reply(404, {'error': 'no thing %s' % thing_id})
            if method == 'GET':
                return self._reply(200, self.things[thing_id])
            if method == 'PUT':
                self.things[thing_id].update(body)
                return self._reply(200, self.things[thing_id])
            if method == 'DELETE':
                del self.things[thing_id]
                return self._reply(204)
            return self._reply(405, {'error': method})

    def do_GET(self):
        self._handle('GET')

    def do_POST(self):
        self._handle('POST')

    def do_PUT(self):
        self._handle('PUT')

    def do_DELETE(self):
        self._handle('DELETE')


class ThingStore(object):
    """The store as a subprocess; `url`, `things()`, `log()`, `stop()`."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.port = None
        self.process = None

    @property
    def url(self):
        return 'http://127.0.0.1:%d' % self.port

    def start(self):
        os.makedirs(self.workdir, exist_ok=True)
        self.port = procs.free_port()
        env = procs.repo_env()
        self.process = procs.Process(
            'thing-store',
            [sys.executable, '-m', 'tests.services.thing_store',
             str(self.port), str(os.getpid())],
            os.path.join(self.workdir, 'thing-store.log'), env=env)
        try:
            procs.wait_for_port(self.port, 30, self.process, 'thing store')
        except Exception:
            self.stop()
            raise
        return self

    def _get(self, path):
        import urllib.request
        with urllib.request.urlopen(self.url + path, timeout=10) as resp:
            return json.loads(resp.read())

    def things(self):
        return self._get('/things')['things']

    def log(self):
        return self._get('/log')['log']

    def stop(self):
        if self.process is not None:
            self.process.stop()
            self.process = None


def main(port, parent_pid):
    procs.exit_with_parent(parent_pid)
    httpd = server.ThreadingHTTPServer(('127.0.0.1', port), _Handler)
    httpd.serve_forever()


if __name__ == '__main__':
    main(int(sys.argv[1]), int(sys.argv[2]))
