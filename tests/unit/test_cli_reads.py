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
"""The commands read again when heat-api drops a connection, never write.

A server closing an idle keep-alive connection as a poll goes out on it
(gunicorn's 2 s keepalive under load) failed `openstack lifecycle action
run` with "cannot reach the cloud" while it followed the stack. Against a
real HTTP server on 127.0.0.1 that drops the first request it gets.
"""

import json
import socketserver
import threading

from heatclient import client
from keystoneauth1 import exceptions as ks_exc
from keystoneauth1 import session
import pytest

from heat_lifecycle_plugins.user_side import heat_api

STACK = {'stack': {'id': 'a1', 'stack_name': 's',
                   'stack_status': 'UPDATE_IN_PROGRESS', 'links': []}}


class DropsFirst(socketserver.StreamRequestHandler):
    """Drops the first `drops` requests unanswered; answers the rest."""

    def handle(self):
        while True:
            line = self.rfile.readline()
            if not line:
                return
            length = 0
            while line not in (b'\r\n', b'\n', b''):
                if line.lower().startswith(b'content-length:'):
                    length = int(line.split(b':')[1])
                line = self.rfile.readline()
            self.rfile.read(length)
            server = self.server
            with server.lock:
                server.requests += 1
                drop = server.requests <= server.drops
            if drop:
                return  # closed with no answer
            body = json.dumps(STACK).encode()
            self.wfile.write(b'HTTP/1.1 200 OK\r\nContent-Type: '
                             b'application/json\r\nContent-Length: %d\r\n'
                             b'\r\n%s' % (len(body), body))


def serving(server):
    """Yield the server, serving on a thread; stopped when resumed."""
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(5)


@pytest.fixture
def heat_api_server():
    server = socketserver.ThreadingTCPServer(('127.0.0.1', 0), DropsFirst)
    server.lock, server.requests, server.drops = threading.Lock(), 0, 1
    yield from serving(server)


def _client(server):
    url = 'http://127.0.0.1:%d/v1/p' % server.server_address[1]
    return heat_api.reads_retried(client.Client(
        '1', session=session.Session(), service_type='orchestration',
        endpoint_override=url))


def test_a_read_whose_connection_drops_is_sent_again(heat_api_server):
    stack = _client(heat_api_server).stacks.get('s/a1').to_dict()
    assert stack['stack_status'] == 'UPDATE_IN_PROGRESS'
    assert heat_api_server.requests == 2


def test_a_read_still_fails_when_heat_api_stays_away(heat_api_server):
    heat_api_server.drops = 1 + heat_api.READ_RETRIES
    with pytest.raises(ks_exc.ConnectFailure):
        _client(heat_api_server).stacks.get('s/a1')
    assert heat_api_server.requests == 1 + heat_api.READ_RETRIES


def test_a_write_whose_connection_drops_is_not_sent_again(heat_api_server):
    with pytest.raises(ks_exc.ConnectFailure):
        _client(heat_api_server).stacks.update('s/a1', existing=True,
                                               parameters={'p': '1'})
    assert heat_api_server.requests == 1
