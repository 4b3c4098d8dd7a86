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
"""The engine-agent contract.

Heat's names where Heat has them, no Heat on the agent's side.
"""

import json
import subprocess
import sys

from heat.engine.resources.openstack.heat import software_component
from heat.engine.resources.openstack.heat import software_deployment
from heat.engine import software_config_io as swc_io
from heat.rpc import api as rpc_api

from heat_lifecycle_plugins import protocol

InTreeDeployment = software_deployment.SoftwareDeployment
InTreeComponent = software_component.SoftwareComponent


def test_derived_inputs_are_heats():
    assert protocol.DERIVED_INPUTS == InTreeDeployment.DERIVED_CONFIG_INPUTS
    assert protocol.DEPLOY_STATUS_AWARE not in protocol.DERIVED_INPUTS


def test_signal_keys_and_statuses_are_heats():
    assert protocol.STANDARD_OUTPUTS == rpc_api.SOFTWARE_DEPLOYMENT_OUTPUTS
    assert protocol.STANDARD_OUTPUTS == InTreeDeployment.ATTRIBUTES
    assert set(protocol.STATUSES) == set(
        rpc_api.SOFTWARE_DEPLOYMENT_STATUSES)


def test_actions_and_transports_are_heats():
    assert set(protocol.LIFECYCLE_ACTIONS) == set(
        InTreeDeployment.ALLOWED_DEPLOY_ACTIONS)
    assert protocol.SIGNAL_TRANSPORTS == InTreeDeployment.SIGNAL_TRANSPORTS
    assert set(protocol.STATUS_AWARE_TRANSPORTS) < set(
        protocol.SIGNAL_TRANSPORTS)


def test_delivered_deployment_keys_are_heats():
    assert set(protocol.DEPLOYMENT_KEYS) <= set(rpc_api.SOFTWARE_CONFIG_KEYS)
    assert (protocol.IO_NAME, protocol.IO_TYPE, protocol.IO_VALUE,
            protocol.IO_ERROR_OUTPUT) == (
        swc_io.IO_NAME, swc_io.TYPE, swc_io.VALUE, swc_io.ERROR_OUTPUT)
    assert protocol.STRING_TYPE == swc_io.STRING_TYPE


def test_component_keys_are_heats():
    assert protocol.CONFIGS == InTreeComponent.CONFIGS
    assert (protocol.ACTIONS, protocol.ENTRY_CONFIG, protocol.TOOL) == (
        InTreeComponent.CONFIG_PROPERTIES)


def test_the_agent_imports_no_heat_and_registers_no_option():
    code = ('import sys, json\n'
            'from oslo_config import cfg\n'
            'from heat_lifecycle_plugins.agent import main\n'
            'print(json.dumps({"heat": sorted(m for m in sys.modules\n'
            '                                 if m.split(".")[0] == "heat"),\n'
            '                  "groups": sorted(cfg.CONF)}))\n')
    proc = subprocess.run([sys.executable, '-c', code], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    assert found['heat'] == []
    assert 'heat_lifecycle_agent' not in found['groups']
    assert 'heat_lifecycle_plugins' not in found['groups']


def test_is_true():
    for value in (True, 'true', ' True '):
        assert protocol.is_true(value)
    for value in (False, None, 'false', 'yes', 1, ''):
        assert not protocol.is_true(value)


def test_tool_options_split_sections_by_tool():
    options = {'chef': {'a': 1}, 'puppet': {'b': 2}, 'debug': True}
    tools = {'chef', 'puppet'}
    assert protocol.tool_options(options, 'chef', tools) == {
        'chef': {'a': 1}, 'debug': True}
    assert protocol.tool_options(options, 'script', tools | {'script'}) == {
        'debug': True}
    assert protocol.tool_options(None, 'chef', tools) is None


def test_shown_is_short_storable_text():
    assert protocol.shown('caf\udce9') == "'caf\\udce9'"  # repr escapes
    assert protocol.shown('\U0001f600') == "'\ufffd'"
    assert protocol.shown('x' * 500, 10) == "'xxxxxxxxx..."


def test_an_id_the_database_cannot_hold_has_a_problem():
    assert protocol.storable_id_problem('5b3c-e9') is None
    assert protocol.storable_id_problem({'get_resource': 'a'}) is None
    for bad in ('caf\udce9', 'id\U0001f600'):
        problem = protocol.storable_id_problem(bad)
        assert problem.startswith(protocol.shown(bad) + ' is not an id')
