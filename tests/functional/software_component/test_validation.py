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
"""Stack validation of OS::Heat::SoftwareComponent, through the engine.

Every error names the resource, the entry's index and the bad value.
"""

import pytest

from tests.functional.software_component import helpers


def with_configs(configs):
    template = helpers.example_template()
    template['resources']['appserver']['properties']['configs'] = configs
    return template


def script(actions=None, tool='script'):
    entry = {'tool': tool, 'config': 'echo hi'}
    if actions is not None:
        entry['actions'] = actions
    return entry


@pytest.mark.parametrize('bad, hint', [
    ('create', 'CREATE'),
    ('CRAETE', 'CREATE'),
    ('Suspend', 'SUSPEND'),
    ('DELET', 'DELETE'),
])
def test_near_miss_action_gets_did_you_mean(engine, bad, hint):
    error = engine.validate(with_configs([
        script(['CREATE']), script(['UPDATE', bad])]))
    assert 'resources.appserver.properties.configs' in error
    assert "configs[1].actions: %r is not an action" % bad in error
    assert "did you mean %r?" % hint in error


def test_a_name_that_is_no_action_states_the_rule(engine):
    error = engine.validate(with_configs([script(['take backup'])]))
    assert ("configs[0].actions: 'take backup' is not an action: a custom "
            "action is an upper-case identifier ([A-Z][A-Z0-9_]*)") in error
    assert 'did you mean' not in error
    assert ('actions are CREATE, DELETE, SUSPEND, RESUME, UPDATE or custom '
            'upper-case identifiers such as BACKUP') in error


def test_custom_actions_are_accepted_once(engine):
    assert engine.validate(with_configs([
        script(['CREATE', 'BACKUP']), script(['CREATE_USER', 'DRAIN'])]))\
        is None
    error = engine.validate(with_configs([
        script(['CREATE', 'BACKUP']), script(['BACKUP'])]))
    assert ("configs[1].actions: action 'BACKUP' is already handled by "
            "configs[0]") in error


def test_action_in_two_entries(engine):
    error = engine.validate(with_configs([
        script(['CREATE', 'DELETE']), script(['SUSPEND']),
        script(['DELETE'])]))
    assert 'resources.appserver.properties.configs' in error
    assert ("configs[2].actions: action 'DELETE' is already handled by "
            "configs[0]") in error


def test_two_entries_without_actions_explain_the_default(engine):
    error = engine.validate(with_configs([script(), script()]))
    assert ("configs[1].actions: action 'CREATE' is already handled by "
            "configs[0]") in error
    assert 'an entry without actions handles CREATE and UPDATE' in error


@pytest.mark.parametrize('tool', [None, '', '  '])
def test_tool_is_required_and_not_empty(engine, tool):
    entry = script(['CREATE'], tool=tool)
    if tool is None:
        del entry['tool']
    error = engine.validate(with_configs([script(['DELETE']), entry]))
    assert 'resources.appserver.properties.configs' in error
    assert ('configs[1].tool is required and must not be empty (got %r)'
            % tool) in error


def test_at_least_one_entry(engine):
    error = engine.validate(with_configs([]))
    assert 'resources.appserver.properties.configs: configs is empty' in error


def test_empty_actions_list(engine):
    error = engine.validate(with_configs([script([])]))
    assert 'configs[0].actions is empty' in error


def test_config_must_be_string_or_map(engine):
    entry = dict(script(['CREATE']), config=[1, 2])
    error = engine.validate(with_configs([entry]))
    assert 'configs[0].config must be a string or a map, not [1, 2]' in error


def test_map_config_and_default_actions_are_valid(engine):
    entry = {'tool': 'ansible', 'config': {'hosts': 'all', 'tasks': []}}
    assert engine.validate(with_configs([entry, script(['DELETE'])])) is None


def test_create_refuses_an_invalid_component(engine):
    with pytest.raises(Exception) as failure:
        engine.create(with_configs([script(['CRAETE'])]))
    message = str(failure.value)
    assert type(failure.value).__name__.startswith('StackValidationFailed')
    assert ('resources.appserver.properties.configs: configs[0].actions: '
            "'CRAETE' is not an action; did you mean 'CREATE'?"
            in message)


def test_resource_type_schemas_are_served(engine):
    component = engine.client.resource_schema(engine.ctx,
                                              'OS::Heat::SoftwareComponent')
    assert set(component['properties']) == {'configs', 'inputs', 'outputs',
                                            'options'}
    assert 'configs' in component['attributes']
    entry = component['properties']['configs']['schema']['*']['schema']
    assert set(entry) == {'actions', 'config', 'tool'}
    deployment = engine.client.resource_schema(
        engine.ctx, 'OS::Heat::SoftwareDeployment')
    assert {'config', 'server', 'input_values', 'actions', 'name',
            'signal_transport'} <= set(deployment['properties'])
    assert {'deploy_stdout', 'deploy_stderr',
            'deploy_status_code'} <= set(deployment['attributes'])
