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
"""Where the ExternalResource benchmark reads the engine's threads.

While at least half the most executions of a window run at once: from
when half of them have started until fewer than half still run.
"""

from benchmarks.external_cases import busy_stretches


def test_threads_are_read_while_half_the_most_run_at_once():
    # All start before any ends: 3 at once; 2 or more from 1 to 11, not
    # only from when the last starts (2) until the first ends (10).
    assert busy_stretches([(0, 10), (1, 12), (2, 11)]) == (3, [(1, 11)])
    # Creates outlasting the workflow (50 at once, 60 s): the most ran
    # together for 3 s; the stretches where 2 or more ran, an end
    # before a start at the same moment.
    assert busy_stretches([(0, 5), (1, 6), (2, 7), (6, 9), (8, 12)]) == (
        3, [(1, 6), (6, 7), (8, 9)])
    # One at a time (the short case): each execution's own span.
    assert busy_stretches([(0, 2), (5, 7)]) == (1, [(0, 2), (5, 7)])
    assert busy_stretches([]) is None
