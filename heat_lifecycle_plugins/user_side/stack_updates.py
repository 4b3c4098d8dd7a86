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
"""Sending a stack update that Heat may drop, as a user would: again.

Heat (convergence) stores a stack's FAILED state first and only then
resets its traversal. An update that arrives in between is accepted by
heat-api and dropped by the engine with nothing but a warning in its log:
the stack stays as it was, updated_time unchanged. A convergence update
stores IN_PROGRESS before the call returns, so a FAILED stack with the same
updated_time after the call means a dropped update.
"""

import time


class Dropped(Exception):
    """Heat dropped the update every time it was sent."""

    def __init__(self, attempts, after):
        super(Dropped, self).__init__(
            'Heat dropped the update %d times' % attempts)
        self.attempts = attempts
        self.after = after


def dropped(before, after):
    """Whether the update sent between two reads was dropped.

    before, after: (status, updated_time) of the stack, status one of
    Heat's (IN_PROGRESS, COMPLETE, FAILED).
    """
    return (before is not None and after is not None and
            before[0] == 'FAILED' and after[0] in ('COMPLETE', 'FAILED') and
            after[1] == before[1])


def send(update, read, facts, attempts=2, pause=0.5):
    """Call update() until Heat takes it; the state read after it.

    read() reads the stack; facts(state) gives its (status,
    updated_time), or None when unknown. Raises Dropped.
    """
    before = facts(read())
    for attempt in range(attempts):
        update()
        after = read()
        if not dropped(before, facts(after)):
            return after
        time.sleep(pause)
    raise Dropped(attempts, after)
