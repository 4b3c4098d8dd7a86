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
in plugin_dirs), heat-api, heat-api-cfn, Mistral (behind Keystone), Swift
and Zaqar on Redis for the tests that ask for them (the `swift` and `zaqar`
fixtures), and per DeployedServer a real os-collect-config running
heat-lifecycle-agent. Tests
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
# The agents' logs (their hooks' output included) and heat-engine's hold
# the canary too.
CANARY_LOGS = ('os-collect-config.log', log_scan.ENGINE_LOG)


@pytest.fixture(scope='session')
def secrets_scan():
    """The session's log_scan.Scan, and its canary in the environment.

    The services and agents started after this write the canary to their
    logs (log_scan.announce_canary): a scan that misses it fails.
    """
    canary = log_scan.new_canary()
    os.environ[log_scan.CANARY_ENV] = canary
    yield log_scan.Scan(canary=canary)
    os.environ.pop(log_scan.CANARY_ENV, None)


@pytest.fixture(scope='session')
def cloud(tmp_path_factory, secrets_scan):
    from heat_lifecycle_fixtures.cloud import Cloud
    if not Cloud.available():
        pytest.fail('mariadb-server and rabbitmq-server are needed: run '
                    'tools/run-tests.sh (as root), which installs them')
    with Cloud(str(tmp_path_factory.mktemp('cloud')),
               keystone_options=KEYSTONE_OPTIONS) as env:
        secrets_scan.secrets = env.keystone.passwords  # a set that grows
        log_scan.plant_in_engine_log(env.heat_client(), secrets_scan.canary)
        yield env
    # Every service's, agent's and hook's log of the session, once the
    # cloud is stopped: no password, token or deploy_password in any.
    secrets_scan.read(str(tmp_path_factory.getbasetemp()))
    problems = secrets_scan.problems(CANARY_LOGS)
    assert len(secrets_scan.read_files) > 0 and not problems, (
        'log scan of %d files:\n%s' % (len(secrets_scan.read_files),
                                       '\n'.join(problems)))


@pytest.fixture(scope='session')
def swift(cloud):
    """A real Swift behind the cloud's Keystone, started on first use.

    In the catalog as object-store: POLL_TEMP_URL servers and
    TEMP_URL_SIGNAL deployments work from then on.
    """
    from heat_lifecycle_fixtures.swift import Swift
    with Swift(cloud.path('swift'), cloud.keystone) as store:
        yield store


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


@pytest.fixture(scope='session')
def zaqar(cloud, tmp_path_factory):
    """A Zaqar in the cloud's catalog (`messaging`), started on first use."""
    from heat_lifecycle_fixtures.zaqar import Zaqar
    if not Zaqar.available():
        pytest.fail('redis-server is needed: run tools/run-tests.sh (as '
                    'root), which installs it')
    with Zaqar(str(tmp_path_factory.mktemp('zaqar')), cloud.keystone) as zq:
        yield zq


@pytest.fixture
def heat(cloud):
    return cloud.heat_client()


def example(name):
    with open(os.path.join(EXAMPLES, name)) as f:
        return f.read()


@pytest.fixture
def driver(heat, tmp_path, secrets_scan):
    with stacks.StackDriver(heat, str(tmp_path), prefix='e2e') as drv:
        yield drv
    # Its agents' logs, before pytest removes a passed test's tmp_path.
    secrets_scan.read(str(tmp_path))
