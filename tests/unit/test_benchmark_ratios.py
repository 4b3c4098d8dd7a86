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
"""The statistic that decides the benchmarks' targets (issue 55)."""

from benchmarks import ratios
from benchmarks import targets


def test_the_interval_is_the_tabled_order_statistics_of_the_median():
    # 1-based ranks of the 95 % interval of a median, from the binomial
    # tables: n=6-8 (1, n), n=10 (2, 9), n=20 (6, 15), n=30 (10, 21).
    for n, rank in ((6, 1), (8, 1), (9, 2), (10, 2), (20, 6), (30, 10)):
        assert ratios.lower_rank(n) + 1 == rank, n
    assert [ratios.lower_rank(n) for n in range(1, 6)] == [None] * 5
    assert ratios.fewest_rounds() == 6


def test_under_six_rounds_nothing_is_decided_however_far_the_values():
    s = ratios.summary([2.0, 2.1, 2.2, 2.3, 2.4])
    assert (s['low'], s['high']) == (None, None)
    assert ratios.verdict(s, 1.0) == ratios.UNDECIDED
    assert ratios.rounds_to_decide(s, 1.0) == 6


def test_met_missed_and_undecided_follow_the_interval_not_the_range():
    values = [0.90, 0.95, 0.96, 0.97, 0.98, 0.99, 1.00, 1.01, 1.20, 0.97]
    s = ratios.summary(values)
    assert (s['low'], s['high']) == (0.95, 1.01)  # not 0.90-1.20
    assert ratios.verdict(s, 1.05) == ratios.MET
    assert ratios.verdict(s, 0.94) == ratios.MISSED
    assert ratios.verdict(s, 1.0) == ratios.UNDECIDED
    # at least: the other side of the interval
    assert ratios.verdict(s, 0.94, at_most=False) == ratios.MET
    assert ratios.verdict(s, 1.02, at_most=False) == ratios.MISSED


def test_more_rounds_narrow_the_interval_so_near_equal_kinds_can_decide():
    # Two kinds 2 % apart with 3 % noise: the range never clears 1.0x,
    # the median's interval does with enough rounds.
    noise = [-0.03, 0.03, -0.01, 0.01, 0.0, -0.02]
    few = ratios.summary([0.98 + e for e in noise])
    many = ratios.summary([0.98 + e for e in noise * 8])
    assert few['max'] > 1.0 and many['max'] > 1.0
    assert ratios.verdict(few, 1.0) == ratios.UNDECIDED
    assert ratios.verdict(many, 1.0) == ratios.MET
    assert ratios.rounds_to_decide(few, 1.0) > few['rounds']


def test_a_median_on_the_target_is_never_decided_by_more_rounds():
    s = ratios.summary([0.9, 1.0, 1.1, 1.0, 0.95, 1.05])
    assert ratios.rounds_to_decide(s, 1.0) is None
    assert 'no number of rounds to decide' in ratios.describe(s, 1.0)


def chain_row(mode, n, op, in_tree, floor, speedup, bound=None):
    return {'mode': mode, 'n': n, 'op': op,
            'in-tree': ratios.summary(in_tree),
            'floor': ratios.summary(floor),
            'speedup': ratios.summary(speedup),
            'bound': ratios.summary(bound) if bound else None}


def test_every_missed_check_is_shown_first_not_hidden_behind_others():
    undecided = ratios.summary([0.9, 1.1] * 3)
    missed = ratios.summary([1.2] * 6)
    checks = [('undecided %d' % i, undecided, 1.0, True) for i in range(4)]
    checks += [('missed %d' % i, missed, 1.0, True) for i in range(4)]
    title, seen, verdict = targets._group('t', checks)
    assert verdict == ratios.MISSED
    shown = [' '.join(part.split(' ')[:2]) for part in seen.split('; ')
             if part.startswith(('missed', 'undecided'))]
    assert shown[:4] == ['missed 0', 'missed 1', 'missed 2', 'missed 3']
    assert shown[4:] == ['undecided 0', 'undecided 1', 'undecided 2']
    assert seen.endswith('1 more not decided'), seen


def test_concurrent_create_is_judged_against_the_floor_update_in_tree():
    found = {'create': chain_row('concurrent', 150, 'create', [1.0] * 6,
                                 [1.02] * 6, [1.0] * 6),
             'update': chain_row('concurrent', 150, 'update', [0.3] * 6,
                                 [1.0] * 6, [3.3] * 6)}
    rows = targets.concurrent_targets(found)
    assert [r[2] for r in rows] == [ratios.MET, ratios.MET], rows
    assert '1.05x the floor' in rows[0][0] and '3x faster' in rows[1][0]
    found['create']['floor'] = ratios.summary([1.10] * 6)
    assert targets.concurrent_targets(found)[0][2] == ratios.MISSED


def test_a_speedup_beyond_the_floors_own_is_shown_out_of_reach():
    missed = chain_row('concurrent', 150, 'update', [0.8] * 6, [1.08] * 6,
                       [1.2, 1.25] * 3, bound=[1.25, 1.29] * 3)
    title, seen, verdict = targets.concurrent_targets({'update': missed})[1]
    assert verdict == ratios.MISSED
    assert 'in-tree / floor 1.27x' in seen, seen
    assert 'beyond what that shape allows' in seen, seen
    reachable = dict(missed, bound=ratios.summary([3.4, 3.6] * 3))
    seen = targets.concurrent_targets({'update': reachable})[1][1]
    assert 'in-tree / floor 3.50x' in seen and 'beyond' not in seen, seen
