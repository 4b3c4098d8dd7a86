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
"""Per-round ratios and what they decide.

Each round measures ours, in-tree and the floor back to back, so each
round yields its own ratio; the median and the band (lowest to highest)
of those ratios decide a target. A band that straddles the target is
'undecided', with a rough count of the rounds that would decide it.
"""

import math
import statistics

MET, MISSED, UNDECIDED = 'met', 'MISSED', 'undecided'


def per_round(numerators, denominators):
    """[a / b] of the rounds where both were measured."""
    return [a / b for a, b in zip(numerators, denominators)
            if a is not None and b]


def summary(ratios):
    """{'median', 'low', 'high', 'rounds'} of per-round ratios."""
    if not ratios:
        return None
    return {'median': statistics.median(ratios), 'low': min(ratios),
            'high': max(ratios), 'rounds': len(ratios)}


def rounds_to_decide(s, target):
    """Rounds after which the band would clear the target.

    A rough guess: the band's half-width shrinking as 1/sqrt(rounds).
    """
    distance = abs(s['median'] - target)
    half = (s['high'] - s['low']) / 2.0
    if s['rounds'] < 2 or not half:
        return max(3, s['rounds'] + 2)
    if not distance:
        return None  # on the target: no number of rounds decides it
    return max(s['rounds'] + 1,
               int(math.ceil(s['rounds'] * (half / distance) ** 2)))


def verdict(s, target, at_most=True):
    """met / MISSED / undecided of a summary against `target`.

    at_most: the ratio must be <= target (else >= target). One round
    has no band: undecided.
    """
    if s is None:
        return 'not measured'
    if s['rounds'] < 2:
        return UNDECIDED
    low, high = (s['low'], s['high']) if at_most else (-s['high'],
                                                       -s['low'])
    bound = target if at_most else -target
    if high <= bound:
        return MET
    if low > bound:
        return MISSED
    return UNDECIDED


def to_decide(s, target, at_most=True, rounds='rounds'):
    """'; ~12 rounds to decide' if undecided against `target`, else ''."""
    if verdict(s, target, at_most) != UNDECIDED:
        return ''
    needed = rounds_to_decide(s, target)
    return '; ~%s %s to decide' % (needed or 'no number of', rounds)


def describe(s, target=None, at_most=True, unit='x'):
    """'0.93x (0.88-0.97, 5 rounds)', and the rounds needed if undecided.

    unit: after the median ('x' for a ratio, ' s' for seconds).
    """
    if s is None:
        return 'n/a'
    text = '%.2f%s (%.2f-%.2f, %d round%s)' % (
        s['median'], unit, s['low'], s['high'], s['rounds'],
        '' if s['rounds'] == 1 else 's')
    if target is not None:
        text += to_decide(s, target, at_most)
    return text
