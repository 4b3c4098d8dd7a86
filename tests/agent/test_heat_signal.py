"""HEAT_SIGNAL: the agent signals through python-heatclient with the
deployment's Keystone credentials, to a stand-in speaking that protocol and,
in the last test, on to a real in-process Heat engine."""

import time
import uuid

import pytest

from tests.agent import http_stand_ins
from tests.agent.conftest import deployment

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
    ctx = utils.dummy_context(password='secret', user_id='test_user')
    ctx.auth_url = heat_api.auth_url
    heat_api.accept(ctx.username, ctx.password, ctx.project_id)
    return ctx


def _wait_for_deployments(engine, server_id, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = engine.client.metadata_software_deployments(engine.ctx,
                                                            server_id)
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError('no deployment for server %s' % server_id)


def test_deployment_completes_through_real_engine(engine, agent):
    server_id = 'agent-server-%s' % uuid.uuid4().hex[:8]
    signals = []

    def relay(stack_name, stack_id, resource, details):
        # What heat-api does with a signal: EngineClient.resource_signal.
        assert stack_id == ident['stack_id']
        engine.client.resource_signal(ctx, ident, resource, details,
                                      sync_call=True)
        signals.append(details)

    heat_api = http_stand_ins.KeystoneHeatStandIn(
        'nobody', 'unused', 'none', on_signal=relay)
    try:
        ctx = _context(heat_api)
        ident = engine.client.create_stack(
            ctx, 'agent-%s' % uuid.uuid4().hex[:8],
            _deployment_template(server_id), {}, {}, {})
        deployments = _wait_for_deployments(engine, server_id)
        inputs = {i['name']: i['value'] for d in deployments
                  for i in d['inputs']}
        heat_api.accept(inputs['deploy_user_id'], inputs['deploy_password'],
                        inputs['deploy_project_id'])
        # The fake Keystone's URL is not the stand-in's: deliver the
        # stand-in's, as a real cloud's deploy_auth_url would be reachable.
        for dep in deployments:
            for item in dep['inputs']:
                if item['name'] == 'deploy_auth_url':
                    item['value'] = heat_api.auth_url
        agent.write(deployments)
        run = agent.run()
        assert run.returncode == 0, run.stderr
        engine.wait(ident, 'CREATE', 'COMPLETE')
        assert engine.outputs(ident) == {'greeting': 'hello engine',
                                         'stdout': 'deploying for engine\n',
                                         'code': 0}
        engine.delete(ident)
    finally:
        heat_api.stop()

    if str(inputs.get('deploy_status_aware')).lower() == 'true':
        # The adapted SoftwareDeployment: progress first, then the result.
        assert [s.get('deploy_status') for s in signals] == [
            'IN_PROGRESS', 'COMPLETE']
    else:
        # An engine that does not know progress signals gets only one.
        assert len(signals) == 1 and 'deploy_status' not in signals[0]
    assert inputs['deploy_password'] not in run.stderr
