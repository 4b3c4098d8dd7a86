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
"""Reading what a deployment delivered to its server, and signalling it."""

import contextlib
import os
import time

from heat.common import exception
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE_PATH = os.path.join(HERE, '..', '..', '..', 'examples',
                            'software_component.yaml')


def example_template():
    with open(EXAMPLE_PATH) as f:
        return yaml.safe_load(f)


def inputs_of(item):
    """{name: value} of a delivered deployment's inputs."""
    return {i['name']: i.get('value') for i in item['inputs']}


def input_types(item):
    return {i['name']: i.get('type') for i in item['inputs']}


def software_deployment(engine, ident, name='deployment'):
    deployment_id = engine.resource(ident, name, with_attr=False)[
        'physical_resource_id']
    return engine.client.show_software_deployment(engine.ctx, deployment_id)


def wait_for_delivery(engine, ident, action, name='deployment',
                      server='server', previous=None, server_ident=None,
                      timeout=60):
    """Wait for `name` to be `action` IN_PROGRESS with a new derived config.

    New: not `previous`, a metadata item, in the server's metadata; return the
    metadata item of that config.
    """
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        res = engine.resource(ident, name, with_attr=False)
        last = (res['resource_action'], res['resource_status'],
                res['resource_status_reason'])
        if res['resource_status'] == 'FAILED':
            raise AssertionError('%s failed: %s' % (name, last))
        sd = None
        if last[:2] == (action, 'IN_PROGRESS') and \
                res['physical_resource_id']:
            # The resource takes its id a moment before the engine stores
            # the deployment of that id.
            with contextlib.suppress(exception.NotFound):
                sd = software_deployment(engine, ident, name)
        if sd and (sd['action'], sd['status']) == (action, 'IN_PROGRESS') \
                and (previous is None or sd['config_id'] != previous['id']):
            metadata = engine.resource(server_ident or ident, server,
                                       with_attr=False)['metadata'] or {}
            for item in metadata.get('deployments') or []:
                if item['id'] == sd['config_id']:
                    return item
        time.sleep(0.05)
    raise AssertionError('%s: no %s delivery within %ss (last %s)' % (
        name, action, timeout, last))


def signal_events(engine, ident, name='deployment'):
    """(status, reason) of the resource's SIGNAL events, oldest first."""
    return [(e['resource_status'], e['resource_status_reason'])
            for e in engine.events(ident, resource_name=name)
            if e['resource_action'] == 'SIGNAL']


def wait_for_signal_events(engine, ident, count, name='deployment',
                           timeout=30):
    deadline = time.time() + timeout
    while True:
        events = signal_events(engine, ident, name)
        if len(events) >= count or time.time() > deadline:
            return events
        time.sleep(0.1)


def final_signal(**outputs):
    body = {'deploy_stdout': 'out', 'deploy_stderr': '',
            'deploy_status_code': 0}
    body.update(outputs)
    return body


def progress_signal(reason):
    return {'deploy_status': 'IN_PROGRESS', 'deploy_status_reason': reason}


def component_stack(configs, transport='HEAT_SIGNAL', outputs=None,
                    input_values=None):
    """A server, a component with these configs and its deployment."""
    return {
        'heat_template_version': '2016-04-08',
        'resources': {
            'server': {'type': 'OS::Heat::DeployedServer',
                       'properties': {'software_config_transport':
                                      'POLL_SERVER_HEAT'}},
            'component': {'type': 'OS::Heat::SoftwareComponent',
                          'properties': {'configs': configs,
                                         'outputs': outputs or []}},
            'deployment': {'type': 'OS::Heat::SoftwareDeployment',
                           'properties': {
                               'config': {'get_resource': 'component'},
                               'server': {'get_resource': 'server'},
                               'signal_transport': transport,
                               'input_values': input_values or {}}},
        },
    }


def script(actions, text='echo hi'):
    return {'actions': actions, 'tool': 'script', 'config': text}
