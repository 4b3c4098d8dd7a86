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
"""What a stack update delivers.

A component without an UPDATE entry that changed (or whose input values
changed) is delivered again with deploy_action CREATE; an update that does
not touch the deployment delivers nothing. A plain SoftwareConfig keeps the
in-tree semantics (the deployment's own `actions`).
"""

import copy

from tests.functional.software_component import helpers


def finish(engine, ident, action, body=None):
    engine.signal(ident, 'deployment', body or helpers.final_signal())
    engine.wait(ident, action)


def deployment_events(engine, ident):
    return [(e['resource_action'], e['resource_status'])
            for e in engine.events(ident, resource_name='deployment')
            if e['resource_action'] != 'SIGNAL']


def test_changed_component_without_update_entry_is_delivered_as_create(
        engine):
    template = helpers.component_stack([helpers.script(['CREATE'], 'v1')])
    ident = engine.create(template, wait=False)
    first = helpers.wait_for_delivery(engine, ident, 'CREATE')
    finish(engine, ident, 'CREATE')

    changed = copy.deepcopy(template)
    changed['resources']['component']['properties']['configs'][0][
        'config'] = 'v2'
    engine.update(ident, changed, wait=False)
    second = helpers.wait_for_delivery(engine, ident, 'UPDATE',
                                       previous=first)
    assert helpers.inputs_of(second)['deploy_action'] == 'CREATE'
    assert second['config']['configs'][0]['config'] == 'v2'
    finish(engine, ident, 'UPDATE')

    new_inputs = copy.deepcopy(changed)
    new_inputs['resources']['deployment']['properties']['input_values'] = {
        'port': 81}
    engine.update(ident, new_inputs, wait=False)
    third = helpers.wait_for_delivery(engine, ident, 'UPDATE',
                                      previous=second)
    assert helpers.inputs_of(third)['deploy_action'] == 'CREATE'
    assert helpers.inputs_of(third)['port'] == 81
    finish(engine, ident, 'UPDATE')

    # An update elsewhere in the stack leaves the deployment alone.
    unrelated = copy.deepcopy(new_inputs)
    unrelated['resources']['other'] = {'type': 'OS::Heat::None'}
    before = helpers.software_deployment(engine, ident)
    engine.update(ident, unrelated)
    after = helpers.software_deployment(engine, ident)
    assert after['config_id'] == before['config_id'] == third['id']
    assert deployment_events(engine, ident) == [
        ('CREATE', 'IN_PROGRESS'), ('CREATE', 'COMPLETE'),
        ('UPDATE', 'IN_PROGRESS'), ('UPDATE', 'COMPLETE'),
        ('UPDATE', 'IN_PROGRESS'), ('UPDATE', 'COMPLETE')]
    engine.delete(ident, wait=False)


def test_plain_software_config_keeps_in_tree_semantics(engine):
    template = helpers.component_stack([])
    template['resources']['component'] = {
        'type': 'OS::Heat::SoftwareConfig',
        'properties': {'group': 'script', 'config': 'echo plain',
                       'inputs': [{'name': 'port'}]}}
    template['resources']['deployment']['properties']['input_values'] = {
        'port': 80}
    ident = engine.create(template, wait=False)
    item = helpers.wait_for_delivery(engine, ident, 'CREATE')
    assert (item['group'], item['config']) == ('script', 'echo plain')
    inputs = helpers.inputs_of(item)
    assert (inputs['deploy_action'], inputs['deploy_status_aware'],
            inputs['port']) == ('CREATE', 'true', 80)
    finish(engine, ident, 'CREATE')

    template['resources']['deployment']['properties']['input_values'] = {
        'port': 81}
    engine.update(ident, template, wait=False)
    item = helpers.wait_for_delivery(engine, ident, 'UPDATE', previous=item)
    assert helpers.inputs_of(item)['deploy_action'] == 'UPDATE'
    finish(engine, ident, 'UPDATE')

    # actions: [CREATE] only: an input change is not deployed (in-tree).
    template['resources']['deployment']['properties'].update(
        actions=['CREATE'], input_values={'port': 82})
    engine.update(ident, template)
    assert helpers.software_deployment(engine, ident)['config_id'] == \
        item['id']
    engine.delete(ident, wait=False)
