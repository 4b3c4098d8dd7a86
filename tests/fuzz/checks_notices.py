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
"""What must hold for any body Mistral's webhook (or anyone) may signal.

An OS::Mistral::ExternalResource records the execution a notice names
(execution_notices.notice()). For any JSON body it never raises, records
only a well-formed end of execution, an id the database can hold, and
keeps its event's reason bounded and storable.
"""

from hypothesis import strategies as st

from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.resources import execution_notices as notices
from tests.fuzz import strategies

EVENTS = st.sampled_from(notices.END_EVENTS + (
    'WORKFLOW_LAUNCHED', 'WORKFLOW_PAUSED', 'workflow_succeeded', '',
    'WORKFLOW_SUCCEEDED ', None, 0, ['WORKFLOW_FAILED'])) | \
    strategies.json_values()
IDS = st.uuids().map(str) | strategies.texts(70) | strategies.json_values()


@st.composite
def bodies(draw):
    """Mostly Mistral's shape (id, event, state, ...), else any JSON."""
    if draw(st.integers(0, 4)) == 0:
        return draw(strategies.json_values())
    body = draw(strategies.maps(st.sampled_from(
        ('state', 'name', 'workflow_name', 'project_id', 'state_info'))))
    if draw(st.integers(0, 5)):
        body['id'] = draw(IDS)
    if draw(st.integers(0, 5)):
        body['event'] = draw(EVENTS)
    return body


def notice_outcome(case):
    """Only a well-formed end is recorded; the reason is storable."""
    body = case
    ended, reason = notices.notice(body)
    well_formed = (isinstance(body, dict) and
                   body.get('event') in notices.END_EVENTS and
                   isinstance(body.get('id'), str) and
                   0 < len(body['id']) <= notices.MAX_ID and
                   protocol.is_storable(body['id']))
    assert (ended is not None) == well_formed, (body, ended)
    if ended is not None:
        assert ended == body['id']
    assert protocol.is_storable(reason) and len(reason) <= 400, reason
