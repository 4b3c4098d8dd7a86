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
"""A deployment read once: its problem, its inputs, its hidden secrets."""

import json
import os

from heat_lifecycle_plugins.agent import deployments
from heat_lifecycle_plugins.agent import selection
from tests.agent.conftest import deployment

URL = 'http://127.0.0.1:9/v1/signal/x?Signature=s3cr3t-signature'


def test_a_malformed_deployment_still_says_how_to_signal():
    raw = deployment('dep-1', deploy_signal_id=URL,
                     deploy_status_aware='true')
    raw['group'] = None
    dep = deployments.Deployment(raw)
    assert dep.problem == ('deployment deployment-dep-1 (id dep-1): bad '
                           'group None')
    assert dep.id == 'dep-1'
    assert dep.status_aware and dep.values['deploy_signal_id'] == URL
    for bad in (['not', 'a', 'map'], {'id': '../x', 'group': 'script'}):
        assert deployments.Deployment(bad).id is None
        assert deployments.Deployment(bad).problem


def test_selection_gives_the_hook_a_copy_with_string_inputs():
    raw = deployment(flag=True, data={'a': 1}, none=None)
    payload = selection.select(deployments.Deployment(raw))
    values = {i['name']: i['value'] for i in payload['inputs']}
    assert values == {'flag': 'true', 'data': '{"a": 1}', 'none': ''}
    assert raw['inputs'][0]['value'] is True  # the item read is unchanged


def test_secrets_are_hidden_in_text_and_in_the_kept_deployment():
    raw = deployment(deploy_password='pa55word-xyz', api_token='tok-abcdef',
                     deploy_signal_id=URL, pin='123', who='world')
    dep = deployments.Deployment(raw)
    text = dep.redactor.text(
        'pa55word-xyz tok-abcdef 123 world %s Signature=s3cr3t-signature'
        % URL)
    assert text == ('*** *** 123 world http://127.0.0.1:9/v1/signal/x '
                    '***')
    kept = {i['name']: i['value'] for i in dep.redacted()['inputs']}
    assert kept == {'deploy_password': '***', 'api_token': '***',
                    'deploy_signal_id': '***', 'pin': '123',
                    'who': 'world'}


def test_load_reads_the_bare_list_or_the_whole_metadata(tmp_path):
    path = tmp_path / 'heat-config'
    for data in ([deployment('a')], {'deployments': [deployment('a')],
                                     'os-collect-config': {}}):
        path.write_text(json.dumps(data))
        loaded, = deployments.load(str(path))
        assert (loaded.id, loaded.problem) == ('a', None)
        assert os.stat(path).st_mode & 0o777 == 0o600
