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
"""Mistral executions as the client layer reports and polls them.

Execution and Task hold what Mistral reports (states, state_info, output
and published values as it sends them). Schedule says when to ask again
about a running execution: every tenth of its age, at least every
FIRST_INTERVAL and at most every `longest` seconds, so a short workflow is
seen to end a fraction of a second after it did and a long one costs few
calls (about 45 over a minute with a 3 s cap, against one a second for the
in-tree type). poll_until() runs that schedule within a check's budget.

Heat calls a check_*_complete about one second (HEAT_STEP) after the last
one returned. So that polls keep to the schedule in between, one check may
wait for the next poll when it is due sooner than that, within its budget.
While Mistral does not answer (a restart), polls go on at least every
OUTAGE_RETRY seconds; poll_until gives up once it has not answered for
longer than the grace it is given.

An execution Mistral tells about its end (a webhook, see
resources/execution_notices.py) is not polled on that schedule:
wait_told() looks for the notice (a database read, no Mistral call) when
its pause is woken: at once when the notice's signal lands in the same
engine process, within a twentieth of a second when another engine worker
recorded it (resources/waiting_checks.py), and every LOOK_EVERY seconds
in any case. It reads the execution once told, and polls it only every
`period` seconds (a Schedule with a period) in case the notice was lost.
Each execution's fallback polls keep their own phase (fallback_phase), so
the polls of many started together do not fall together.
"""

import collections
from oslo_log import log as logging
import time
import zlib

from heat_lifecycle_plugins import protocol

LOG = logging.getLogger(__name__)

SUCCESS = 'SUCCESS'
RUNNING_STATES = ('IDLE', 'RUNNING', 'PAUSED')
ERROR, CANCELLED = 'ERROR', 'CANCELLED'
FAILED_STATES = (ERROR, CANCELLED)

# An execution and its tasks, as Mistral reports them.
Execution = collections.namedtuple('Execution', 'state state_info output')
Task = collections.namedtuple('Task', 'name state state_info published')


# Characters of an execution id Heat keeps (the physical id column, resource
# data); Mistral's own are 36-character UUIDs.
MAX_EXECUTION_ID = 255


def execution_id_problem(execution_id):
    """Why an id Mistral gave an execution cannot be kept, or None.

    It becomes the physical id and is quoted in events: Heat writes those
    itself, outside anything that could make the text storable.
    """
    if not isinstance(execution_id, str) or not execution_id:
        return 'its id is %s, not a string' % protocol.shown(execution_id)
    return protocol.whole_text_problem(execution_id, MAX_EXECUTION_ID)


def is_running(state):
    return state in RUNNING_STATES


def needs_tasks(state):
    """Whether a result needs the execution's tasks read too.

    After a failure or a cancel: what they published is kept, the failed
    tasks' errors are the reason.
    """
    return state in FAILED_STATES


FIRST_INTERVAL = 0.2
AGE_FRACTION = 0.1
HEAT_STEP = 1.0
OUTAGE_RETRY = 1.0
# Seconds between two looks of a check of its own for a notice, should no
# wake come (a notice is found sooner: its pause is woken).
LOOK_EVERY = 1.0


def growing_interval(age, first, share, longest):
    """A pause that grows with the time spent.

    `share` of `age`, within [first, longest].
    """
    return min(longest, max(first, age * share))


def interval(age, longest):
    """Seconds from a poll to the next, for an execution `age` seconds old."""
    return growing_interval(age, FIRST_INTERVAL, AGE_FRACTION, longest)


def fallback_phase(execution_id):
    """When an execution's first fallback poll comes, in periods: [0.5, 1).

    Fixed by the execution's id. Executions started together (a burst of
    stacks) would otherwise poll together, every period, and with their
    ends when their workflows last a multiple of the period: the burst of
    signals then meets a burst of polls (Keystone tokens, Mistral reads).
    Under 1, every end is still found at most a period after it.
    """
    digest = zlib.crc32(execution_id.encode('utf-8'))
    return 0.5 + 0.5 * digest / 2.0 ** 32


class Schedule(object):
    """The polls of one execution, started at `started`.

    Polls grow apart with the execution's age, up to `longest` seconds;
    with a `period`, they come every `period` seconds, the first `phase`
    periods after `started` (the fallback polls of an execution Mistral
    tells about).
    """

    def __init__(self, started, longest, period=None, phase=1.0):
        self.started = started
        self.longest = longest
        self.period = period
        self.next_poll = (started if period is None
                          else started + period * phase)
        self.unanswered_since = None

    def _interval(self, now):
        if self.period is not None:
            return self.period
        return interval(now - self.started, self.longest)

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
        self.next_poll = now + self._interval(now)
        return silent

    def unanswered(self, now):
        """A poll at `now` got no answer; seconds Mistral has not answered."""
        if self.unanswered_since is None:
            self.unanswered_since = now
        # Mistral is back soon after a restart: not a fallback period later.
        self.next_poll = now + max(OUTAGE_RETRY,
                                   interval(now - self.started,
                                            self.longest))
        return now - self.unanswered_since


class Silent(Exception):
    """Mistral has not answered for longer than the grace allowed."""


def _poll_once(read, schedule, grace, before_poll, clock):
    """One poll: the Execution, or None when Mistral did not answer.

    Raises Silent once Mistral has not answered for longer than `grace`.
    """
    if before_poll is not None:
        before_poll()
    now = clock()
    try:
        execution = read()
    except Exception as exc:
        if not getattr(exc, 'transient', False):
            raise
        silent = schedule.unanswered(now)
        if silent > grace:
            raise Silent(silent, exc)
        LOG.warning('no answer from Mistral for %(s)d s (grace '
                    '%(grace)d s): %(exc)s',
                    {'s': silent, 'grace': grace, 'exc': exc})
        return None
    silent = schedule.answered(now)
    if silent is not None:
        LOG.info('Mistral answers again after %.0f s', silent)
    return execution


def _ended(execution):
    return execution is not None and not is_running(execution.state)


def poll_until(read, schedule, budget, grace, before_poll=None,
               horizon=HEAT_STEP, clock=time.monotonic, sleep=time.sleep):
    """The finished Execution, or None if it still runs after `budget` s.

    read(): the execution now, raising an exception with a true
    `transient` attribute when Mistral does not answer; before_poll():
    called before each poll (raises to stop). Rides through a Mistral that
    does not answer for up to `grace` seconds, then raises Silent.
    """
    now = clock()
    deadline = now + budget
    while True:
        wait = schedule.wait(now, deadline, horizon)
        if wait is None:
            return None
        sleep(wait)
        execution = _poll_once(read, schedule, grace, before_poll, clock)
        if _ended(execution):
            return execution
        now = clock()


def wait_told(read, notice, schedule, budget, grace, before_poll=None,
              look_every=None, clock=time.monotonic, sleep=time.sleep,
              pause=None):
    """(the finished Execution, told) or (None, False) after `budget` s.

    notice.ended(): whether Mistral said the execution ended (a database
    read); notice.dismiss(): forget a notice the execution belies (it
    still runs). Looks every `look_every` seconds, the last pause ending
    at the budget's end (pause(seconds), which ends early when woken: the
    notice is recorded; sleep if none); reads the execution once told
    (the notice's body is never trusted), else when the schedule's
    fallback poll is due. read,
    before_poll and grace as for poll_until; before_poll also runs once
    per call.
    """
    look_every = look_every or LOOK_EVERY
    if before_poll is not None:
        before_poll()
    now = clock()
    deadline = now + budget
    while True:
        told = notice.ended()
        # Told during an outage: the outage's retry pace, not every look.
        if (told and schedule.unanswered_since is None or
                schedule.next_poll <= now):
            execution = _poll_once(read, schedule, grace, before_poll, clock)
            if _ended(execution):
                return execution, told
            if told and execution is not None:
                notice.dismiss()
        left = deadline - clock()
        if left <= 0:
            return None, False
        (pause or sleep)(min(look_every, left))
        now = clock()
