"""One failure per type, checked as a user sees it: `stack show` and the
events API through python-heatclient."""

from tests.e2e import test_resource_chain as chain
from tests.services import stacks

FAILING_COMPONENT = """
heat_template_version: 2016-04-08
resources:
  server:
    type: OS::Heat::DeployedServer
    properties:
      software_config_transport: POLL_SERVER_HEAT
  appserver:
    type: OS::Heat::SoftwareComponent
    properties:
      configs:
        - actions: [CREATE]
          tool: script
          config: |
            #!/bin/sh
            echo "installing"
            echo "disk full" >&2
            exit 3
  deployment:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: appserver}
      server: {get_resource: server}
      signal_transport: HEAT_SIGNAL
"""


def failed_events(hc, stack_id, resource_name):
    return [e for e in stacks.events(hc, stack_id)
            if e.resource_name == resource_name and
            e.resource_status.endswith('_FAILED')]


def test_failing_component_script(driver, heat):
    stack_id = driver.create(FAILING_COMPONENT, servers=['server'],
                             expect='FAILED')
    stack = heat.stacks.get(stack_id)
    assert stack.stack_status == 'CREATE_FAILED'
    [event] = failed_events(heat, stack_id, 'deployment')
    assert event.resource_status == 'CREATE_FAILED'
    # What `openstack stack show` and `stack event list` print:
    assert event.resource_status_reason.startswith(
        'Error: resources.deployment: Deployment to server failed: ')
    assert event.resource_status_reason.endswith(
        'Deployment exited with non-zero status code: 3')
    assert stack.stack_status_reason == (
        'Resource CREATE failed: ' + event.resource_status_reason)
    # The tool's own output is on the deployment, for `resource show`.
    deployment = heat.resources.get(stack_id, 'deployment',
                                    with_attr=['show'])
    outputs = deployment.attributes['show']['output_values']
    assert outputs['deploy_status_code'] == 3
    assert outputs['deploy_stdout'] == 'installing\n'
    assert outputs['deploy_stderr'].startswith('disk full\n')


def test_failing_chain_member(driver, heat):
    steps = {'step1': ['steps/loadbalancer.yaml', 'steps/broken.yaml',
                       'steps/db.yaml']}
    files = dict(chain.FILES, **{'steps/broken.yaml':
                                 chain.read('steps/broken.yaml')})
    stack_id = driver.create(chain.TEMPLATE, {'steps': steps}, files=files,
                             expect='FAILED')
    reason = heat.stacks.get(stack_id).stack_status_reason
    assert 'resources.DeploymentStep1' in reason, reason
    assert 'Test Resource failed' in reason, reason
    [event] = failed_events(heat, stack_id, 'DeploymentStep1')
    assert 'Test Resource failed' in event.resource_status_reason
    # The chain is serial: the member after the broken one never started.
    configured = [r.resource_type for r in
                  heat.resources.list(stack_id, nested_depth=1)]
    assert 'steps/db.yaml' not in configured or all(
        r.resource_status == 'INIT_COMPLETE'
        for r in heat.resources.list(stack_id, nested_depth=1)
        if r.resource_type == 'steps/db.yaml')
