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
"""waiting.explain: what a stack still in progress waits for."""

import datetime

from heat_lifecycle_plugins.user_side import report
from heat_lifecycle_plugins.user_side import waiting

NOW = datetime.datetime(2026, 11, 24, 12, 10, 0,
                        tzinfo=datetime.timezone.utc)
STACK = {'stack_name': 's', 'stack_status': 'CREATE_IN_PROGRESS',
         'creation_time': '2026-11-24T12:00:00Z', 'timeout_mins': 60}
DEPLOYMENT = {'resource_name': 'deploy', 'path': ['chain', '1', 'deploy'],
              'resource_type': 'OS::Heat::SoftwareDeployment',
              'resource_status': 'CREATE_IN_PROGRESS',
              'physical_resource_id': 'd1', 'stack_name': 'm'}
BEGAN = {'path': ['chain', '1', 'deploy'], 'event_time':
         '2026-11-24T12:01:00Z', 'resource_status': 'CREATE_IN_PROGRESS'}
CONFIG = {'inputs': [
    {'name': 'deploy_signal_transport', 'value': 'CFN_SIGNAL'},
    {'name': 'deploy_signal_id', 'value':
     'http://cfn:8000/v1/signal/x?Timestamp=2026&Signature=secret'}]}


def explain(status_reason, settings):
    deployment = {'status': 'IN_PROGRESS', 'status_reason': status_reason,
                  'updated_time': '2026-11-24T12:08:00Z'}
    return waiting.explain(STACK, [DEPLOYMENT], [BEGAN], {'d1': deployment},
                           {'d1': settings}, {'d1': CONFIG}, now=NOW)


def test_a_deployment_with_progress_shows_it_and_its_deadlines():
    [finding] = explain('In progress: step 3 of 5',
                        {'start_timeout': 60, 'run_timeout': 900})
    assert finding.role == 'waiting'
    assert finding.cause == 'last progress 120 s ago: step 3 of 5'
    # start_timeout no longer counts: the server has signalled.
    assert finding.details['deadlines'] == [
        {'name': 'run_timeout', 'fires_at': '2026-11-24T12:16:00Z',
         'in_seconds': 360},
        {'name': "the stack's timeout (60 min)",
         'fires_at': '2026-11-24T13:00:00Z', 'in_seconds': 3000}]
    assert report.waiting_detail_lines(finding)[2:] == [
        'signals: CFN_SIGNAL to http://cfn:8000/v1/signal/x',
        'note: the URL is signed with a timestamp: Keystone refuses it '
        '[credential] auth_ttl after that']


def test_a_server_that_never_signalled_faces_its_start_timeout():
    [finding] = explain('Deploy data available', {'start_timeout': 300})
    assert finding.cause == ('no signal from the server yet, 540 s after '
                             'the action began')
    assert finding.details['deadlines'][0] == {
        'name': 'start_timeout', 'fires_at': '2026-11-24T12:06:00Z',
        'in_seconds': -240}


def test_the_signal_route_never_shows_a_credential():
    route = waiting.signal_route({'inputs': [
        {'name': 'deploy_signal_transport', 'value': 'HEAT_SIGNAL'},
        {'name': 'deploy_auth_url', 'value': 'http://ks:5000/v3'},
        {'name': 'deploy_password', 'value': 'hunter2'}]})
    assert route == {'transport': 'HEAT_SIGNAL',
                     'endpoint': 'http://ks:5000/v3', 'note': None}
    assert 'Signature' not in str(waiting.signal_route(CONFIG))


def test_render_lists_each_waiting_deployment():
    findings = explain('In progress: step 3 of 5', {})
    lines = report.render(STACK, findings)
    assert lines[0] == 's CREATE_IN_PROGRESS: 1 deployment(s) waiting'.join(
        ['stack ', ''])
    assert lines[2] == ('[1] chain/1/deploy  OS::Heat::SoftwareDeployment  '
                        'CREATE_IN_PROGRESS  (waiting)')
