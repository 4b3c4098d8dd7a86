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
"""The user-side library as the dashboard calls it: no printing, no CLI.

A day-two request sent and followed (user_side.action_run), the diagnosis
and the progress rows, against a small heat-api on 127.0.0.1 that answers
python-heatclient's requests (the HTTP edge; tests/e2e/test_day_two.py
runs the same code against a real cloud).
"""

import http.server
import json
import urllib.parse

from heatclient import client
from keystoneauth1 import session
import pytest

from heat_lifecycle_plugins.user_side import action_run
from heat_lifecycle_plugins.user_side import cause
from heat_lifecycle_plugins.user_side import errors
from heat_lifecycle_plugins.user_side import progress
from heat_lifecycle_plugins.user_side import request_plan as rp
from tests.unit.test_cli_reads import serving
from tests.unit.test_why import closed_port

T0, T1 = '2026-11-24T10:00:00Z', '2026-11-24T10:05:00Z'
TEMPLATE = {'resources': {'backup': {
    'type': 'OS::Heat::SoftwareDeployment',
    'properties': {'action_request': {'get_param': 'req'},
                   'extended_action': {'get_param': 'act'},
                   'action_inputs': {'get_param': 'ins'}}}}}
PREFIX = '/v1/p'


def event(ident, status):
    return {'id': ident, 'event_time': T1, 'resource_name': 'backup',
            'resource_status': status, 'resource_status_reason': 'r',
            'links': []}


class HeatApi(http.server.BaseHTTPRequestHandler):
    """Stack s/a1 with one deployment.

    A PATCH starts an update that ends on the third read of the stack
    after it.
    """

    def log_message(self, *args):
        pass

    def _answer(self, code, body=None):
        data = json.dumps(body).encode() if body is not None else b''
        self.send_response(code)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _stack(self):
        api = self.server
        if api.patched:
            api.reads += 1
        status, updated = 'UPDATE_COMPLETE', T0
        if api.patched:
            updated = T1
            if api.reads <= 2:
                status = 'UPDATE_IN_PROGRESS'
        return {'id': 'a1', 'stack_name': 's', 'stack_status': status,
                'updated_time': updated, 'links': []}

    def _events(self):
        api = self.server
        found = [event('e0', 'CREATE_COMPLETE')]
        if api.patched:
            found.append(event('e1', 'UPDATE_IN_PROGRESS'))
        if api.patched and api.reads > 2:
            found.append(event('e2', 'UPDATE_COMPLETE'))
        return found

    def do_GET(self):
        path = urllib.parse.urlparse(self.path).path[len(PREFIX):]
        done = self.server.patched and self.server.reads > 2
        answers = {
            '/stacks/s': lambda: {'stack': self._stack()},
            '/stacks/s/a1': lambda: {'stack': self._stack()},
            '/stacks/s/a1/template': lambda: TEMPLATE,
            '/stacks/s/a1/resources/backup': lambda: {'resource': {
                'resource_name': 'backup', 'physical_resource_id': 'd1',
                'resource_type': 'OS::Heat::SoftwareDeployment',
                'resource_status': ('UPDATE_COMPLETE' if done else
                                    'UPDATE_IN_PROGRESS'),
                'links': []}},
            '/stacks/s/a1/resources': lambda: {'resources': [{
                'resource_name': 'backup', 'physical_resource_id': 'd1',
                'resource_type': 'OS::Heat::SoftwareDeployment',
                'resource_status': 'CREATE_COMPLETE',
                'links': [{'rel': 'stack',
                           'href': 'http://h/v1/p/stacks/s/a1'}]}]},
            '/stacks/s/a1/resources/backup/events': lambda: {
                'events': self._events()},
            '/software_deployments/d1': lambda: {'software_deployment': {
                'id': 'd1', 'config_id': 'c1', 'status': 'COMPLETE',
                'output_values': {'result': 'saved'}}},
            '/software_configs/c1': lambda: {'software_config': {
                'id': 'c1', 'group': 'script', 'config': ''}},
        }
        if path not in answers:
            return self._answer(404, {'error': {'message': path}})
        self._answer(200, answers[path]())

    def do_PATCH(self):
        length = int(self.headers['Content-Length'])
        body = json.loads(self.rfile.read(length))
        self.server.patched.append(body['parameters'])
        self._answer(202)


@pytest.fixture
def heat_api():
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), HeatApi)
    server.patched, server.reads = [], 0
    yield from serving(server)


def heat_client(port):
    return client.Client(
        '1', session=session.Session(), service_type='orchestration',
        endpoint_override='http://127.0.0.1:%d%s' % (port, PREFIX))


def test_a_request_is_sent_and_followed_without_printing(heat_api, capsys):
    hc = heat_client(heat_api.server_address[1])
    run = action_run.ActionRun(hc, 's', 'backup', 'BACKUP', {'label': 'x'})
    token = run.request()
    assert heat_api.patched == [{'req': token, 'act': 'BACKUP',
                                 'ins': '{"label": "x"}'}]
    steps = list(run.follow(poll=0, timeout=30))
    assert [(what, (found or {}).get('id')) for what, found in steps] == [
        ('event', 'e1'), ('event', 'e2'), ('ended', 'a1')]
    assert steps[-1][1]['stack_status'] == 'UPDATE_COMPLETE'
    assert run.succeeded(steps[-1][1])
    assert run.outputs() == {'result': 'saved'}
    assert capsys.readouterr() == ('', '')


def test_a_path_as_the_reports_show_it(heat_api):
    hc = heat_client(heat_api.server_address[1])
    with pytest.raises(rp.RunActionError) as raised:
        action_run.request(hc, 's', 'chain/1/deploy', 'BACKUP')
    assert str(raised.value) == 'stack s has no resource chain'
    assert rp.resource_path(TEMPLATE, 'chain/1/deploy') == [
        'chain', '1', 'deploy']


def test_inputs_heat_sets_are_refused_before_heat_is_asked():
    with pytest.raises(rp.RunActionError) as raised:
        action_run.request(None, 's', 'backup', 'BACKUP',
                           {'deploy_server_id': 'x'})
    assert str(raised.value) == ('input deploy_server_id is set by Heat, '
                                 'not by a request')


def test_an_unreachable_heat_is_one_line_not_a_traceback():
    hc = heat_client(closed_port())
    with pytest.raises(errors.UserSideError) as raised:
        action_run.request(hc, 's', 'backup', 'BACKUP')
    assert str(raised.value).startswith('cannot reach the cloud: ')
    assert '\n' not in str(raised.value)


def test_diagnosis_and_progress_rows_are_returned(heat_api, capsys):
    hc = heat_client(heat_api.server_address[1])
    stack, findings = cause.diagnose(hc, 's')
    assert (stack['stack_status'], findings) == ('UPDATE_COMPLETE', [])
    stack, rows = progress.read(hc, 's')
    assert rows == [('backup', 'COMPLETE', '', '')]
    assert capsys.readouterr() == ('', '')
