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
"""The checks of one engine process that wait for a notice, and their watch.

A check waiting for Mistral's notice of an execution's end registers here
(a Waiter) while it pauses. The signal that records the notice wakes it:
at once when its RPC call lands in the same process (wake()); when another
engine worker, on this host or another, handled it, the write is in the
database only, so while any check waits in this process one thread (the
watch) reads the notices of all of them in one query every `every`
seconds (WATCH_EVERY) and wakes those whose notice came, once (a check
told while Mistral does not answer waits at its own pace, not the
watch's), or again after its notice was dismissed. The thread ends when
no check waits: an idle worker makes no query.
"""

import collections
import threading
import time

from oslo_log import log as logging

LOG = logging.getLogger(__name__)

# Seconds between two looks of the watch: half of it is the median delay
# after a notice recorded by another engine worker.
WATCH_EVERY = 0.05

# A check waiting for the notice that `execution_id` ended, recorded in the
# data of the resource of database id `resource_id`.
Waiter = collections.namedtuple('Waiter', 'resource_id execution_id event')


def matched(waiters, stored):
    """The waiters whose notice is stored.

    `stored`: {resource id: the execution id its notice names}.
    """
    return [waiter for waiter in waiters
            if stored.get(waiter.resource_id) == waiter.execution_id]


class WaitingChecks(object):
    """The waiting checks of this process.

    look(resource ids): {resource id: the execution id its notice names}
    for those that have one (one database query).
    """

    def __init__(self, look, every=WATCH_EVERY, sleep=None):
        self.look = look
        self.every = every
        self.sleep = sleep  # None: time.sleep as patched when called
        self._lock = threading.Lock()
        self._waiters = []
        self._woken = set()  # woken by the watch: not again while waiting
        self._watching = False

    def enter(self, waiter):
        with self._lock:
            self._waiters.append(waiter)
            if self._watching:
                return
            self._watching = True
        watch = threading.Thread(target=self._watch, daemon=True,
                                 name='heat-lifecycle-notice-watch')
        watch.start()

    def leave(self, waiter):
        with self._lock:
            self._waiters.remove(waiter)
            self._woken.discard(waiter)

    def waiting(self):
        with self._lock:
            return list(self._waiters)

    def wake(self, execution_id):
        """Wake the checks waiting for `execution_id`'s notice."""
        for waiter in self.waiting():
            if waiter.execution_id == execution_id:
                waiter.event.set()

    def again(self, waiter):
        """Let the watch wake `waiter` again (its notice was dismissed)."""
        with self._lock:
            self._woken.discard(waiter)

    def _waiters_or_stop(self):
        """(the waiters the watch has not woken, whether to stop)."""
        with self._lock:
            if not self._waiters:
                self._watching = False
            return ([w for w in self._waiters if w not in self._woken],
                    not self._watching)

    def _watch(self):
        failing = False
        while True:
            waiters, stop = self._waiters_or_stop()
            if stop:
                return
            if not waiters:
                (self.sleep or time.sleep)(self.every)
                continue
            try:
                stored = self.look(sorted({w.resource_id for w in waiters}))
                failing = False
            except Exception as exc:
                if not failing:  # once, not 20 times a second
                    LOG.warning('could not read the notices of %d waiting '
                                'checks (their own looks go on): %s',
                                len(waiters), exc)
                failing, stored = True, {}
            found = matched(waiters, stored)
            with self._lock:
                self._woken.update(found)
            for waiter in found:
                waiter.event.set()
            (self.sleep or time.sleep)(self.every)
