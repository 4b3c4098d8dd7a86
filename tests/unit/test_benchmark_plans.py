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
"""The parts' plans are fixed so that their targets can be decided."""

import itertools

import pytest

from benchmarks import chain
from benchmarks import feedback
from benchmarks import parts
from benchmarks import ratios
from benchmarks import round_order

RATIO_PARTS = ('chain-small', 'chain-concurrent', 'chain-large-sequential',
               'chain-large-concurrent', 'changes')


@pytest.mark.parametrize('name', RATIO_PARTS)
def test_a_ratio_part_runs_enough_rounds_in_whole_balanced_cycles(name):
    rounds = parts.BY_NAME[name].full['rounds']
    assert rounds >= ratios.fewest_rounds()
    assert rounds % len(list(itertools.permutations(chain.KINDS))) == 0


def test_each_told_case_has_at_least_ten_stacks_of_ours():
    short = parts.BY_NAME['external-short'].full
    assert short['short_rounds'] >= 10 and short['batch_stacks'] >= 10
    assert parts.BY_NAME['external-600'].full['stacks'] >= 10


def test_feedback_runs_enough_rounds_each_kind_leading_half():
    assert feedback.ROUNDS >= ratios.fewest_rounds()
    assert feedback.ROUNDS % 2 == 0


def test_every_kind_leads_and_follows_every_other_equally_often():
    cycle = [round_order.balanced_order(chain.KINDS, r) for r in range(6)]
    leads = [order[0] for order in cycle]
    follows = [pair for order in cycle for pair in zip(order, order[1:])]
    assert sorted(leads) == sorted(chain.KINDS * 2)
    for a, b in itertools.permutations(chain.KINDS, 2):
        assert follows.count((a, b)) == 2, (a, b)


@pytest.mark.parametrize('n, lanes', [(10, 10), (100, 10), (150, 10),
                                      (400, 8), (5, 5)])
def test_the_concurrent_floor_runs_as_many_lanes_as_ours(n, lanes):
    # One nested stack up to 163 members; a chain of 400 is 8 segments of
    # 50 sharing the 10 lanes.
    assert chain.our_lanes(n) == lanes
    template = chain.floor_template(n, True, 'v')
    first = [name for name, r in template['resources'].items()
             if r.get('depends_on') == ['start']]
    assert len(first) == lanes
