"""The loopback cloud of the end-to-end tests, one per session.

Real processes only: MariaDB, RabbitMQ, Keystone, heat-engine (our loader
in plugin_dirs), heat-api, heat-api-cfn, Mistral, and per DeployedServer a
real os-collect-config running heat-lifecycle-agent. Tests drive it with
python-heatclient as the demo user.
"""

import os
import uuid

import pytest

from tests.services import deployed_server
from tests.services import stacks

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), 'examples')


@pytest.fixture(scope='session')
def cloud(tmp_path_factory):
    from tests.services.cloud import Cloud
    from tests.services.mariadb import MariaDB
    from tests.services.rabbitmq import RabbitMQ
    if not (MariaDB.available() and RabbitMQ.available()):
        pytest.fail('mariadb-server and rabbitmq-server are needed: run '
                    'tools/run-tests.sh, which installs them')
    env = Cloud(str(tmp_path_factory.mktemp('cloud'))).start()
    yield env
    env.stop()


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
def thing_store(tmp_path_factory):
    from tests.services.thing_store import ThingStore
    store = ThingStore(str(tmp_path_factory.mktemp('thing-store'))).start()
    yield store
    store.stop()


@pytest.fixture(scope='session')
def mistral_workflows(cloud):
    """The cloud's Mistral, with the example's workflows (and a failing
    one) registered as a user of the cloud does."""
    if cloud.mistral is None:
        pytest.fail('this tree has no Mistral fixture (tests/services/'
                    'mistral.py)')
    client = cloud.mistral.client()
    client.workflows.create(example('external_resource_workflows.yaml'))
    client.workflows.create(FAILING_WORKFLOWS)
    return cloud.mistral


@pytest.fixture
def heat(cloud):
    return cloud.heat_client()


def example(name):
    with open(os.path.join(EXAMPLES, name)) as f:
        return f.read()


class StackDriver(object):
    """Creates stacks, runs their servers' agents, cleans up after a test."""

    def __init__(self, hc, workdir):
        self.hc = hc
        self.workdir = workdir
        self.agents = []
        self.stack_ids = []

    def create(self, template, params=None, servers=(), expect='COMPLETE',
               files=None, wait=True):
        name = 'e2e-%s' % uuid.uuid4().hex[:8]
        created = self.hc.stacks.create(
            stack_name=name, template=template, parameters=params or {},
            files=files or {})
        stack_id = created['stack']['id']
        self.stack_ids.append(stack_id)
        for server in servers:
            self.start_agent(stack_id, server)
        if wait:
            self.wait(stack_id, 'CREATE', expect)
        return stack_id

    def wait(self, stack_id, action, expect='COMPLETE'):
        """stacks.wait, with the servers' agent logs on failure."""
        try:
            return stacks.wait(self.hc, stack_id, action, expect)
        except stacks.StackFailed as exc:
            logs = ''.join('\n--- %s:\n%s' % (a.log_path, a.log_tail(3000))
                           for a in self.agents)
            raise stacks.StackFailed('%s%s' % (exc, logs)) from None

    def start_agent(self, stack_id, server):
        agent = deployed_server.DeployedServerAgent(
            os.path.join(self.workdir, '%s-%s' % (server, len(self.agents))),
            self.hc, stack_id, server).start()
        self.agents.append(agent)
        return agent

    def update(self, stack_id, template, params=None, expect='COMPLETE',
               files=None, existing=False):
        self.hc.stacks.update(stack_id, template=template,
                              parameters=params or {}, files=files or {},
                              existing=existing)
        return self.wait(stack_id, 'UPDATE', expect)

    def action(self, stack_id, action, expect='COMPLETE'):
        getattr(self.hc.actions, action.lower())(stack_id)
        return self.wait(stack_id, action, expect)

    def delete(self, stack_id, expect='COMPLETE'):
        self.hc.stacks.delete(stack_id)
        result = self.wait(stack_id, 'DELETE', expect)
        if expect == 'COMPLETE':
            self.stack_ids.remove(stack_id)
        return result

    def outputs(self, stack_id):
        stack = self.hc.stacks.get(stack_id)
        return {o['output_key']: o.get('output_value')
                for o in stack.outputs or []}

    def cleanup(self):
        for stack_id in list(self.stack_ids):
            try:
                self.hc.stacks.delete(stack_id)
                stacks.wait(self.hc, stack_id, 'DELETE', None, timeout=120)
            except Exception:
                pass
        for agent in self.agents:
            agent.stop()


@pytest.fixture
def driver(heat, tmp_path):
    drv = StackDriver(heat, str(tmp_path))
    yield drv
    drv.cleanup()
