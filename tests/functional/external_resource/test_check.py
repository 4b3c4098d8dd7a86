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
"""`stack check` of an ExternalResource: drift found by a CHECK workflow.

Runs on every Heat series: through convergence from Heat 26.0, the legacy
check before. The example's thing_check workflow compares the thing in the
store with the input Heat gave it. In sync: CHECK_COMPLETE. Missing or
different: CHECK_FAILED with the workflow's reason; the next stack update
recreates a missing thing (replacement: CREATE, then the old one's DELETE,
which finds nothing to delete) and repairs a different one in place (the
UPDATE workflow, with the drift in its environment).
"""

import json
import urllib.request

from tests.functional.external_resource.conftest import EXAMPLE_TEMPLATE
from tests.functional.external_resource.conftest import executions_of

with open(EXAMPLE_TEMPLATE) as f:
    EXAMPLE = f.read()
WITHOUT_CHECK = EXAMPLE.replace('''        CHECK:
          workflow: thing_check
''', '')


def _request(method, url, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={'Content-Type':
                                              'application/json'})
    urllib.request.urlopen(request, timeout=10).close()


def _thing(heat, ident):
    return heat.resource(ident, 'thing')


def test_check_without_a_check_workflow_runs_nothing(heat, mistral,
                                                     thing_store):
    assert WITHOUT_CHECK != EXAMPLE
    ident = heat.create(WITHOUT_CHECK, params={'store': thing_store.url,
                                               'size': 2})
    outputs = heat.outputs(ident)
    executions = len(mistral.client().executions.list(limit=-1))
    heat.check(ident)
    thing = _thing(heat, ident)
    assert (thing['resource_action'], thing['resource_status']) == (
        'CHECK', 'COMPLETE')
    assert len(mistral.client().executions.list(limit=-1)) == executions
    assert heat.outputs(ident) == outputs
    heat.delete(ident)
    assert outputs['thing_id'] not in thing_store.things()


def test_check_in_sync_completes_and_keeps_the_outputs(heat, mistral,
                                                       thing_store):
    ident = heat.create(EXAMPLE, params={'store': thing_store.url,
                                         'size': 2})
    outputs = heat.outputs(ident)
    heat.check(ident)
    thing = _thing(heat, ident)
    assert (thing['resource_action'], thing['resource_status']) == (
        'CHECK', 'COMPLETE')
    [check] = executions_of(mistral, 'thing_check')[-1:]
    assert check.state == 'SUCCESS'
    assert heat.outputs(ident) == outputs  # CHECK merges nothing
    heat.update(ident, EXAMPLE, params={'store': thing_store.url,
                                        'size': 3})
    assert thing_store.things()[outputs['thing_id']]['size'] == 3
    heat.delete(ident)


def test_a_missing_thing_fails_the_check_and_update_recreates_it(
        heat, thing_store):
    params = {'store': thing_store.url, 'size': 2}
    ident = heat.create(EXAMPLE, params=params)
    old_id = heat.outputs(ident)['thing_id']
    _request('DELETE', '%s/things/%s' % (thing_store.url, old_id))

    heat.check(ident, expect='FAILED')
    thing = _thing(heat, ident)
    assert (thing['resource_action'], thing['resource_status']) == (
        'CHECK', 'FAILED')
    assert thing['resource_status_reason'].startswith(
        'ExternalThingDrifted: resources.thing: CHECK workflow thing_check '
        'found the external thing missing: thing %s is not in the store '
        '(execution ' % old_id)

    heat.update(ident, EXAMPLE, params=params)
    new_id = heat.outputs(ident)['thing_id']
    assert new_id != old_id
    assert thing_store.things()[new_id]['size'] == 2
    # The old thing's DELETE found it gone: skipped, not failed.
    assert ['DELETE', '/things/%s' % old_id, None] in thing_store.log()
    heat.check(ident)
    heat.delete(ident)
    assert new_id not in thing_store.things()


def test_a_different_thing_fails_the_check_and_update_repairs_it(
        heat, mistral, thing_store):
    params = {'store': thing_store.url, 'size': 2}
    ident = heat.create(EXAMPLE, params=params)
    thing_id = heat.outputs(ident)['thing_id']
    _request('PUT', '%s/things/%s' % (thing_store.url, thing_id),
             {'size': 9})

    heat.check(ident, expect='FAILED')
    reason = _thing(heat, ident)['resource_status_reason']
    assert ('found the external thing different: the store has size 9 and '
            'color red, Heat set 2 and red') in reason

    heat.update(ident, EXAMPLE, params=params)
    assert heat.outputs(ident)['thing_id'] == thing_id  # repaired in place
    thing = thing_store.things()[thing_id]
    assert thing['size'] == 2
    assert thing['note'] == 'updated by heat'
    repair = mistral.client().executions.get(
        executions_of(mistral, 'thing_update')[-1].id)
    assert json.loads(repair.params)['env']['heat_extresource_drift'] == {
        'drift': 'different', 'reason': 'the store has size 9 and color '
                                        'red, Heat set 2 and red'}
    events = heat.events(ident, resource_name='thing')
    assert [e['resource_action'] for e in events][-2:] == ['UPDATE',
                                                           'UPDATE']
    heat.check(ident)
    assert _thing(heat, ident)['resource_status'] == 'COMPLETE'
    heat.delete(ident)
    assert thing_id not in thing_store.things()
