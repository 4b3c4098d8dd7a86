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
"""Templates for the in-tree SoftwareComponent behave the same with ours.

Through the real engine.
"""

import json

from tests.functional.software_component import helpers

IN_TREE_STYLE = {
    'heat_template_version': '2016-04-08',
    'resources': {
        'component': {
            'type': 'OS::Heat::SoftwareComponent',
            'properties': {
                'configs': [
                    {'actions': ['CREATE'], 'tool': 'script',
                     'config': '#!/bin/sh\necho created\n'},
                    # The in-tree string property turns 42 into "42".
                    {'actions': ['DELETE'], 'tool': 'script', 'config': 42},
                ],
                'options': {'debug': True},
            },
        },
    },
    'outputs': {
        'config': {'value': {'get_attr': ['component', 'config']}},
        'configs': {'value': {'get_attr': ['component', 'configs']}},
    },
}


def test_get_attr_config_is_the_stored_component_as_json_text(engine):
    """In-tree returns null for `config`; ours returns what the API stores.

    In-tree declares `config` (inherited from SoftwareConfig) and returns null
    for it; ours returns what the software-config API stores, which is what a
    deployment delivers to the server.
    """
    assert engine.validate(IN_TREE_STYLE) is None
    ident = engine.create(IN_TREE_STYLE)
    outputs = engine.outputs(ident)
    stored = [
        {'actions': ['CREATE'], 'tool': 'script',
         'config': '#!/bin/sh\necho created\n', 'options': {'debug': True}},
        {'actions': ['DELETE'], 'tool': 'script', 'config': '42',
         'options': {'debug': True}},
    ]
    assert outputs['configs'] == stored
    assert isinstance(outputs['config'], str)
    assert json.loads(outputs['config']) == {'configs': stored}
    config_id = engine.physical_ids(ident)['component']
    shown = engine.client.show_software_config(engine.ctx, config_id)
    assert json.loads(outputs['config']) == shown['config']
    engine.delete(ident)


def test_get_attr_config_of_a_deployed_component(engine):
    template = helpers.component_stack(
        [helpers.script(['CREATE'], 'echo hi')], transport='NO_SIGNAL')
    template['outputs'] = {
        'config': {'value': {'get_attr': ['component', 'config']}}}
    ident = engine.create(template)
    assert json.loads(engine.outputs(ident)['config']) == {'configs': [
        {'actions': ['CREATE'], 'tool': 'script', 'config': 'echo hi',
         'options': {}}]}
    engine.delete(ident)
