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
"""The project's targets (issue 33), decided from per-round ratios.

- Ours <= 1.0x in-tree for every N and operation.
- Ours / floor <= 1.3x at N = 10, <= 1.15x from N = 100.
- A concurrent chain of 150 >= 3x faster than in-tree (create, update).
- 2000 members on one engine worker: create, update of one member, delete.
- Two engine processes: every member once, no lock errors (engines.py).
- 5000 signals every one handled, the stack updatable afterwards
  (signals.py); first feedback < 2 s (feedback.py).
- ExternalResource (issue 34), on the loopback cloud (external.py): told,
  median SUCCESS -> COMPLETE <= 0.3 s for every workflow length; a lost
  notification, COMPLETE within one fallback period; Mistral calls <=
  in-tree's for every length, <= a tenth of in-tree's at 600 s; no more
  engine threads in use than in-tree.

A ratio target is met when every round's ratio meets it, missed when none
does, and undecided in between (benchmarks/ratios.py).
"""

from benchmarks import chain
from benchmarks import ratios
from benchmarks import report

IN_TREE = 1.0
CONCURRENT_N = 150
SPEEDUP = 3.0
SCALE_N = 2000


def floor_target(n):
    """Ours / floor at most this: 1.3x at N = 10, 1.15x from N = 100."""
    return 1.3 if n < 100 else 1.15


def ratio_rows(rows):
    """Per (mode, N, operation): ratio summaries of the rounds.

    ours / in-tree, ours / floor and in-tree / ours, each round's own.
    """
    table = report.by_key(rows)
    out = []
    for mode, n in sorted({(r['mode'], r['n']) for r in rows},
                          key=lambda k: (k[0] != 'sequential', k[1])):
        ours, intree, floor = (table[(mode, n, k)]['samples']
                               for k in chain.KINDS)
        for op in chain.OPERATIONS:
            out.append({'mode': mode, 'n': n, 'op': op,
                        'in-tree': ratios.summary(ratios.per_round(
                            ours[op], intree[op])),
                        'floor': ratios.summary(ratios.per_round(
                            ours[op], floor[op])),
                        'speedup': ratios.summary(ratios.per_round(
                            intree[op], ours[op]))})
    return out


def _worst(verdicts):
    for v in (ratios.MISSED, ratios.UNDECIDED, 'not measured'):
        if v in verdicts:
            return v
    return ratios.MET if verdicts else 'not measured'


def _group(title, checks):
    """One target row of [(where, summary, target, at_most)] checks.

    Shows the checks not met (the first three), or all if all are met.
    """
    verdicts = [ratios.verdict(s, t, m) for _w, s, t, m in checks]
    shown = [c for c, v in zip(checks, verdicts)
             if v != ratios.MET] or checks
    seen = '; '.join('%s %s' % (where, ratios.describe(s, t, m))
                     for where, s, t, m in shown[:3])
    if len(shown) > 3:
        seen += '; %d more' % (len(shown) - 3)
    return (title, seen or 'not run', _worst(verdicts))


def chain_targets(rows):
    found = ratio_rows(rows)
    where = '%s %s N=%d'
    intree = [(where % (r['mode'], r['op'], r['n']), r['in-tree'], IN_TREE,
               True) for r in found]
    floor = [(where % (r['mode'], r['op'], r['n']), r['floor'],
              floor_target(r['n']), True) for r in found]
    fast = [(where % (r['mode'], r['op'], r['n']), r['speedup'], SPEEDUP,
             False) for r in found if r['mode'] == 'concurrent' and
            r['n'] == CONCURRENT_N and r['op'] in ('create', 'update')]
    return [
        _group('chain ours <= 1.0x in-tree, every N and operation', intree),
        _group('chain ours / floor <= 1.3x at N=10, <= 1.15x from N=100',
               floor),
        _group('concurrent N=%d >= 3x faster than in-tree (create, update;'
               ' in-tree / ours)' % CONCURRENT_N, fast) if fast else
        ('concurrent N=%d >= 3x faster than in-tree' % CONCURRENT_N,
         'N=%d not run' % CONCURRENT_N, 'not measured')]


def change_targets(n, changes):
    out = []
    for change, kinds in changes.items():
        ours, intree, floor = (kinds[k] for k in chain.KINDS)
        out.append((
            '%s of %d: 1 member touched' % (change, n),
            'ours %d gone + %d created; in-tree %d gone + %d created' % (
                ours['replaced'], ours['created'], intree['replaced'],
                intree['created']),
            ratios.MET if ours['replaced'] + ours['created'] == 1
            else ratios.MISSED))
        out.append(_group(
            '%s of %d: update <= %.2fx the flat floor' % (
                change, n, floor_target(n)),
            [('ours / floor', ratios.summary(ratios.per_round(
                ours['samples'], floor['samples'])), floor_target(n),
              True)]))
    return out


def scale_targets(results):
    from benchmarks import scale
    out = []
    for mode in sorted({r['mode'] for r in results}):
        ours = {r['n']: r for r in results
                if r['kind'] == chain.OURS and r['mode'] == mode}
        largest = scale.largest_working(results, chain.INTREE, mode)
        title = ('%s chain of %d on one engine worker: create, update of '
                 'one member, delete' % (mode, SCALE_N))
        if SCALE_N not in ours:
            out.append((title, 'N=%d not run; in-tree largest working '
                        'N=%s' % (SCALE_N, largest), 'not measured'))
            continue
        run = ours[SCALE_N]
        out.append((title, '%s; in-tree largest working N=%s' % (
            scale.describe(run), largest),
            ratios.MISSED if run['failed'] else ratios.MET))
    return out


TOLD_SECONDS = 0.3
CALLS_VS_IN_TREE = 1.0
LONG_SECONDS = 600
CALLS_VS_IN_TREE_LONG = 0.1
THREADS_VS_IN_TREE = 1.0
# The external part whose stacks run one type at a time.
THREADS_PART = 'external-short'


def calls_target(seconds):
    """Ours' Mistral calls / in-tree's at most this."""
    return (CALLS_VS_IN_TREE_LONG if seconds >= LONG_SECONDS
            else CALLS_VS_IN_TREE)


def _told_row(external, name, case):
    band = external.median_band(external.latencies(case, external.OURS,
                                                   'told'))
    ours = external.of_kind(case, external.OURS)
    seen = external.describe_seconds(band) + _untold(ours)
    split = external.told_medians(case)
    if split:
        seen += ('; of which delivery to the engine %.2f s, ours after '
                 'the signal %.2f s' % split)
    verdict = ratios.verdict(band, TOLD_SECONDS)
    seen += ratios.to_decide(band, TOLD_SECONDS, rounds='told stacks')
    return ('ExternalResource told, %s: median SUCCESS -> COMPLETE <= %.1f s'
            % (external.case_title(name, case), TOLD_SECONDS), seen, verdict)


def _untold(ours):
    """What of ours' stacks the told median leaves out, and why."""
    polled = [s for s in ours if s['how'] == 'fallback']
    other = len(ours) - len(polled) - len(
        [s for s in ours if s['how'] == 'told'])
    text = ''
    if polled:
        # The fallback poll may read the ended execution before the
        # notice is looked at: its latency says whether one was lost.
        seconds = [s['latency'] for s in polled
                   if s['latency'] is not None]
        text += '; %d of %d found first by the fallback poll' % (
            len(polled), len(ours))
        if seconds:
            text += ' (%.2f-%.2f s)' % (min(seconds), max(seconds))
    if other:
        text += ('; %d of %d neither told nor found by the fallback poll'
                 % (other, len(ours)))
    return text


def _lost_row(external, case, period):
    ours = external.of_kind(case, external.OURS)
    lost = [s for s in ours if s['how'] == 'fallback']
    times = [s['latency'] for s in lost if s['status'] == 'COMPLETE']
    title = ('ExternalResource, notification lost: COMPLETE within one '
             'fallback period (%d s) of SUCCESS' % period)
    if not ours:
        return (title, 'not run', 'not measured')
    seen = '%d of %d found by the fallback poll; SUCCESS -> COMPLETE %s' % (
        len(lost), len(ours), ', '.join('%.1f s' % t for t in times) or
        'none')
    if not times:  # none lost: the outage missed every notification
        return (title, seen, 'not measured')
    if max(times) > period or len(times) < len(lost):
        return (title, seen, ratios.MISSED)
    return (title, seen, ratios.MET if len(lost) == len(ours)
            else ratios.UNDECIDED)


def _threads_row(external, data):
    title = ('ExternalResource: engine threads in use <= %.1fx in-tree\'s '
             '(window against window)' % THREADS_VS_IN_TREE)
    if data['engine'] == 'eventlet':
        return (title, 'eventlet engine: resources wait in green threads, '
                'which /proc does not show', 'not measured')
    ours, intree = external.thread_pairs(data)
    found = ratios.summary(ratios.per_round(ours, intree))
    if found is None:
        return (title, 'in-tree used no thread above the idle count in any '
                'window' if ours else 'no window of one type alone (side '
                'by side)', 'not measured')
    return (title, external.describe_pairs(found, THREADS_VS_IN_TREE),
            ratios.verdict(found, THREADS_VS_IN_TREE))


def external_targets(data, part=THREADS_PART):
    """The target rows of one ExternalResource part's data.

    The engine threads' target only of THREADS_PART: the other runs the
    two types side by side, never one alone.
    """
    from benchmarks import external
    if 'cases' not in data:
        return [('ExternalResource', 'a result of the older in-process '
                 'scenario: run the part again', 'not measured')]
    rows = []
    for name in external.CASES:
        case = data['cases'].get(name)
        if case is None:
            continue
        if name == external.LOST:
            rows.append(_lost_row(external, case, data['fallback_period']))
            continue
        rows.append(_told_row(external, name, case))
        target = calls_target(case['seconds'])
        found = external.calls_ratio(case)
        rows.append(('ExternalResource, %s: Mistral calls <= %gx in-tree\'s'
                     % (external.case_title(name, case), target),
                     external.describe_pairs(found, target),
                     ratios.verdict(found, target)))
    if part == THREADS_PART:
        rows.append(_threads_row(external, data))
    return rows


def rows_of(measured):
    """Every target row of what the parts measured."""
    rows = []
    if measured.get('chain'):
        rows += chain_targets(measured['chain'])
    if 'changes' in measured:
        rows += change_targets(*measured['changes'])
    if 'scale' in measured:
        rows += scale_targets(measured['scale'])
    for part, data in measured.get('external', ()):
        rows += external_targets(data, part)
    for key, module in (('engines', 'engines'), ('feedback', 'feedback'),
                        ('signals', 'signals'), ('long_lived', 'long_lived')):
        if key in measured:
            rows += __import__('benchmarks.' + module,
                               fromlist=['targets']).targets(measured[key])
    return rows


def markdown(measured):
    lines = ['| target | measured (median, band of per-round ratios) '
             '| verdict |', '|---|---|---|']
    lines += ['| %s | %s | %s |' % row for row in rows_of(measured)]
    return '\n'.join(lines)
