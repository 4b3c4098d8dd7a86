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
"""The ExternalResource benchmark's windows.

Where it reads the engine's threads: while at least half the most
executions of a window run at once, from when half of them have started
until fewer than half still run. How windows side by side number their
pairs of stacks.
"""

from benchmarks.external_cases import busy_stretches
from benchmarks.external_cases import KINDS
from benchmarks.external_cases import side_by_side_entries
from benchmarks import external_report


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


def test_windows_side_by_side_number_their_pairs_on():
    one = side_by_side_entries(3, 600.0)
    later = side_by_side_entries(3, 600.0, window=2)
    assert [pair for _kind, _s, pair in one] == [0, 0, 1, 1, 2, 2]
    assert [pair for _kind, _s, pair in later] == [6, 6, 7, 7, 8, 8]
    for entries in (one, later):
        for pair in {p for _k, _s, p in entries}:
            kinds = [k for k, _s, p in entries if p == pair]
            assert sorted(kinds) == sorted(KINDS)
    # Each type leads half the pairs of a window.
    leaders = [k for k, _s, p in side_by_side_entries(4, 2.0)[::2]]
    assert leaders.count(KINDS[0]) == leaders.count(KINDS[1]) == 2


def test_pairs_of_stacks_stay_within_their_window():
    # Two windows of two pairs: the n-th stack of each type pairs with
    # the other type's of the same window, never of the next.
    samples = [{'kind': kind, 'round': pair, 'calls': calls}
               for window, calls in ((0, 4), (1, 40))
               for kind, _s, pair in side_by_side_entries(2, 600.0, window)]
    ours, intree = external_report.pairs({'samples': samples}, 'calls')
    assert ours == intree == [4, 4, 40, 40]


def test_a_long_case_of_several_windows_says_so():
    case = {'seconds': 600.0, 'stacks': 10, 'windows': [{}] * 4}
    assert external_report.case_title('long', case) == (
        '600 s workflows, 4 windows of 10 stack(s) of each type side by side')
    case['windows'] = [{}]
    assert external_report.case_title('long', case) == (
        '600 s workflows, 10 stack(s) of each type side by side')
