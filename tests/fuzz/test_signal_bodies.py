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
"""Generated signal bodies through heat-api, to deployments in waiting.

A loopback cloud (Keystone, heat-api, heat-engine; no Mistral) and
stacks of deployments on a server without an agent: each case signals
one deployment that nobody else signalled. At the end every stack is
deleted and no service logged a traceback.
"""

import json

from hypothesis import strategies as st
import pytest

from heat_lifecycle_fixtures import log_scan
from heat_lifecycle_fixtures import process
from heat_lifecycle_fixtures import stacks
from tests.fuzz import checks_signal_bodies as checks
from tests.fuzz import templates

DEPLOYMENTS_PER_STACK = 8
# heat-engine logs a failed resource action with its traceback; a
# deployment failed by a signal is one. Any other exception is a defect.
EXPECTED = ('heat.common.exception.',)
DEPLOYMENT = {'type': 'OS::Heat::SoftwareDeployment', 'properties': {
    'config': {'get_resource': 'config'},
    'server': {'get_resource': 'server'},
    'signal_transport': 'HEAT_SIGNAL'}}
TEMPLATE = {
    'heat_template_version': '2016-10-14',
    'resources': dict({
        'server': templates.SERVER,
        'config': {'type': 'OS::Heat::SoftwareConfig', 'properties': {
            'group': 'script', 'config': 'true',
            'outputs': [{'name': 'result'}]}},
    }, **{'deployment%d' % n: DEPLOYMENT
          for n in range(DEPLOYMENTS_PER_STACK)}),
}
FIELDS = ('deploy_status', 'deploy_status_reason', 'deploy_stdout',
          'deploy_stderr', 'deploy_status_code', 'result', 'other')
STATUSES = st.sampled_from(('IN_PROGRESS', 'COMPLETE', 'FAILED',
                            'in_progress', 'DONE', '', 'IN_PROGRESS ')) | \
    templates.json_value()


def _sized(size):
    """A progress body of exactly `size` bytes."""
    body = {'deploy_status': 'IN_PROGRESS', 'deploy_status_reason': ''}
    pad = size - len(json.dumps(body))
    body['deploy_status_reason'] = 'r' * pad
    return body


BODIES = st.one_of(
    st.fixed_dictionaries({}, optional={
        field: STATUSES if field == 'deploy_status' else
        templates.json_value() for field in FIELDS}),
    st.fixed_dictionaries({'deploy_status': st.just('IN_PROGRESS'),
                           'deploy_status_reason': templates.json_value()}),
    templates.json_value(),
    st.binary(max_size=64),
    st.sampled_from((b'', b'{not json', b'\xff\xfe', b'null')),
    st.sampled_from((checks.MAX_JSON_BODY_SIZE,
                     checks.MAX_JSON_BODY_SIZE + 1)).map(_sized),
)


class Signals(object):
    """Fresh deployments to signal, and heat-api to signal them through."""

    def __init__(self, cloud, driver):
        self.cloud, self.driver = cloud, driver
        self.heat = cloud.heat_client()
        self.waiting = []

    def fresh_deployment(self):
        if not self.waiting:
            stack_id = self.driver.create(TEMPLATE, wait=False)
            name = self.heat.stacks.get(stack_id).stack_name
            self.waiting = [(stack_id, name, 'deployment%d' % n)
                            for n in range(DEPLOYMENTS_PER_STACK)]
            for found in self.waiting:
                process.wait_until(
                    lambda: self.status(found) == checks.PROGRESS, 120,
                    '%s waiting for its signal' % found[2])
        return self.waiting.pop()

    def post(self, deployment, raw):
        stack_id, name, resource = deployment
        url = '%s/stacks/%s/%s/resources/%s/signal' % (
            self.cloud.heat.url(self.cloud.keystone.demo_project_id), name,
            stack_id, resource)
        return self.cloud.keystone.demo_session().post(
            url, data=raw, headers={'Content-Type': 'application/json'},
            raise_exc=False).status_code

    def status(self, deployment):
        stack_id, _name, resource = deployment
        physical = self.heat.resources.get(
            stack_id, resource).physical_resource_id
        if not physical:
            return None
        return self.heat.software_deployments.get(physical).status


@pytest.fixture(scope='module')
def cloud(tmp_path_factory):
    from heat_lifecycle_fixtures.cloud import Cloud
    workdir = str(tmp_path_factory.mktemp('cloud'))
    with Cloud(workdir, with_mistral=False) as env:
        yield env
    found = log_scan.tracebacks([workdir], EXPECTED)
    assert not found, 'tracebacks in the logs:\n%s' % '\n'.join(found)


# Each example is a real round trip through heat-api: 30 took 384 s of
# the CI fuzz job's 782; the hour-long search (--long) runs thousands.
EXAMPLES = 15


def test_signal_bodies_through_heat_api(fuzz, cloud, tmp_path):
    with stacks.StackDriver(cloud.heat_client(), str(tmp_path),
                            prefix='fuzz') as driver:
        checks.SIGNALS = Signals(cloud, driver)
        try:
            fuzz.run(st.lists(BODIES, min_size=1, max_size=4),
                     checks.bodies_to_one_deployment, EXAMPLES)
        finally:
            checks.SIGNALS = None
        for stack_id in list(driver.stack_ids):
            driver.delete(stack_id)
