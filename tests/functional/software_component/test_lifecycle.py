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
"""The example template through create, update, suspend, resume and delete.

For each action the deployment must deliver the whole config set of the
component to the server (group `component`, each entry with its tool's
options) with deploy_action set to that action, and wait for the signal.
"""

from tests.functional.software_component import helpers

SHARED = {'log_level': 'info'}
PUPPET = {'modulepath': '/etc/puppet/modules'}


def expected_configs():
    props = helpers.example_template()['resources']['appserver'][
        'properties']
    stored = []
    for entry in props['configs']:
        options = dict(SHARED)
        if entry['tool'] == 'puppet':
            options['puppet'] = PUPPET
        stored.append(dict(entry, options=options))
    return stored


def check_delivery(item, action, http_port):
    assert item['group'] == 'component'
    assert item['config'] == {'configs': expected_configs()}
    inputs = helpers.inputs_of(item)
    assert inputs['deploy_action'] == action
    assert inputs['deploy_status_aware'] == 'true'
    assert helpers.input_types(item)['deploy_status_aware'] == 'String'
    assert inputs['deploy_signal_transport'] == 'HEAT_SIGNAL'
    assert inputs['http_port'] == http_port
    assert [o['name'] for o in item['outputs']] == ['root_url']


def test_example_validates(engine):
    assert engine.validate(helpers.example_template()) is None


def test_component_follows_every_stack_action(engine):
    template = helpers.example_template()
    ident = engine.create(template, wait=False)

    item = helpers.wait_for_delivery(engine, ident, 'CREATE')
    check_delivery(item, 'CREATE', 8080)
    engine.signal(ident, 'deployment',
                  helpers.progress_signal('installing packages'))
    engine.signal(ident, 'deployment',
                  helpers.progress_signal('starting the service'))
    res = engine.resource(ident, 'deployment', with_attr=False)
    assert (res['resource_action'], res['resource_status']) == (
        'CREATE', 'IN_PROGRESS')
    sd = helpers.software_deployment(engine, ident)
    assert sd['status'] == 'IN_PROGRESS'
    assert sd['status_reason'] == 'In progress: starting the service'
    engine.signal(ident, 'deployment',
                  helpers.final_signal(root_url='http://app:8080/'))
    engine.wait(ident, 'CREATE')
    assert engine.outputs(ident)['root_url'] == 'http://app:8080/'
    assert engine.outputs(ident)['configs'] == expected_configs()

    engine.update(ident, template, params={'http_port': 9090}, wait=False)
    check_delivery(helpers.wait_for_delivery(engine, ident, 'UPDATE'),
                   'UPDATE', 9090)
    engine.signal(ident, 'deployment', helpers.final_signal())
    engine.wait(ident, 'UPDATE')

    for action, call in (('SUSPEND', engine.suspend),
                         ('RESUME', engine.resume)):
        call(ident, wait=False)
        check_delivery(helpers.wait_for_delivery(engine, ident, action),
                       action, 9090)
        engine.signal(ident, 'deployment', helpers.final_signal())
        engine.wait(ident, action)

    deployment_id = engine.resource(ident, 'deployment', with_attr=False)[
        'physical_resource_id']
    events = helpers.signal_events(engine, ident)
    engine.delete(ident, wait=False)
    check_delivery(helpers.wait_for_delivery(engine, ident, 'DELETE'),
                   'DELETE', 9090)
    # The deletion waits for the server (a DeployedServer, unknown to Nova).
    engine.signal(ident, 'deployment', helpers.progress_signal('stopping'))
    assert helpers.signal_events(engine, ident)[-1] == (
        'IN_PROGRESS', 'Signal: deployment %s in progress: stopping'
        % deployment_id)
    engine.signal(ident, 'deployment', helpers.final_signal())
    engine.wait(ident, 'DELETE')

    prefix = 'Signal: deployment %s ' % deployment_id
    assert events == [
        ('IN_PROGRESS', prefix + 'in progress: installing packages'),
        ('IN_PROGRESS', prefix + 'in progress: starting the service'),
        ('IN_PROGRESS', prefix + 'succeeded'),
        ('IN_PROGRESS', prefix + 'succeeded'),
        ('IN_PROGRESS', prefix + 'succeeded'),
        ('IN_PROGRESS', prefix + 'succeeded'),
    ]
