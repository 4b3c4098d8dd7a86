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
round yields its own ratio. A target is decided on the median of those
ratios and its 95 % confidence interval: the order statistics that hold
the true median with at least that probability (a distribution-free
interval, which narrows as rounds are added). Under 6 rounds no such
interval exists: the target is undecided, whatever the figures.
"""

import math
import statistics

MET, MISSED, UNDECIDED = 'met', 'MISSED', 'undecided'
CONFIDENCE = 0.95
# The normal quantile of CONFIDENCE (two-sided), and the median's standard
# error over the mean's for normal data (sqrt(pi / 2)): what predicts the
# interval's width at more rounds when there is no interval yet.
Z = 1.96
MEDIAN_SE = math.sqrt(math.pi / 2)


def per_round(numerators, denominators):
    """[a / b] of the rounds where both were measured."""
    return [a / b for a, b in zip(numerators, denominators)
            if a is not None and b]


def lower_rank(n, confidence=CONFIDENCE):
    """0-based rank k of the median's interval [x(k), x(n - 1 - k)].

    Those order statistics hold the median with probability
    1 - 2 P(Bin(n, 1/2) <= k); the largest k that keeps it at least
    `confidence`, or None when even the whole range falls short.
    """
    k, below, found = 0, 0.0, None
    while 2 * k < n - 1:
        below += math.comb(n, k) / 2.0 ** n
        if 1 - 2 * below < confidence:
            break
        found, k = k, k + 1
    return found


def fewest_rounds(confidence=CONFIDENCE):
    """The fewest values that have an interval at `confidence`."""
    n = 1
    while lower_rank(n, confidence) is None:
        n += 1
    return n


def summary(values):
    """{'median', 'low', 'high', 'rounds', 'min', 'max', 'spread'} or None.

    low-high: the median's 95 % interval, None for both under
    fewest_rounds(); min-max: every value; spread: their standard
    deviation (0 for one value).
    """
    found = sorted(v for v in values if v is not None)
    if not found:
        return None
    k = lower_rank(len(found))
    return {'median': statistics.median(found),
            'low': None if k is None else found[k],
            'high': None if k is None else found[len(found) - 1 - k],
            'rounds': len(found), 'min': found[0], 'max': found[-1],
            'spread': statistics.stdev(found) if len(found) > 1 else 0.0}


def verdict(s, target, at_most=True):
    """met / MISSED / undecided of a summary against `target`.

    at_most: the value must be <= target (else >= target). met when the
    whole interval is on the right side of the target, MISSED when all of
    it is on the wrong side, undecided otherwise and with no interval.
    """
    if s is None:
        return 'not measured'
    if s['low'] is None:
        return UNDECIDED
    low, high = (s['low'], s['high']) if at_most else (-s['high'],
                                                       -s['low'])
    bound = target if at_most else -target
    if high <= bound:
        return MET
    if low > bound:
        return MISSED
    return UNDECIDED


def rounds_to_decide(s, target):
    """Rounds whose interval would clear the target, or None if none would.

    The interval's half-width shrinks as 1/sqrt(rounds): from the interval
    itself when there is one, else from the values' spread.
    """
    distance = abs(s['median'] - target)
    if not distance:
        return None  # on the target: no number of rounds decides it
    least = max(fewest_rounds(), s['rounds'] + 1)
    if s['low'] is not None:
        half = (s['high'] - s['low']) / 2.0
        needed = s['rounds'] * (half / distance) ** 2
    else:
        needed = (Z * MEDIAN_SE * s['spread'] / distance) ** 2
    return max(least, int(math.ceil(needed)))


def to_decide(s, target, at_most=True, rounds='rounds'):
    """'; ~12 rounds to decide' if undecided against `target`, else ''."""
    if verdict(s, target, at_most) != UNDECIDED:
        return ''
    needed = rounds_to_decide(s, target)
    return '; ~%s %s to decide' % (needed or 'no number of', rounds)


def describe(s, target=None, at_most=True, unit='x', rounds='round',
             digits=2):
    """'0.93x (95 % 0.88-0.97, 12 rounds)', and the rounds to decide.

    unit: after the median ('x' for a ratio, ' s' for seconds); rounds:
    what one value is (a round, a pair, a told stack).
    """
    if s is None:
        return 'n/a'

    def figure(value):
        return '%.*f' % (digits, value)

    count = '%d %s%s' % (s['rounds'], rounds, '' if s['rounds'] == 1
                         else 's')
    if s['low'] is None:
        text = '%s%s (all %s-%s, %s: too few for a %d %% interval)' % (
            figure(s['median']), unit, figure(s['min']), figure(s['max']),
            count, CONFIDENCE * 100)
    else:
        text = '%s%s (%d %% %s-%s, %s)' % (
            figure(s['median']), unit, CONFIDENCE * 100, figure(s['low']),
            figure(s['high']), count)
    if target is not None:
        text += to_decide(s, target, at_most, rounds + 's')
    return text
