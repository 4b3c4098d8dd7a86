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
"""What must hold for any signal body a deployment is sent.

A case is a map: the deployment's `status`, its config's `outputs` and
its stored `output_values` (as a snapshot holds them), and the signal's
`details` (any JSON, as heat-api passes it). signal_outcome() decides;
it never raises, keeps the reason it stores bounded, never ends a
deployment on a progress signal and fails an unknown deploy_status
naming it.
"""

from hypothesis import strategies as st

from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.resources import deployment_signals as ds
from tests.fuzz import strategies

SIGNAL_KEYS = protocol.SIGNAL_KEYS + ('result', 'url', 'err')
STATUSES = st.sampled_from(protocol.STATUSES + (
    'in_progress', 'Complete', 'failed', 'DONE', '', ' COMPLETE',
    'COMPLETE\n', 'IN_PROGRESS\x00', ['COMPLETE'], {'status': 'FAILED'}, 0,
    1, None, True, 2.5))
# The longest reason a decision stores: a bounded text behind a prefix.
MAX_STORED = ds.MAX_REASON_CHARS + len(ds.PROGRESS_PREFIX)
# The event reason adds the deployment's id and a few words to it.
MAX_EVENT = MAX_STORED + 200


CODES = st.sampled_from((0, '0', 1, '1', 0.0, -1, '', None, False, True, [],
                         {}, [0], 'zero')) | strategies.json_values()
BODIES = st.dictionaries(st.sampled_from(SIGNAL_KEYS) | strategies.texts(12),
                         strategies.json_values(), max_size=6)
OUTPUTS = st.lists(st.fixed_dictionaries(
    {'name': st.sampled_from(('result', 'url', 'err', 'deploy_stdout')) |
     strategies.texts(8)},
    optional={'error_output': st.booleans(), 'type': st.just('String')}),
    max_size=3)


@st.composite
def details(draw):
    """A signal body: any JSON, mostly a map with deploy_* keys."""
    if draw(st.integers(0, 4)) == 0:
        return draw(strategies.json_values())
    body = draw(BODIES)
    if draw(st.booleans()):
        body[protocol.DEPLOY_STATUS] = draw(STATUSES)
    if draw(st.booleans()):
        body[protocol.DEPLOY_STATUS_CODE] = draw(CODES)
    return body


def signals():
    return st.fixed_dictionaries({
        'status': st.sampled_from(protocol.STATUSES),
        'outputs': OUTPUTS,
        'output_values': strategies.maps(st.sampled_from(
            ('result', 'url', 'deploy_stdout'))),
        'details': details()})


def snapshot(case):
    return ds.Snapshot('sd-1', 'CREATE', case['status'], 'cfg-1',
                       case['outputs'], case['output_values'],
                       'In progress: earlier', None)


def signal_outcome(case):
    """A decision, bounded, that a progress or unknown status cannot fool."""
    body = case['details']
    outcome = ds.signal_outcome(snapshot(case), body)
    assert isinstance(outcome, ds.Outcome), outcome
    assert isinstance(outcome.reason, str)
    assert len(outcome.reason) <= MAX_EVENT, len(outcome.reason)
    if case['status'] != protocol.IN_PROGRESS or not isinstance(
            body, (dict, type(None))):
        assert outcome.values is None, outcome.values
        return
    values = outcome.values
    reason = values['status_reason']
    assert isinstance(reason, str) and len(reason) <= MAX_STORED, len(reason)
    status = (body or {}).get(protocol.DEPLOY_STATUS)
    if status == protocol.IN_PROGRESS:
        assert set(values) == {'status_reason'}, sorted(values)
        assert reason.startswith(ds.PROGRESS_PREFIX)
        return
    assert values['status'] in (protocol.COMPLETE, protocol.FAILED)
    assert values['output_values'].get(protocol.DEPLOY_STATUS_CODE) == \
        (body or {}).get(protocol.DEPLOY_STATUS_CODE)
    if status is not None and status not in protocol.STATUSES:
        assert values['status'] == protocol.FAILED
        shown = protocol.shown(status, ds.MAX_SHOWN)
        assert ('unknown deploy_status %s' % shown) in reason, reason[:300]
    code = (body or {}).get(protocol.DEPLOY_STATUS_CODE)
    if status == protocol.FAILED or (code and str(code) != '0'):
        assert values['status'] == protocol.FAILED
    if values['status'] == protocol.COMPLETE:
        assert reason == ds.OUTPUTS_RECEIVED
