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
"""The issue's targets, checked against what one run measured (met/missed)."""

from benchmarks import chain
from benchmarks import harness
from benchmarks import report

CONCURRENT_N = 150
SCALE_N = 2000


def _verdict(ok):
    if ok is None:
        return 'not measured'
    return 'met' if ok else 'MISSED'


def chain_targets(rows):
    out = []
    worst_intree = worst_floor = None
    for mode, n, op, o, i, f, r_i, r_f in report.headline_rows(rows):
        if r_i is not None and (worst_intree is None or r_i > worst_intree[0]):
            worst_intree = (r_i, '%s %s N=%d' % (mode, op, n))
        if r_f is not None and (worst_floor is None or r_f > worst_floor[0]):
            worst_floor = (r_f, '%s %s N=%d' % (mode, op, n))
    if worst_intree:
        out.append(('chain ours <= 1.0x in-tree at every N',
                    'worst %.2fx (%s)' % worst_intree,
                    _verdict(worst_intree[0] <= 1.0)))
    if worst_floor:
        out.append(('chain ours <= 1.2x flat floor',
                    'worst %.2fx (%s)' % worst_floor,
                    _verdict(worst_floor[0] <= 1.2)))
    table = report.by_key(rows)
    key = ('concurrent', CONCURRENT_N)
    title = 'concurrent N=%d >= 3x faster than in-tree (create, update)' % (
        CONCURRENT_N)
    if (key + (chain.OURS,)) in table:
        speedups = {op: harness.ratio(
            table[key + (chain.INTREE,)]['median'][op],
            table[key + (chain.OURS,)]['median'][op])
            for op in chain.OPERATIONS}
        out.append((title, 'in-tree / ours: ' + ', '.join(
            '%s %.1fx' % (op, speedups[op]) for op in chain.OPERATIONS),
            _verdict(min(speedups['create'], speedups['update']) >= 3.0)))
    else:
        out.append((title, 'N=%d not run' % CONCURRENT_N, _verdict(None)))
    return out


def change_targets(n, changes):
    out = []
    for change, kinds in changes.items():
        ours, intree, floor = (kinds[chain.OURS], kinds[chain.INTREE],
                               kinds[chain.FLOOR])
        touched = ours['replaced'] + ours['created']
        out.append((
            '%s of %d: 1 member touched' % (change, n),
            'ours %d gone + %d created; in-tree %d gone + %d created' % (
                ours['replaced'], ours['created'], intree['replaced'],
                intree['created']),
            _verdict(touched == 1)))
        r_floor = harness.ratio(ours['update'], floor['update'])
        out.append((
            '%s of %d: update <= 1.2x the flat floor' % (change, n),
            'ours %.2fs, floor %.2fs: %.2fx (in-tree %.2fs)' % (
                ours['update'], floor['update'], r_floor, intree['update']),
            _verdict(r_floor <= 1.2)))
    return out


def scale_targets(results):
    from benchmarks import scale
    out = []
    for mode in sorted({r['mode'] for r in results}):
        ours = {r['n']: r for r in results
                if r['kind'] == chain.OURS and r['mode'] == mode}
        largest = scale.largest_working(results, chain.INTREE, mode)
        biggest = max(ours) if ours else None
        ok = biggest is not None and biggest >= SCALE_N and not \
            ours[biggest]['failed']
        out.append((
            '%s chain of %d: create, 2 full updates, delete on an '
            'unpatched engine (one worker)' % (mode, SCALE_N),
            'ours up to N=%s: %s; in-tree largest working N=%s' % (
                biggest, 'ok' if ok else (ours[biggest]['failed']
                                          if biggest else 'not run'),
                largest),
            _verdict(ok if biggest else None)))
    return out


def markdown(measured):
    rows = []
    if 'chain' in measured:
        rows += chain_targets(measured['chain'])
    if 'changes' in measured:
        rows += change_targets(*measured['changes'])
    if 'engines' in measured:
        from benchmarks import engines
        rows += engines.targets(measured['engines'])
    if 'scale' in measured:
        rows += scale_targets(measured['scale'])
    if 'feedback' in measured:
        from benchmarks import feedback
        rows += feedback.targets(measured['feedback'])
    if 'external' in measured:
        from benchmarks import external
        rows += external.targets(measured['external'])
    if 'signals' in measured:
        from benchmarks import signals
        rows += signals.targets(measured['signals'])
    if 'long_lived' in measured:
        from benchmarks import long_lived
        rows += long_lived.targets(measured['long_lived'])
    lines = ['| target | measured | verdict |', '|---|---|---|']
    lines += ['| %s | %s | %s |' % row for row in rows]
    return '\n'.join(lines)
