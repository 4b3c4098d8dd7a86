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
"""HEAT_SIGNAL: the agent signals through python-heatclient.

With the deployment's Keystone credentials, to a stand-in speaking that
protocol and, in the last test, on to a real in-process Heat engine.
"""

import os
import time
import uuid

import pytest
import yaml

from tests.agent.conftest import deployment
from tests.agent import http_stand_ins

EXAMPLE = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir,
                       'examples', 'agent.yaml')
USER, PASSWORD, PROJECT = 'user-42', 'pa55-heat-signal', 'project-7'


@pytest.fixture
def heat_api():
    server = http_stand_ins.KeystoneHeatStandIn(USER, PASSWORD, PROJECT)
    yield server
    server.stop()


def _heat_inputs(heat_api, password=PASSWORD, **extra):
    values = dict(deploy_auth_url=heat_api.auth_url, deploy_user_id=USER,
                  deploy_password=password, deploy_project_id=PROJECT,
                  deploy_stack_id='web/9f1c-stack', deploy_resource_name='dep',
                  deploy_signal_transport='HEAT_SIGNAL')
    values.update(extra)
    return values


def test_native_signal_progress_and_result(agent, heat_api):
    agent.write([deployment(group='recorder', deploy_status_aware='true',
                            **_heat_inputs(heat_api))])
    run = agent.run()
    assert run.returncode == 0, run.stderr
    progress, final = heat_api.signals
    assert progress['deploy_status'] == 'IN_PROGRESS'
    assert final['deploy_status'] == 'COMPLETE'
    assert final['result'] == 'ok'
    signal_paths = [r.path for r in heat_api.requests
                    if r.path.endswith('/signal')]
    assert signal_paths == ['/v1/%s/stacks/web/9f1c-stack/resources/dep/'
                            'signal' % PROJECT] * 2
    assert PASSWORD not in run.stderr


def test_native_signal_retries_5xx_and_reports_4xx(agent, heat_api):
    heat_api.signal_statuses = [503]
    agent.write([deployment('ok', group='recorder',
                            **_heat_inputs(heat_api)),
                 deployment('refused', group='recorder',
                            **_heat_inputs(heat_api, password='wrong'))])
    run = agent.run()
    assert run.returncode == 1
    assert len(heat_api.signals) == 1 and heat_api.signals[0]['result'] \
        == 'ok'
    assert 'rejected with HTTP 401' in run.stderr
    assert 'wrong' not in run.stderr.replace('wrong credentials', '')
    tokens = [r for r in heat_api.requests if r.path == '/v3/auth/tokens']
    assert len(tokens) == 3  # ok twice (one retry), refused once


def _deployment_template(server_id):
    return {
        'heat_template_version': '2016-10-14',
        'resources': {
            'config': {'type': 'OS::Heat::SoftwareConfig', 'properties': {
                'group': 'script',
                'inputs': [{'name': 'who'}],
                'outputs': [{'name': 'greeting'}],
                'config': '#!/bin/sh\necho "deploying for $who"\n'
                          'printf "hello %s" "$who" > '
                          '"$heat_outputs_path.greeting"\n'}},
            'deployment': {'type': 'OS::Heat::SoftwareDeployment',
                           'properties': {
                               'config': {'get_resource': 'config'},
                               'server': server_id,
                               'signal_transport': 'HEAT_SIGNAL',
                               'input_values': {'who': 'engine'}}}},
        'outputs': {
            'greeting': {'value': {'get_attr': ['deployment', 'greeting']}},
            'stdout': {'value': {'get_attr': ['deployment',
                                              'deploy_stdout']}},
            'code': {'value': {'get_attr': ['deployment',
                                            'deploy_status_code']}}}}


def _context(heat_api):
    """A request context whose Keystone is the stand-in.

    Heat checks the catalog for an orchestration endpoint before it accepts
    software config types, and authenticates the stack's stored credentials
    when it handles a signal; both go to the stand-in. The engine's own
    Keystone admin calls still go to Heat's FakeKeystoneClient.
    """
    from heat.tests import utils
    ctx = utils.dummy_context(password='secret', user_id='test_user',
                              roles=['member'])
    ctx.auth_url = heat_api.auth_url
    heat_api.accept(ctx.username, ctx.password, ctx.project_id)
    return ctx


class EngineServer(object):
    """A server's view of the in-process engine.

    Its deployments metadata (what os-collect-config fetches) and a
    Keystone/Heat-API stand-in that takes the agent's signals to the engine's
    resource_signal, as heat-api does.
    """

    def __init__(self, engine):
        self.engine = engine
        self.server_id = 'agent-server-%s' % uuid.uuid4().hex[:8]
        self.ident = None
        self.signals = []
        self.api = http_stand_ins.KeystoneHeatStandIn(
            'nobody', 'unused', 'none', on_signal=self._relay)
        self.ctx = _context(self.api)

    def _relay(self, stack_name, stack_id, resource, details):
        assert stack_id == self.ident['stack_id']
        self.engine.client.resource_signal(self.ctx, self.ident, resource,
                                           details, sync_call=True)
        self.signals.append(details)

    def create(self, template, params=None):
        self.ident = self.engine.client.create_stack(
            self.ctx, 'agent-%s' % uuid.uuid4().hex[:8], template,
            {'parameters': dict(params or {}, server=self.server_id)}
            if 'parameters' in template else {}, {}, {})
        return self.ident

    def delete(self):
        self.engine.client.delete_stack(self.ctx, self.ident, cast=False)

    def deployments(self, action, timeout=60):
        """The server's deployments once one carries `action`."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            found = self.engine.client.metadata_software_deployments(
                self.ctx, self.server_id)
            actions = [i['value'] for d in found for i in d['inputs']
                       if i['name'] == 'deploy_action']
            if action in actions:
                return self._deliverable(found)
            time.sleep(0.1)
        raise AssertionError('no %s deployment for server %s'
                             % (action, self.server_id))

    def _deliverable(self, found):
        for dep in found:
            values = {i['name']: i['value'] for i in dep['inputs']}
            self.api.accept(values['deploy_user_id'],
                            values['deploy_password'],
                            values['deploy_project_id'])
            # Heat's fake Keystone URL is not reachable: deliver the
            # stand-in's, as a real cloud's deploy_auth_url would be.
            for item in dep['inputs']:
                if item['name'] == 'deploy_auth_url':
                    item['value'] = self.api.auth_url
        return found

    def stop(self):
        self.api.stop()


@pytest.fixture
def engine_server(engine):
    server = EngineServer(engine)
    yield server
    server.stop()


def _expected_signals(deployments):
    aware = [i['value'] for d in deployments for i in d['inputs']
             if i['name'] == 'deploy_status_aware']
    if aware and str(aware[0]).lower() == 'true':
        # An adapted SoftwareDeployment: progress first, then the result.
        return ['IN_PROGRESS', 'COMPLETE']
    # An engine that does not know progress signals gets the result only.
    return [None]


def test_deployment_completes_through_real_engine(engine, engine_server,
                                                  agent):
    ident = engine_server.create(_deployment_template(
        engine_server.server_id))
    deployments = engine_server.deployments('CREATE')
    agent.write(deployments)
    run = agent.run()
    assert run.returncode == 0, run.stderr
    engine.wait(ident, 'CREATE', 'COMPLETE')
    assert engine.outputs(ident) == {'greeting': 'hello engine',
                                     'stdout': 'deploying for engine\n',
                                     'code': 0}
    assert [s.get('deploy_status') for s in engine_server.signals] == \
        _expected_signals(deployments)
    password = [i['value'] for i in deployments[0]['inputs']
                if i['name'] == 'deploy_password'][0]
    assert password not in run.stderr
    engine_server.delete()
    engine.wait(ident, 'DELETE', 'COMPLETE')


def test_example_component_lifecycle_through_real_engine(engine,
                                                         engine_server,
                                                         agent):
    with open(EXAMPLE) as f:
        template = yaml.safe_load(f)
    result = engine.client.validate_template(
        engine_server.ctx, template, {'parameters': {'server': 'x'}})
    assert 'Error' not in result and 'server' in result['Parameters']
    ident = engine_server.create(template, {'http_port': 8081})
    agent.write(engine_server.deployments('CREATE'))
    run = agent.run()
    assert run.returncode == 0, run.stderr
    engine.wait(ident, 'CREATE', 'COMPLETE')
    outputs = engine.outputs(ident)
    assert outputs['install_log'] == \
        'configuring the app server on port 8081\n'
    assert outputs['root_url'].endswith(':8081/')

    # UPDATE: a new port; the component's CREATE/UPDATE entry runs again.
    engine.client.update_stack(
        engine_server.ctx, ident, template,
        {'parameters': {'server': engine_server.server_id,
                        'http_port': 9090}}, {}, {})
    agent.write(engine_server.deployments('UPDATE'))
    run = agent.run()
    assert run.returncode == 0, run.stderr
    engine.wait(ident, 'UPDATE', 'COMPLETE')
    outputs = engine.outputs(ident)
    assert outputs['install_log'] == \
        'configuring the app server on port 9090\n'
    assert outputs['root_url'].endswith(':9090/')
    # Not deleted here: the DELETE step waits for Nova to confirm the
    # server exists, and there is no Nova in this tier (end-to-end covers
    # it); DELETE selection is tested against the agent alone.
