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
"""How busy the machine was while the matrix ran: CPU-bound or lane-bound.

Every PERIOD seconds a line of machine.tsv: seconds since the start, the
busy and iowait shares of all cores over the period (/proc/stat), and
the 1-minute load average. The summary tells whether more jobs at a time
could help (cores often idle) or only less work could (cores saturated).
"""

import os
import threading
import time

from benchmarks import stamp

PERIOD = 10  # seconds
SATURATED = 0.95  # a period this busy left no core idle


def cpu_counters():
    """(busy, iowait, total) ticks of all cores since boot."""
    fields = stamp.cpu_ticks()[:8]  # guest ticks are counted in user
    return stamp.busy_ticks(fields), fields[4], sum(fields)


def shares(before, after):
    """(busy, iowait) shares of the cores between two cpu_counters()."""
    total = max(after[2] - before[2], 1)
    return ((after[0] - before[0]) / total, (after[1] - before[1]) / total)


def summary(rows):
    """One line on rows of (seconds, busy, iowait, load)."""
    if not rows:
        return 'machine: no sample'
    busy = sum(r[1] for r in rows) / len(rows)
    iowait = sum(r[2] for r in rows) / len(rows)
    saturated = sum(1 for r in rows if r[1] >= SATURATED) / len(rows)
    return ('machine: cores %.0f%% busy on average, saturated (>= %.0f%%) '
            '%.0f%% of the time; iowait %.0f%%; %d cores' % (
                100 * busy, 100 * SATURATED, 100 * saturated, 100 * iowait,
                os.cpu_count()))


class Sampler(object):
    """Samples into `path` until stop(), which returns the summary."""

    def __init__(self, path, period=PERIOD):
        self.path = path
        self.period = period
        self.rows = []
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self._thread.start()
        return self

    def _run(self):
        start, before = time.monotonic(), cpu_counters()
        with open(self.path, 'w') as out:
            out.write('seconds\tbusy\tiowait\tload1\n')
            while not self._done.wait(self.period):
                after = cpu_counters()
                busy, iowait = shares(before, after)
                before = after
                row = (time.monotonic() - start, busy, iowait,
                       os.getloadavg()[0])
                self.rows.append(row)
                out.write('%.0f\t%.3f\t%.3f\t%.2f\n' % row)
                out.flush()

    def stop(self):
        self._done.set()
        self._thread.join()
        return summary(self.rows)
