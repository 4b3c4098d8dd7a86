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
"""What a changed request of a deployment runs (pure decisions)."""

from heat.engine import software_config_io as swc_io

from heat_lifecycle_plugins import action_requests as ar


def test_a_request_is_a_new_non_empty_token():
    assert ar.is_new_request({'action_request': 'r2'}, 'action_request', 'r1')
    assert not ar.is_new_request({'action_request': 'r1'}, 'action_request',
                                 'r1')
    assert not ar.is_new_request({'action_request': ''}, 'action_request',
                                 None)
    assert not ar.is_new_request({'action_request': None},
                                 'action_request', None)
    assert not ar.is_new_request({'config': 'x'}, 'action_request', None)
    assert not ar.is_new_request(None, 'action_request', None)


def test_the_requested_action_defaults_to_a_reapply():
    assert ar.requested(None) == 'UPDATE'
    assert ar.requested('BACKUP') == 'BACKUP'


def test_what_a_request_delivers():
    assert ar.to_deliver('BACKUP', {'CREATE', 'BACKUP'}) == 'BACKUP'
    assert ar.to_deliver('UPDATE', {'CREATE', 'UPDATE'}) == 'UPDATE'
    assert ar.to_deliver('UPDATE', {'CREATE'}) == 'CREATE'
    assert ar.to_deliver('UPDATE', {'DELETE'}) is None
    assert ar.to_deliver('DRAIN', {'CREATE', 'BACKUP'}) is None


def test_an_undefined_action_names_the_defined_ones():
    assert ar.undefined('dep', 'extended_action', 'DRAIN',
                        {'BACKUP', 'UPDATE', 'CREATE', 'ROTATE'}, True) == (
        "Resource dep: property extended_action: the component defines no "
        "action 'DRAIN' (it defines CREATE, UPDATE, BACKUP, ROTATE)")
    assert ar.undefined('dep', 'extended_action', 'BACKUP', {'CREATE'},
                        False) == (
        "Resource dep: property extended_action: 'BACKUP' is a custom "
        "action; custom actions need an OS::Heat::SoftwareComponent config, "
        "whose configs[].actions define them")
    assert ar.undefined('dep', 'extended_action', 'UPDATE', {'DELETE'},
                        False) == (
        "Resource dep: property extended_action: the config (its actions "
        "property) defines no action 'UPDATE' (it defines DELETE)")


def test_action_inputs_override_and_add_inputs():
    inputs = [swc_io.InputConfig(name='keep', value=3, type='Number'),
              swc_io.InputConfig(name='deploy_action', value='BACKUP')]
    merged = ar.with_action_inputs(inputs, {'keep': 7, 'label': 'n'},
                                   swc_io.InputConfig)
    assert [(i.name(), i.as_dict()['value'], i.as_dict()['type'])
            for i in merged] == [('keep', 7, 'Number'),
                                 ('deploy_action', 'BACKUP', 'String'),
                                 ('label', 'n', 'String')]
    assert ar.with_action_inputs(inputs, None, swc_io.InputConfig) == inputs


def test_reserved_inputs():
    assert ar.reserved_inputs({'deploy_action': 1, 'deploy_status_aware': 2,
                               'x': 3}) == ['deploy_action',
                                            'deploy_status_aware']
    assert ar.reserved_inputs(None) == []


def test_only_a_failed_update_with_a_request_running_is_a_failed_request():
    running = {ar.REQUESTED_KEY: 'BACKUP'}
    assert ar.failed_request('UPDATE', running)
    assert not ar.failed_request('RESUME', running)
    assert not ar.failed_request('CHECK', running)
    assert not ar.failed_request('UPDATE', {})
