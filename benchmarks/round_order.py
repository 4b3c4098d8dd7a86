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
"""The order the kinds of a benchmark run in, round by round.

Its own module: the parts that only need the order (external, feedback)
then do not import what the chain parts measure.
"""

import itertools


def balanced_order(kinds, round_):
    """The kinds in this round's order: every order once in turn.

    Over each len(kinds)! rounds every kind leads, and follows every other
    kind, equally often (all permutations, lexicographic by position), so
    no kind always runs after the same one.
    """
    orders = list(itertools.permutations(kinds))
    return orders[round_ % len(orders)]
