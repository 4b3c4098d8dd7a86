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
"""Benchmark results as markdown tables (results.md) and a plot (chain.png)."""

import os

from benchmarks import chain
from benchmarks import harness

MIB = 1024.0 * 1024.0


def fmt(value, digits=2, suffix=''):
    if value is None:
        return 'n/a'
    return '%.*f%s' % (digits, value, suffix)


def by_key(rows):
    return {(r['mode'], r['n'], r['kind']): r for r in rows}


def headline_rows(rows):
    """The headline rows of the lifecycle rows.

    [(mode, n, operation, ours, in-tree, floor, ours/in-tree, ours/floor)]
    """
    table = by_key(rows)
    out = []
    for mode, n in sorted({(r['mode'], r['n']) for r in rows},
                          key=lambda k: (k[0] != 'sequential', k[1])):
        ours = table[(mode, n, chain.OURS)]
        intree = table[(mode, n, chain.INTREE)]
        floor = table[(mode, n, chain.FLOOR)]
        for op in chain.OPERATIONS:
            o, i, f = (ours['median'][op], intree['median'][op],
                       floor['median'][op])
            out.append((mode, n, op, o, i, f, harness.ratio(o, i),
                        harness.ratio(o, f)))
    return out


def headline_markdown(rows):
    lines = ['| mode | N | operation | ours (s) | in-tree (s) | floor (s) '
             '| ours / in-tree | ours / floor |',
             '|---|---:|---|---:|---:|---:|---:|---:|']
    for mode, n, op, o, i, f, r_i, r_f in headline_rows(rows):
        lines.append('| %s | %d | %s | %s | %s | %s | %s | %s |' % (
            mode, n, op, fmt(o), fmt(i), fmt(f), fmt(r_i, 2, 'x'),
            fmt(r_f, 2, 'x')))
    return '\n'.join(lines)


def rss_markdown(rows):
    lines = ['| mode | N | kind | rounds | peak RSS (MiB) '
             '| RSS growth in the round (MiB) '
             '| engine CPU s per s (create / update / delete) |',
             '|---|---:|---|---:|---:|---:|---|']
    for r in sorted(rows, key=lambda r: (r['mode'] != 'sequential', r['n'],
                                         r['kind'])):
        lines.append('| %s | %d | %s | %d | %.0f | %.1f | %s |' % (
            r['mode'], r['n'], r['kind'], r['rounds'], r['peak_rss'] / MIB,
            r['rss_growth'] / MIB, ' / '.join(
                fmt(r['cpu_share'][op]) for op in chain.OPERATIONS)))
    return '\n'.join(lines)


def changes_markdown(changes, n):
    lines = ['| change | kind | members gone | members created | update (s) '
             '| / floor | / in-tree |',
             '|---|---|---:|---:|---:|---:|---:|']
    for change, kinds in changes.items():
        floor, intree = kinds[chain.FLOOR], kinds[chain.INTREE]
        for kind in (chain.OURS, chain.INTREE, chain.FLOOR):
            r = kinds[kind]
            lines.append('| %s of %d | %s | %d | %d | %s | %s | %s |' % (
                change, n, kind, r['replaced'], r['created'],
                fmt(r['update']),
                fmt(harness.ratio(r['update'], floor['update']), 2, 'x'),
                fmt(harness.ratio(r['update'], intree['update']), 2, 'x')))
    return '\n'.join(lines)


def scale_markdown(results):
    from benchmarks import scale
    lines = ['| mode | N | kind | %s | peak RSS (MiB) | result |' % (
        ' | '.join('%s (s)' % s for s in scale.STEPS)),
        '|---|---:|---|%s---:|---|' % ('---:|' * len(scale.STEPS))]
    for r in sorted(results, key=lambda r: (r['mode'] != 'sequential',
                                            r['kind'], r['n'])):
        lines.append('| %s | %d | %s | %s | %s | %s |' % (
            r['mode'], r['n'], r['kind'],
            ' | '.join(fmt(r['times'].get(s), 1) for s in scale.STEPS),
            fmt(r['peak_rss'] / MIB if r['peak_rss'] else None, 0),
            ('FAILED at ' + r['failed']).replace('|', '/')
            if r['failed'] else 'ok'))
    return '\n'.join(lines)


def plot(rows, path):
    import matplotlib
    matplotlib.use('Agg')
    from matplotlib import pyplot

    os.makedirs(os.path.dirname(path), exist_ok=True)
    table = by_key(rows)
    modes = [m for m in ('sequential', 'concurrent')
             if any(r['mode'] == m for r in rows)]
    fig, axes = pyplot.subplots(len(modes), len(chain.OPERATIONS),
                                figsize=(12, 3.6 * len(modes)),
                                squeeze=False)
    styles = {chain.OURS: 'o-', chain.INTREE: 's--', chain.FLOOR: '^:'}
    for row, mode in enumerate(modes):
        sizes = sorted({r['n'] for r in rows if r['mode'] == mode})
        for col, op in enumerate(chain.OPERATIONS):
            ax = axes[row][col]
            for kind, style in styles.items():
                ax.plot(sizes, [table[(mode, n, kind)]['median'][op]
                                for n in sizes], style, label=kind)
            ax.set_title('%s %s' % (mode, op))
            ax.set_xlabel('members (N)')
            ax.set_ylabel('seconds (median)')
            if len(sizes) > 1:
                ax.set_xscale('log')
                ax.set_yscale('log')
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize='small')
    fig.suptitle('ResourceChain of N OS::Heat::None: ours, in-tree, flat '
                 'floor (one in-process heat-engine)')
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    pyplot.close(fig)


def write(results_dir, sections):
    """sections: [(title, markdown)] -> results.md; its path."""
    os.makedirs(results_dir, exist_ok=True)
    path = os.path.join(results_dir, 'results.md')
    with open(path, 'w') as f:
        f.write('# heat-lifecycle-plugins benchmarks\n\n')
        for title, body in sections:
            f.write('## %s\n\n%s\n\n' % (title, body.strip()))
    return path


def rst_table(header, rows):
    """An RST simple table of strings."""
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    rule = '  '.join('=' * w for w in widths)

    def line(cells):
        cells = (str(c).ljust(w) for c, w in zip(cells, widths))
        return '  '.join(cells).rstrip()
    return '\n'.join([rule, line(header), rule] + [line(r) for r in rows] +
                     [rule])


def headline_rst(rows, ratio_cells=None):
    """The headline table in RST, for README.rst (headline.rst).

    ratio_cells: {(mode, N, operation): (ours/in-tree, ours/floor)} texts
    to show instead of the ratios of the medians (targets.ratio_cells:
    the per-round ratios' median and its verdict).
    """
    found = []
    for mode, n, op, o, i, f, r_i, r_f in headline_rows(rows):
        cells = (fmt(r_i, 2, 'x'), fmt(r_f, 2, 'x'))
        if ratio_cells is not None:
            cells = ratio_cells.get((mode, n, op), ('n/a', 'n/a'))
        found.append((mode, n, op, fmt(o), fmt(i), fmt(f)) + tuple(cells))
    return rst_table(
        ['mode', 'N', 'operation', 'ours (s)', 'in-tree (s)', 'floor (s)',
         'ours/in-tree', 'ours/floor'], found)
