"""The issue's targets, checked against what one run measured (met/missed)."""

from benchmarks import chain
from benchmarks import harness
from benchmarks import report


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
    key = ('concurrent', 100)
    if (key + (chain.OURS,)) in table:
        speedups = ['%s %.1fx' % (op, harness.ratio(
            table[key + (chain.INTREE,)]['median'][op],
            table[key + (chain.OURS,)]['median'][op]))
            for op in chain.OPERATIONS]
        slowest = min(harness.ratio(
            table[key + (chain.INTREE,)]['median'][op],
            table[key + (chain.OURS,)]['median'][op])
            for op in chain.OPERATIONS)
        out.append(('concurrent N=100 >= 3x faster than in-tree',
                    'in-tree / ours: ' + ', '.join(speedups),
                    _verdict(slowest >= 3.0)))
    else:
        out.append(('concurrent N=100 >= 3x faster than in-tree',
                    'N=100 not run', _verdict(None)))
    return out


def insert_targets(n, insert):
    ours, intree = insert[chain.OURS], insert[chain.INTREE]
    touched = ours['replaced'] + ours['created']
    speedup = harness.ratio(intree['update'], ours['update'])
    return [
        ('insert at 0 of %d: 1 member touched (in-tree: all)' % n,
         'ours %d replaced + %d created; in-tree %d replaced + %d created'
         % (ours['replaced'], ours['created'], intree['replaced'],
            intree['created']),
         _verdict(touched == 1)),
        ('insert at 0 of %d: update >= 10x faster' % n,
         'in-tree / ours %.1fx' % speedup, _verdict(speedup >= 10)),
    ]


def markdown(measured):
    rows = []
    if 'chain' in measured:
        rows += chain_targets(measured['chain'])
    if 'insert' in measured:
        rows += insert_targets(*measured['insert'])
    if 'feedback' in measured:
        from benchmarks import feedback
        rows += feedback.targets(measured['feedback'])
    if 'external' in measured:
        from benchmarks import external
        rows += external.targets(measured['external'])
    if 'signals' in measured:
        from benchmarks import signals
        rows += signals.targets(measured['signals'])
    lines = ['| target | measured | verdict |', '|---|---|---|']
    lines += ['| %s | %s | %s |' % row for row in rows]
    return '\n'.join(lines)
