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
"""When an ExternalResource asks Mistral again about a running execution.

A pure schedule, fed with monotonic times. An execution is polled every
tenth of its age, at least every FIRST_INTERVAL and at most every
`longest` seconds: a short workflow is seen to end a fraction of a second
after it did, a long one costs few calls (about 45 over a minute with a 3 s
cap, against one a second for the in-tree type).

Heat calls a check_*_complete about one second (HEAT_STEP) after the last
one returned. So that polls keep to the schedule in between, one check may
wait for the next poll when it is due sooner than that, within its budget.

While Mistral does not answer (a restart), polls go on at least every
OUTAGE_RETRY seconds; the caller gives up once it has not answered for
longer than its grace.
"""

FIRST_INTERVAL = 0.2
AGE_FRACTION = 0.1
HEAT_STEP = 1.0
OUTAGE_RETRY = 1.0


def interval(age, longest):
    """Seconds from a poll to the next, for an execution `age` seconds old."""
    return min(longest, max(FIRST_INTERVAL, age * AGE_FRACTION))


class Schedule(object):
    """The polls of one execution, started at `started`."""

    def __init__(self, started, longest):
        self.started = started
        self.longest = longest
        self.next_poll = started
        self.unanswered_since = None

    def wait(self, now, deadline, horizon=HEAT_STEP):
        """Seconds to sleep before the next poll; None: return to Heat.

        None when the next poll is due `horizon` seconds or more from now
        (by default when Heat calls again first), or after `deadline` (the
        end of this check's budget).
        """
        wait = max(0.0, self.next_poll - now)
        if wait >= horizon or now + wait > deadline:
            return None
        return wait

    def answered(self, now):
        """Mistral answered a poll at `now`; seconds it had not, or None."""
        silent = (None if self.unanswered_since is None
                  else now - self.unanswered_since)
        self.unanswered_since = None
        self.next_poll = now + interval(now - self.started, self.longest)
        return silent

    def unanswered(self, now):
        """A poll at `now` got no answer; seconds Mistral has not answered."""
        if self.unanswered_since is None:
            self.unanswered_since = now
        self.next_poll = now + max(OUTAGE_RETRY,
                                   interval(now - self.started,
                                            self.longest))
        return now - self.unanswered_since
