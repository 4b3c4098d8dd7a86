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
- A concurrent chain of 150: create <= 1.05x the floor (in-tree / floor
  is at most 1.66x on concurrent create in every round of both series, so
  3x faster than in-tree cannot hold: the floor is the engine's own limit);
  update >= 3x faster than in-tree.
- 2000 members on one engine worker: create, update of one member, delete.
- Two engine processes: every member once, no lock errors (engines.py).
- 5000 signals every one handled, the stack updatable afterwards
  (signals.py); first feedback < 2 s (feedback.py).
- ExternalResource (issue 34), on the loopback cloud: external_report.py.

A target is met when the 95 % interval of the median of its per-round
ratios is on the target's side, MISSED when all of it is beyond, and
undecided otherwise (benchmarks/ratios.py).
"""

from benchmarks import chain
from benchmarks import external_report
from benchmarks import ratios
from benchmarks import report

IN_TREE = 1.0
CONCURRENT_N = 150
SPEEDUP = 3.0
CONCURRENT_CREATE_FLOOR = 1.05
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
                            intree[op], ours[op])),
                        'bound': ratios.summary(ratios.per_round(
                            intree[op], floor[op]))})
    return out


def ratio_cells(rows):
    """{(mode, N, operation): ('1.03x MISSED', '1.13x met')} of the rows.

    The median of the per-round ratios against in-tree and the floor, each
    with its verdict against its target.
    """
    def cell(s, target):
        if s is None:
            return 'n/a'
        return '%.2fx %s' % (s['median'], ratios.verdict(s, target))
    return {(r['mode'], r['n'], r['op']): (
        cell(r['in-tree'], IN_TREE), cell(r['floor'], floor_target(r['n'])))
        for r in ratio_rows(rows)}


def _worst(verdicts):
    for v in (ratios.MISSED, ratios.UNDECIDED, 'not measured'):
        if v in verdicts:
            return v
    return ratios.MET if verdicts else 'not measured'


def _group(title, checks):
    """One target row of [(where, summary, target, at_most)] checks.

    Shows every MISSED check first, then the first three others not met,
    or all if all are met.
    """
    verdicts = [ratios.verdict(s, t, m) for _w, s, t, m in checks]
    missed = [c for c, v in zip(checks, verdicts) if v == ratios.MISSED]
    others = [c for c, v in zip(checks, verdicts)
              if v not in (ratios.MET, ratios.MISSED)]
    shown = missed + others[:3] if missed or others else checks
    seen = '; '.join('%s %s' % (where, ratios.describe(s, t, m))
                     for where, s, t, m in shown)
    if len(others) > 3:
        seen += '; %d more not decided' % (len(others) - 3)
    return (title, seen or 'not run', _worst(verdicts))


def chain_targets(rows):
    found = ratio_rows(rows)
    where = '%s %s N=%d'
    intree = [(where % (r['mode'], r['op'], r['n']), r['in-tree'], IN_TREE,
               True) for r in found]
    floor = [(where % (r['mode'], r['op'], r['n']), r['floor'],
              floor_target(r['n']), True) for r in found]
    concurrent = {r['op']: r for r in found
                  if r['mode'] == 'concurrent' and r['n'] == CONCURRENT_N}
    return [
        _group('chain ours <= 1.0x in-tree, every N and operation', intree),
        _group('chain ours / floor <= 1.3x at N=10, <= 1.15x from N=100',
               floor)] + concurrent_targets(concurrent)


def concurrent_targets(concurrent):
    """The N=150 rows of {operation: ratio row}: create, update."""
    create_title = ('concurrent create N=%d <= %.2fx the floor (the '
                    'engine\'s own limit)' % (CONCURRENT_N,
                                              CONCURRENT_CREATE_FLOOR))
    update_title = ('concurrent update N=%d >= %gx faster than in-tree '
                    '(in-tree / ours)' % (CONCURRENT_N, SPEEDUP))
    not_run = 'N=%d not run' % CONCURRENT_N
    return [
        _group(create_title, [('ours / floor', concurrent['create']['floor'],
                               CONCURRENT_CREATE_FLOOR, True)])
        if 'create' in concurrent else (create_title, not_run,
                                        'not measured'),
        with_bound(_group(update_title, [('in-tree / ours',
                                          concurrent['update']['speedup'],
                                          SPEEDUP, False)]),
                   concurrent['update'].get('bound'))
        if 'update' in concurrent else (update_title, not_run,
                                        'not measured')]


def with_bound(row, bound):
    """A speedup row, with the most the floor's shape is faster by.

    The floor is the engine's work for a chain of ours' shape, nothing of
    any chain's own: in-tree / floor is the speedup no chain of that shape
    reaches, the measured reason when the target is out of reach.
    """
    title, seen, verdict = row
    if bound is None:
        return row
    seen += ('; the floor, a chain\'s shape with no chain, in-tree / floor '
             '%s' % ratios.describe(bound))
    if bound['high'] is not None and bound['high'] < SPEEDUP:
        seen += ': %gx is beyond what that shape allows' % SPEEDUP
    return (title, seen, verdict)


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
        rows += external_report.targets(data, part)
    for key, module in (('engines', 'engines'), ('feedback', 'feedback'),
                        ('signals', 'signals'), ('long_lived', 'long_lived')):
        if key in measured:
            rows += __import__('benchmarks.' + module,
                               fromlist=['targets']).targets(measured[key])
    return rows


def markdown(measured):
    lines = ['| target | measured (median, its 95 % interval, rounds) '
             '| verdict |', '|---|---|---|']
    lines += ['| %s | %s | %s |' % row for row in rows_of(measured)]
    return '\n'.join(lines)
