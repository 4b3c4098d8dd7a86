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
"""The fixtures' HOT builders write what a hand-written template says."""

from heat.common import config  # noqa: F401 (max_template_size)
from heat.common import template_format

from heat_lifecycle_fixtures import hot

BY_HAND = """
heat_template_version: 2016-04-08
parameters:
  seconds:
    type: number
resources:
  server:
    type: OS::Heat::DeployedServer
    properties:
      software_config_transport: POLL_SERVER_HEAT
  config:
    type: OS::Heat::SoftwareConfig
    properties:
      group: script
      inputs:
        - name: seconds
      outputs:
        - name: result
      config: |
        #!/bin/sh
        sleep "$seconds"
  deployment:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: config}
      server: {get_resource: server}
      signal_transport: CFN_SIGNAL
      input_values:
        seconds: {get_param: seconds}
      start_timeout: 30
outputs:
  result:
    value: {get_attr: [deployment, result]}
"""


def test_builders_write_what_heat_reads_from_the_hand_written_one():
    built = hot.template(
        hot.with_server(
            config=hot.script_config('#!/bin/sh\nsleep "$seconds"\n',
                                     ['seconds'], ['result']),
            deployment=hot.deployment(
                'config', 'CFN_SIGNAL', input_values=hot.from_params(
                    'seconds'), start_timeout=30)),
        hot.params(seconds='number'), hot.attr_outputs('deployment',
                                                       'result'))
    assert template_format.parse(built) == template_format.parse(BY_HAND)


def test_scripts_are_written_as_blocks():
    built = hot.template({'config': hot.script_config('#!/bin/sh\nexit 0\n')})
    assert '      config: |\n        #!/bin/sh\n        exit 0\n' in built
    assert 'parameters' not in built and 'outputs' not in built


def test_a_thing_names_its_workflows_or_takes_the_action_as_given():
    built = hot.one_thing({'CREATE': 'make', 'UPDATE': {
        'workflow': 'change', 'params': {'env': 'named'}}},
        input={'size': 1})
    assert template_format.parse(built) == template_format.parse('''
heat_template_version: 2016-10-14
resources:
  thing:
    type: OS::Mistral::ExternalResource
    properties:
      actions:
        CREATE: {workflow: make}
        UPDATE: {workflow: change, params: {env: named}}
      input: {size: 1}
''')
