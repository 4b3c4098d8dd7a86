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
"""Day-two requests: a changed action_request runs extended_action now.

Through the in-process engine: the request is a stack update that changes
the deployment's action_request (here through a parameter, as
`openstack stack update --existing --parameter` does), the resource goes
UPDATE_IN_PROGRESS with deploy_action the requested action, nothing is
replaced, and a failed request does not make the next one a replacement.
"""

import copy

import pytest

from heat_lifecycle_fixtures.process import wait_until
from tests.functional.software_component import helpers


def request_stack(configs, extended_action='BACKUP', transport='HEAT_SIGNAL'):
    template = helpers.component_stack(configs, transport=transport)
    template['parameters'] = {
        'action': {'type': 'string', 'default': extended_action},
        'request': {'type': 'string', 'default': ''},
        'inputs': {'type': 'json', 'default': {}}}
    template['resources']['deployment']['properties'].update(
        extended_action={'get_param': 'action'},
        action_request={'get_param': 'request'},
        action_inputs={'get_param': 'inputs'},
        input_values={'target': '/srv', 'keep': 3})
    return template


def finish(engine, ident, action, body=None, expect='COMPLETE'):
    engine.signal(ident, 'deployment', body or helpers.final_signal())
    engine.wait(ident, action, expect)


def deployment_states(engine, ident):
    return [(e['resource_action'], e['resource_status'])
            for e in engine.events(ident, resource_name='deployment')
            if e['resource_action'] != 'SIGNAL']


def physical_ids(engine, ident):
    return {r['resource_name']: r['physical_resource_id']
            for r in engine.resources(ident)}


COMPONENT = [helpers.script(['CREATE', 'UPDATE'], 'install'),
             helpers.script(['BACKUP'], 'backup'),
             helpers.script(['DELETE'], 'remove')]


def created(engine, template):
    ident = engine.create(template, wait=False)
    item = helpers.wait_for_delivery(engine, ident, 'CREATE')
    finish(engine, ident, 'CREATE')
    return ident, item


def request(engine, ident, template, token, previous, **params):
    """Change the request; the metadata item of the new delivery."""
    params['request'] = token
    engine.update(ident, template, params=params, wait=False)

    def delivered():
        sd = helpers.software_deployment(engine, ident)
        return (sd['status'] == 'IN_PROGRESS' and
                sd['config_id'] != previous['id'])
    wait_until(delivered, 60, 'the request delivered', interval=0.05)
    return helpers.wait_for_delivery(engine, ident, 'UPDATE',
                                     previous=previous)


def test_a_request_runs_the_custom_action_each_time_nothing_replaced(engine):
    template = request_stack(COMPONENT)
    ident, item = created(engine, template)
    assert helpers.inputs_of(item)['deploy_action'] == 'CREATE'
    ids = physical_ids(engine, ident)

    first = request(engine, ident, template, 'r1', item)
    assert helpers.inputs_of(first)['deploy_action'] == 'BACKUP'
    finish(engine, ident, 'UPDATE', helpers.final_signal(deploy_stdout='b1'))
    second = request(engine, ident, template, 'r2', first)
    assert helpers.inputs_of(second)['deploy_action'] == 'BACKUP'
    finish(engine, ident, 'UPDATE', helpers.final_signal(deploy_stdout='b2'))

    assert physical_ids(engine, ident) == ids
    assert engine.resource(ident, 'deployment', with_attr=[
        'deploy_stdout'])['attributes'][
        'deploy_stdout'] == 'b2'
    reasons = [e['resource_status_reason'] for e in engine.events(
        ident, resource_name='deployment')]
    assert 'Requested action BACKUP (request r1) delivered' in reasons
    assert 'Requested action BACKUP (request r2) delivered' in reasons

    # The same token again, or only another extended_action: nothing runs.
    engine.update(ident, template, params={'request': 'r2',
                                           'action': 'UPDATE'})
    assert helpers.software_deployment(engine, ident)['config_id'] == \
        second['id']
    assert deployment_states(engine, ident) == [
        ('CREATE', 'IN_PROGRESS'), ('CREATE', 'COMPLETE')] + [
        ('UPDATE', 'IN_PROGRESS'), ('UPDATE', 'IN_PROGRESS'),
        ('UPDATE', 'COMPLETE')] * 2 + [
        ('UPDATE', 'IN_PROGRESS'), ('UPDATE', 'COMPLETE')]


def test_action_inputs_reach_requested_actions_only(engine):
    template = request_stack(COMPONENT)
    ident, item = created(engine, template)
    assert 'label' not in helpers.inputs_of(item)
    backup = request(engine, ident, template, 'r1', item,
                     inputs={'label': 'nightly', 'keep': 7})
    inputs = helpers.inputs_of(backup)
    assert (inputs['deploy_action'], inputs['label'], inputs['keep'],
            inputs['target']) == ('BACKUP', 'nightly', 7, '/srv')
    finish(engine, ident, 'UPDATE')
    reapply = request(engine, ident, template, 'r2', backup, action='UPDATE')
    inputs = helpers.inputs_of(reapply)
    assert inputs['deploy_action'] == 'UPDATE'
    assert 'label' not in inputs and inputs['keep'] == 3
    finish(engine, ident, 'UPDATE')
    # An update that is no request does not see them.
    template['resources']['deployment']['properties']['input_values'][
        'keep'] = 4
    engine.update(ident, template, wait=False)
    plain = helpers.wait_for_delivery(engine, ident, 'UPDATE',
                                      previous=reapply)
    assert 'label' not in helpers.inputs_of(plain)
    assert helpers.inputs_of(plain)['keep'] == 4
    finish(engine, ident, 'UPDATE')


def test_action_inputs_may_not_set_what_heat_sets(engine):
    template = request_stack(COMPONENT)
    error = None
    try:
        engine.create(template, params={'inputs': {'deploy_action': 'X'}})
    except Exception as exc:
        error = str(exc)
    assert ('Resource deployment: property action_inputs: deploy_action '
            'set by Heat, not by a request') in error


def test_a_request_of_update_reapplies_without_a_change(engine):
    """The DeployIdentifier hack, done by a request of UPDATE."""
    template = request_stack([helpers.script(['CREATE'], 'install')],
                             extended_action='UPDATE')
    ident, item = created(engine, template)
    again = request(engine, ident, template, 'now', item)
    # No UPDATE entry: re-applying runs the CREATE entry.
    assert helpers.inputs_of(again)['deploy_action'] == 'CREATE'
    finish(engine, ident, 'UPDATE')


def test_a_failed_request_is_not_replaced_and_the_next_recovers(engine):
    template = request_stack(COMPONENT)
    ident, item = created(engine, template)
    ids = physical_ids(engine, ident)

    failed = request(engine, ident, template, 'r1', item)
    finish(engine, ident, 'UPDATE', helpers.final_signal(
        deploy_status_code=3, deploy_stderr='disk full'), expect='FAILED')
    res = engine.resource(ident, 'deployment', with_attr=False)
    assert (res['resource_action'], res['resource_status']) == (
        'UPDATE', 'FAILED')
    assert 'status code: 3' in res['resource_status_reason']

    again = request(engine, ident, template, 'r2', failed)
    assert helpers.inputs_of(again)['deploy_action'] == 'BACKUP'
    finish(engine, ident, 'UPDATE')
    assert physical_ids(engine, ident) == ids
    assert not [e for e in deployment_states(engine, ident)
                if e[0] == 'CREATE'][2:]  # CREATE ran once


def test_an_update_after_a_failed_request_runs_nothing(engine):
    """Each token runs once; the failed request's token is not rerun."""
    template = request_stack(COMPONENT)
    ident, item = created(engine, template)
    request(engine, ident, template, 'r1', item)
    finish(engine, ident, 'UPDATE', helpers.final_signal(
        deploy_status_code=1), expect='FAILED')
    unrelated = copy.deepcopy(template)
    unrelated['resources']['other'] = {'type': 'OS::Heat::None'}
    failed = helpers.software_deployment(engine, ident)
    engine.update(ident, unrelated, params={'request': 'r1'})
    res = engine.resource(ident, 'deployment', with_attr=False)
    assert (res['resource_action'], res['resource_status']) == (
        'UPDATE', 'COMPLETE')
    assert helpers.software_deployment(engine, ident)['config_id'] == \
        failed['config_id']
    assert [s for s in deployment_states(engine, ident)
            if s[0] == 'CREATE'] == [('CREATE', 'IN_PROGRESS'),
                                     ('CREATE', 'COMPLETE')]


def test_an_action_the_component_lacks_is_refused_naming_both(engine):
    template = request_stack(COMPONENT)
    ident, item = created(engine, template)
    before = engine.resource(ident, 'deployment', with_attr=False)
    # Refused by the update's validation: nothing runs, nothing FAILED.
    with pytest.raises(Exception) as refused:
        engine.update(ident, template, params={'request': 'r1',
                                               'action': 'DRAIN'})
    assert ("Resource deployment: property extended_action: the component "
            "defines no action 'DRAIN' (it defines CREATE, DELETE, UPDATE, "
            "BACKUP)") in str(refused.value)
    after = engine.resource(ident, 'deployment', with_attr=False)
    assert [after[k] for k in ('resource_action', 'resource_status')] == [
        before[k] for k in ('resource_action', 'resource_status')]
    # The next, valid request runs.
    again = request(engine, ident, template, 'r2', item, action='BACKUP')
    assert helpers.inputs_of(again)['deploy_action'] == 'BACKUP'
    finish(engine, ident, 'UPDATE')


def test_a_bad_extended_action_name_fails_validation(engine):
    template = request_stack(COMPONENT, extended_action='BAKCUP ')
    error = engine.validate(template)
    assert ("resources.deployment.properties.extended_action: 'BAKCUP ' "
            "is not an action: a custom action is an upper-case identifier"
            in error)
    template = request_stack(COMPONENT, extended_action='UPDTE')
    assert "'UPDTE' is not an action; did you mean 'UPDATE'?" in \
        engine.validate(template)


def test_a_custom_action_on_a_plain_config_is_refused(engine):
    template = request_stack([], extended_action='UPDATE')
    template['resources']['component'] = {
        'type': 'OS::Heat::SoftwareConfig',
        'properties': {'group': 'script', 'config': 'echo plain'}}
    ident = engine.create(template, wait=False)
    item = helpers.wait_for_delivery(engine, ident, 'CREATE')
    finish(engine, ident, 'CREATE')
    with pytest.raises(Exception) as refused:  # by validation
        engine.update(ident, template, params={'request': 'r1',
                                               'action': 'BACKUP'})
    assert "'BACKUP' is a custom action; custom actions need an " \
        "OS::Heat::SoftwareComponent config" in str(refused.value)
    assert engine.resource(ident, 'deployment', with_attr=False)[
        'resource_status'] == 'COMPLETE'
    # UPDATE re-applies a plain config (its actions include UPDATE).
    again = request(engine, ident, template, 'r2', item, action='UPDATE')
    assert helpers.inputs_of(again)['deploy_action'] == 'UPDATE'
    finish(engine, ident, 'UPDATE')
