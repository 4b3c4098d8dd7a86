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
"""Day-two requests of OS::Mistral::ExternalResource against real Mistral.

examples/day_two_external_resource.yaml's custom ROTATE_KEYS workflow
runs when the request parameter changes: as a Heat UPDATE, its outputs
merged, heat_extresource_data in its environment, action_inputs over
input, nothing replaced; each token runs once; a failed request is not
replaced by the next update.
"""

import os

import pytest

from heat_lifecycle_fixtures.stacks import StackFailed
from heat_lifecycle_plugins.user_side import progress
from tests.functional.external_resource.conftest import ROOT

with open(os.path.join(ROOT, 'examples',
                       'day_two_external_resource.yaml')) as f:
    EXAMPLE = f.read()


def _puts(thing_store, thing_id):
    return [body for method, path, body in thing_store.log()
            if method == 'PUT' and path == '/things/%s' % thing_id]


def test_a_custom_action_runs_per_request_outputs_merged(heat, thing_store):
    params = {'store': thing_store.url}
    ident = heat.create(EXAMPLE, params=params)
    thing_id = heat.outputs(ident)['thing_id']

    heat.update(ident, EXAMPLE, params=dict(
        params, request='r1', action_inputs={'key_label': 'k1'}))
    output = heat.outputs(ident)['output']
    assert (output['key_label'], output['rotations'], output['size']) == (
        'k1', 1, 1)
    # Heat ran it as an UPDATE; the user's tools (the dashboard's rows)
    # read the request's action from its execution's start event.
    row = heat.resource(ident, 'thing')
    row['resource_status'] = '%(resource_action)s_%(resource_status)s' % row
    assert progress.requested_in_events(
        row, heat.events(ident, resource_name='thing')) == 'ROTATE_KEYS'
    heat.update(ident, EXAMPLE, params=dict(params, request='r2'))
    output = heat.outputs(ident)['output']
    assert (output['key_label'], output['rotations']) == ('rotated', 2)
    # The same token again runs nothing.
    heat.update(ident, EXAMPLE, params=dict(params, request='r2'))
    assert [b.get('key_label') for b in _puts(thing_store, thing_id)] == [
        'k1', 'rotated']
    assert heat.outputs(ident)['thing_id'] == thing_id
    events = [(e['resource_action'], e['resource_status'])
              for e in heat.events(ident, resource_name='thing')]
    assert ('CREATE', 'COMPLETE') in events
    assert events.count(('UPDATE', 'COMPLETE')) == 2
    heat.delete(ident)


def test_an_undefined_action_fails_naming_the_defined_ones(heat, thing_store):
    params = {'store': thing_store.url}
    ident = heat.create(EXAMPLE, params=params)
    thing_id = heat.outputs(ident)['thing_id']
    with pytest.raises(StackFailed) as failed:
        heat.update(ident, EXAMPLE, params=dict(
            params, request='r1', day_two_action='DRAIN'))
    assert ("Resource thing: property extended_action: actions has no "
            "workflow for 'DRAIN' (it has CHECK, CREATE, DELETE, RESUME, "
            "ROTATE_KEYS, SUSPEND, UPDATE)") in str(failed.value)
    # Not replaced by the next request, which runs.
    heat.update(ident, EXAMPLE, params=dict(params, request='r2'))
    assert heat.outputs(ident)['thing_id'] == thing_id
    assert heat.outputs(ident)['output']['rotations'] == 1
    heat.delete(ident)


def test_a_near_miss_in_actions_is_refused(heat, thing_store):
    bad = EXAMPLE.replace('ROTATE_KEYS:\n', 'RESUMES:\n')
    with pytest.raises(Exception) as refused:
        heat.create(bad, params={'store': thing_store.url})
    assert ("resources.thing.properties.actions: actions: 'RESUMES' is not "
            "an action; did you mean 'RESUME'?") in str(refused.value)
