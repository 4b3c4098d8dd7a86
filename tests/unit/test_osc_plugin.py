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
"""The OSC plugin keeps to osc-lib's public client manager.

osc-lib's ClientManager keeps its state in private attributes
(_auth_required, _cli_options, ...) that OSC's shell sets; a plugin that
writes them breaks silently when an osc-lib release changes them. Here a
real ClientManager, authenticated as OSC's shell does it (no HTTP until a
request), refuses every private write once OSC has set it up.
tests/e2e/test_osc_commands.py runs the commands against a real cloud.
"""

import pytest

from openstack.config import loader
from osc_lib import clientmanager

from heat_lifecycle_plugins.osc import plugin
from heat_lifecycle_plugins.osc import v1

COMMANDS = (v1.ListCauses, v1.RunAction, v1.ListProgress, v1.WatchProgress)


class PrivateWrite(AssertionError):
    pass


class SealedClientManager(clientmanager.ClientManager):
    """A ClientManager that refuses private writes once sealed."""

    sealed = False

    def __setattr__(self, name, value):
        if self.sealed and name.startswith('_'):
            raise PrivateWrite('the plugin set ClientManager.%s' % name)
        super().__setattr__(name, value)

    @property
    def lifecycle(self):  # as OSC attaches a plugin's make_client
        return plugin.make_client(self)


class App:
    def __init__(self, client_manager):
        self.client_manager = client_manager


@pytest.fixture
def manager():
    """A client manager as OSC's shell leaves it for an auth command."""
    cloud = loader.OpenStackConfig(
        load_yaml_config=False, load_envvars=False,
        app_name='openstackclient', app_version='9.9.9').get_one(
        auth_type='password', region_name='RegionOne', validate=True,
        auth={'auth_url': 'http://keystone.invalid/v3',
              'username': 'demo', 'password': 'secret',
              'project_name': 'demo', 'user_domain_name': 'Default',
              'project_domain_name': 'Default'})
    found = SealedClientManager(
        cli_options=cloud,
        api_version={plugin.API_NAME: plugin.DEFAULT_API_VERSION})
    found.setup_auth()
    found.sealed = True
    return found


@pytest.mark.parametrize('command', COMMANDS, ids=lambda c: c.__name__)
def test_commands_leave_authentication_to_osc(command):
    # osc-lib's shell authenticates (with OSC's user agent) before a
    # command whose auth_required is not False.
    assert getattr(command, 'auth_required', True) is True


def test_the_client_is_heatclient_on_oscs_session_and_nothing_private_set(
        manager):
    client = v1.ListCauses(App(manager), None).heat()
    assert client.http_client.session is manager.session
    assert client.http_client.region_name == 'RegionOne'
    assert client.http_client.service_type == 'orchestration'
    # OSC's user agent rides on its session.
    assert (client.http_client.session.app_name,
            client.http_client.session.app_version) == (
        'openstackclient', '9.9.9')


def test_a_private_write_is_caught(manager):
    # The guard itself: what the plugin once did fails here.
    with pytest.raises(PrivateWrite):
        manager._auth_required = True
