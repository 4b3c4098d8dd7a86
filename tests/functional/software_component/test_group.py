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
"""OS::Heat::SoftwareDeploymentGroup members are our SoftwareDeployment."""

from heat_lifecycle_fixtures.process import wait_until
from tests.functional.software_component import helpers


def group_stack():
    template = helpers.component_stack([helpers.script(['CREATE'])])
    deployment = template['resources'].pop('deployment')
    props = dict(deployment['properties'])
    server = props.pop('server')
    props['servers'] = {'one': server, 'two': server}
    template['resources']['group'] = {
        'type': 'OS::Heat::SoftwareDeploymentGroup', 'properties': props}
    return template


def member_one(engine, ident):
    """The nested stack of member "one", None while Heat has not stored it.

    The group's physical id (its nested stack) comes before its members.
    """
    for res in engine.resources(ident, nested_depth=1):
        if res['resource_name'] == 'one':
            return res['stack_identity']
    return None


def nested_identity(engine, ident):
    return wait_until(lambda: member_one(engine, ident), 30,
                      'the group\'s member one', interval=0.05)


def test_group_members_deliver_and_report_progress(engine):
    ident = engine.create(group_stack(), wait=False)
    try:
        check_group_members(engine, ident)
    finally:
        # Even when an assertion fails: a stack left waiting for its
        # signals would hold the session engine's stop until it timed out.
        engine.delete(ident, wait=False)


def check_group_members(engine, ident):
    members = nested_identity(engine, ident)
    for name in ('one', 'two'):
        item = helpers.wait_for_delivery(engine, members, 'CREATE', name=name,
                                         server_ident=ident)
        inputs = helpers.inputs_of(item)
        assert (inputs['deploy_action'], inputs['deploy_status_aware'],
                item['group']) == ('CREATE', 'true', 'component')

    sd_id = engine.resource(members, 'one', with_attr=False)[
        'physical_resource_id']
    engine.signal(members, 'one', helpers.progress_signal('halfway'))
    assert helpers.signal_events(engine, members, 'one') == [
        ('IN_PROGRESS', 'Signal: deployment %s in progress: halfway' % sd_id)]
    for name in ('one', 'two'):
        engine.signal(members, name, helpers.final_signal(
            deploy_status='COMPLETE'))
    engine.wait(ident, 'CREATE')
