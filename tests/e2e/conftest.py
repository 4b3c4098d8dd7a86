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
"""The loopback cloud of the end-to-end tests, one per session.

Real processes only: MariaDB, RabbitMQ, Keystone, heat-engine (our loader
in plugin_dirs), heat-api, heat-api-cfn, Mistral (behind Keystone), and per
DeployedServer a real os-collect-config running heat-lifecycle-agent. Tests
drive it with python-heatclient as the demo user, through
heat_lifecycle_fixtures.stacks.StackDriver.

Keystone refuses a signed request 1 minute after its timestamp
([credential] auth_ttl = 1, default 15): whatever signs with a timestamp
fails any test that runs longer.
"""

import os

import pytest

from heat_lifecycle_fixtures import log_scan
from heat_lifecycle_fixtures import stacks

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), 'examples')


KEYSTONE_OPTIONS = {'credential': {'auth_ttl': 1}}


@pytest.fixture(scope='session')
def cloud(tmp_path_factory):
    from heat_lifecycle_fixtures.cloud import Cloud
    if not Cloud.available():
        pytest.fail('mariadb-server and rabbitmq-server are needed: run '
                    'tools/run-tests.sh (as root), which installs them')
    with Cloud(str(tmp_path_factory.mktemp('cloud')),
               keystone_options=KEYSTONE_OPTIONS) as env:
        yield env
    # Every service's, agent's and hook's log of the session, once the
    # cloud is stopped: no password, token or deploy_password in any.
    found = log_scan.findings([str(tmp_path_factory.getbasetemp())],
                              env.keystone.passwords)
    assert not found, 'secrets in the logs:\n%s' % '\n'.join(found)


# A CREATE workflow that fails the way a real one does: a task errors out.
FAILING_WORKFLOWS = """
version: '2.0'

thing_create_refused:
  input: [store, size: 1, color: null]
  tasks:
    refuse:
      action: std.fail
      input:
        error_data: quota of things exceeded
"""


@pytest.fixture(scope='session')
def mistral_workflows(cloud):
    """The demo user's Mistral client, once the workflows are registered.

    The example's workflows and a failing one, registered by the demo
    user (private to the demo project), as a user of the cloud does.
    """
    client = cloud.mistral_client()
    client.workflows.create(example('external_resource_workflows.yaml'))
    client.workflows.create(FAILING_WORKFLOWS)
    return client


@pytest.fixture
def heat(cloud):
    return cloud.heat_client()


def example(name):
    with open(os.path.join(EXAMPLES, name)) as f:
        return f.read()


@pytest.fixture
def driver(heat, tmp_path):
    with stacks.StackDriver(heat, str(tmp_path), prefix='e2e') as drv:
        yield drv
