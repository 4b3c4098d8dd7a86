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
"""What must hold for any body POSTed to a deployment's signal URL.

Through heat-api, as a server or a user sends it: every answer is below
500 (a JSON object over heat-api's max_json_body_size is refused, 4xx;
heat-api reads no other body, so that one arrives as no body at all); a
deployment that was only told IN_PROGRESS is still in progress; one that
has ended never goes back to IN_PROGRESS.
"""

import json

SIGNALS = None  # the session's Signals (tests/fuzz/test_signal_bodies.py)
MAX_JSON_BODY_SIZE = 1048576  # heat.conf's default
PROGRESS = 'IN_PROGRESS'


def body_bytes(body):
    """A case's body: bytes as they are, anything else as JSON."""
    if isinstance(body, bytes):
        return body
    return json.dumps(body).encode('utf-8', 'surrogatepass')


def only_progress(body):
    return isinstance(body, dict) and body.get('deploy_status') == PROGRESS


def bodies_to_one_deployment(case):
    """Send the case's bodies in order to a fresh deployment."""
    deployment = SIGNALS.fresh_deployment()
    statuses = []
    for body in case:
        raw = body_bytes(body)
        answer = SIGNALS.post(deployment, raw)
        assert answer < 500, 'HTTP %d for a body of %d bytes' % (
            answer, len(raw))
        if raw.startswith(b'{') and len(raw) > MAX_JSON_BODY_SIZE:
            assert 400 <= answer < 500, answer
        statuses.append(SIGNALS.status(deployment))
    ended = [s for s in statuses if s != PROGRESS]
    if ended:
        assert PROGRESS not in statuses[statuses.index(ended[0]):], \
            statuses
    accepted = [b for b in case if len(body_bytes(b)) <= MAX_JSON_BODY_SIZE
                or not body_bytes(b).startswith(b'{')]
    if all(only_progress(b) for b in accepted):
        assert statuses[-1] == PROGRESS, statuses
