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
"""Who may do what: another project, and a user with only the reader role.

A stack of the demo project with a deployment on a DeployedServer (its
real agent) and an ExternalResource. A user of another project cannot
signal it, request a day-two action of it, read its outputs or its
deployment, nor use the demo project's workflows; a reader of the demo
project cannot request an action, nor signal a running deployment (its
server, through heat-api or a heat-api-cfn signed URL, and a member still
can). Each refusal is a 403 or a 404 from heat-api, never a 5xx, and
changes nothing.
"""

import re

from heatclient import exc
import pytest

from tests.e2e.conftest import example
from tests.e2e import test_signal_path as signal_path
from tests.e2e.test_software_component import journal_lines

DAY_TWO = example('day_two.yaml')
EXTERNAL = example('external_resource.yaml')
PASSWORD = 'permissions-secret'


@pytest.fixture(scope='module')
def intruder(cloud):
    """python-heatclient as a member of another project."""
    cloud.keystone.add_user('intruder', PASSWORD, 'elsewhere')
    return cloud.heat_client(cloud.keystone.session(
        'intruder', PASSWORD, project_name='elsewhere'))


@pytest.fixture(scope='module')
def reader(cloud):
    """python-heatclient as a user with only the reader role on demo."""
    cloud.keystone.add_user('onlyreads', PASSWORD, 'demo', roles=('reader',))
    return cloud.heat_client(cloud.keystone.session(
        'onlyreads', PASSWORD, project_name='demo'))


def refused(call):
    """The HTTP status of a refused call; fails on success or a 5xx."""
    with pytest.raises(exc.HTTPException) as raised:
        call()
    code = raised.value.code
    assert code in (403, 404), (code, str(raised.value))
    return code


def test_another_project_cannot_touch_a_stack(
        driver, heat, intruder, tmp_path):
    journal = str(tmp_path / 'journal')
    stack_id = driver.create(DAY_TWO, {'journal': journal,
                                       'backup_dir': str(tmp_path / 'b')},
                             servers=['server'])
    deployment = heat.resources.get(stack_id, 'deployment')
    before = heat.stacks.get(stack_id).updated_time

    refused(lambda: intruder.stacks.get(stack_id))
    refused(lambda: intruder.stacks.output_list(stack_id))
    refused(lambda: intruder.resources.signal(
        stack_id, 'deployment', data={'deploy_status_code': 1}))
    refused(lambda: intruder.stacks.update(
        stack_id, existing=True,
        parameters={'backup_request': 'from-elsewhere'}))
    refused(lambda: intruder.software_deployments.get(
        deployment.physical_resource_id))
    refused(lambda: intruder.software_deployments.update(
        deployment.physical_resource_id, status='FAILED'))

    # Nothing changed: no update, no signal, no run of the tool.
    assert heat.stacks.get(stack_id).updated_time == before
    assert heat.stacks.get(stack_id).stack_status == 'CREATE_COMPLETE'
    assert journal_lines(journal) == ['configure']
    driver.delete(stack_id)


def test_a_reader_cannot_request_an_action(driver, heat, reader, tmp_path):
    journal = str(tmp_path / 'journal')
    stack_id = driver.create(DAY_TWO, {'journal': journal,
                                       'backup_dir': str(tmp_path / 'b')},
                             servers=['server'])
    # Reading is what the role is for.
    assert reader.stacks.get(stack_id).stack_status == 'CREATE_COMPLETE'
    assert refused(lambda: reader.stacks.update(
        stack_id, existing=True,
        parameters={'backup_request': 'by-a-reader'})) == 403
    assert heat.stacks.get(stack_id).stack_status == 'CREATE_COMPLETE'
    assert journal_lines(journal) == ['configure']
    driver.delete(stack_id)


@pytest.mark.parametrize('transport', ['HEAT_SIGNAL', 'CFN_SIGNAL'])
def test_a_reader_cannot_signal_a_running_deployment(
        driver, heat, reader, transport):
    stack_id = driver.create(
        signal_path.template(transport), {'seconds': 25}, servers=['server'],
        wait=False)
    signal_path.wait_for(
        lambda: signal_path.deployment(heat, stack_id).status ==
        'IN_PROGRESS', 120, 'deployment waiting for its signal')
    for body in ({'deploy_status': 'FAILED',
                  'deploy_status_reason': 'failed by a reader'},
                 {'deploy_status': 'IN_PROGRESS',
                  'deploy_status_reason': 'progress by a reader'}):
        with pytest.raises(exc.HTTPForbidden) as raised:
            reader.resources.signal(stack_id, 'deployment', data=body)
        assert ('You are not authorized to use signals to deployment (the '
                'caller has neither a member role on the project (its '
                'roles: reader) nor the deployment\'s own credentials'
                ) in str(raised.value), str(raised.value)
    # A member's signal is taken (an event), then the server's own result.
    heat.resources.signal(stack_id, 'deployment', data={
        'deploy_status': 'IN_PROGRESS',
        'deploy_status_reason': 'progress by a member'})
    driver.wait(stack_id, 'CREATE')
    assert driver.outputs(stack_id)['result'] == 'done after 25 s'
    sd = signal_path.deployment(heat, stack_id)
    assert (sd.status, sd.status_reason) == ('COMPLETE', 'Outputs received')
    events = signal_path.signal_events(driver, stack_id)
    assert not [e for e in events if 'by a reader' in e], events
    assert 'Signal: deployment %s in progress: progress by a member' % (
        sd.id) in events
    assert events[-1] == 'Signal: deployment %s succeeded' % sd.id
    driver.delete(stack_id)


def test_another_project_cannot_use_the_demo_projects_workflows(
        cloud, intruder, thing_store, mistral_workflows):
    with pytest.raises(exc.HTTPBadRequest) as raised:
        intruder.stacks.create(stack_name='e2e-intruder', template=EXTERNAL,
                               parameters={'store': thing_store.url})
    # The first workflow Heat validates is named (which one varies).
    assert re.search(
        r'resources\.thing\.properties\.actions\.[A-Z]+\.workflow: : '
        r'workflow "thing_[a-z]+" does not exist in Mistral at %s, or '
        r'project elsewhere may not use it \(it is private to another '
        r'project\)' % re.escape(cloud.mistral.url), str(raised.value)), \
        str(raised.value)
