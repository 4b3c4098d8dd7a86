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
"""--report: the newest result of every part, merged into one report.

Writes RESULTS_DIR/results.md (the parts' origin, the targets, every
table), chain.png and headline.rst, and README's headline of the series
between its markers (markers(series)) when the README has them. A part
whose commit predates the last change to a file of what it measures (its
import closure, benchmarks/closure.py) is marked stale; a part measured
busy or at its smallest size is marked too. A profile is stale the same
way, from the commit it names.
"""

import glob
import json
import os
import re

from benchmarks import closure
from benchmarks import headline
from benchmarks import parts
from benchmarks import ratios
from benchmarks import report
from benchmarks import stamp
from benchmarks import targets


def markers(series):
    """README's markers around one series' headline."""
    return ('.. benchmark-headline-%s-start' % series,
            '.. benchmark-headline-%s-end' % series)


def newest_results(results_dir):
    """{part: result}: the newest result file of each part."""
    found = {}
    for path in glob.glob(os.path.join(results_dir, '*.json')):
        try:
            with open(path) as f:
                result = json.load(f)
        except ValueError:
            continue
        if not isinstance(result, dict) or result.get('part') not in \
                parts.BY_NAME:
            continue
        known = found.get(result['part'])
        if known is None or result['stamp']['date'] > known['stamp']['date']:
            found[result['part']] = result
    return found


def marks(result):
    """What to mistrust about a result: stale, busy, smallest, dirty."""
    part = parts.BY_NAME[result['part']]
    found = []
    measured = closure.files_of(part.measures)
    newer = stamp.stale(result['stamp'], measured)
    if newer:
        found.append('STALE (measured files changed in %s)' % newer)
    if stamp.measured_busy(result['stamp']):
        found.append('BUSY')
    if result.get('smallest'):
        found.append('smallest size')
    dirty = stamp.uncommitted(result['stamp'], measured)
    if dirty:
        found.append('uncommitted changes to %s' % ', '.join(dirty))
    return found


def speed_text(stamp):
    """The speed probe's seconds before / after ('-' where not taken)."""
    def one(found):
        if not found:
            return '-'
        return '%.2f, %.2f' % (found['interpreter'], found['gc'])
    return '%s / %s' % (one(stamp.get('speed_before')),
                        one(stamp.get('speed_after')))


def origin_markdown(results):
    lines = ['| part | commit | date (UTC) | Heat | cores | load before / '
             'after | speed probe s (loop, gc) before / after | minutes '
             '| marks |',
             '|---|---|---|---|---:|---|---|---:|---|']
    for part in parts.PARTS:
        r = results.get(part.name)
        if r is None:
            lines.append('| %s | not measured | | | | | | | |' % part.name)
            continue
        s = r['stamp']
        lines.append('| %s | %s | %s | %s | %d | %.2f / %.2f | %s | %.1f '
                     '| %s |' % (part.name, s['commit'][:10], s['date'],
                                 s['heat'], s['machine']['cores'],
                                 s['load_before'][0], s['load_after'][0],
                                 speed_text(s), s['minutes'],
                                 ', '.join(marks(r)) or 'ok'))
    return '\n'.join(lines)


def chain_rows(results):
    """The chain parts' rows; of a (mode, N) in two parts, the newer."""
    by_key = {}
    named = [results[n] for n in parts.CHAIN_PARTS[:-1] if n in results]
    for result in sorted(named, key=lambda r: r['stamp']['date']):
        for row in result['data']:
            by_key[(row['mode'], row['n'], row['kind'])] = row
    return list(by_key.values())


def measured_of(results):
    """The parts' data, keyed as targets.rows_of() reads it."""
    def data(name):
        return results[name]['data'] if name in results else None
    measured = {'chain': chain_rows(results), 'changes': data('changes'),
                'engines': data('engines'),
                'external': [(n, data(n)) for n in parts.EXTERNAL_PARTS
                             if data(n)],
                'feedback': data('feedback'),
                'long_lived': data('long-lived')}
    scale = [run for name in parts.SCALE_PARTS for run in data(name) or []]
    if scale:
        measured['scale'] = scale
    signals = [data(n) for n in ('signals-ours', 'signals-in-tree')
               if data(n)]
    if signals:
        measured['signals'] = {'heat': signals[0]['heat'], 'results': [
            r for s in signals for r in s['results']]}
    return {k: v for k, v in measured.items() if v}


def ratio_markdown(rows):
    lines = ['| mode | N | operation | ours / in-tree | ours / floor '
             '(target) | in-tree / ours |', '|---|---:|---|---|---|---|']
    for r in targets.ratio_rows(rows):
        floor = targets.floor_target(r['n'])
        lines.append('| %s | %d | %s | %s | %s (%.2fx) | %s |' % (
            r['mode'], r['n'], r['op'],
            ratios.describe(r['in-tree'], targets.IN_TREE),
            ratios.describe(r['floor'], floor), floor,
            ratios.describe(r['speedup'])))
    return '\n'.join(lines)


def chain_sections(rows):
    return [('Chain lifecycle: medians', report.headline_markdown(rows)),
            ('Chain lifecycle: per-round ratios (median, lowest-highest)',
             ratio_markdown(rows)),
            ('Peak RSS of the engine process', report.rss_markdown(rows))]


def sections_of(measured, results):
    from benchmarks import engines
    from benchmarks import external_report
    from benchmarks import feedback
    from benchmarks import long_lived
    from benchmarks import signals
    found = []
    if 'chain' in measured:
        found += chain_sections(measured['chain'])
    if 'changes' in measured:
        n, changes = measured['changes']
        found.append(('Insert at 0 and removal mid-list of %d' % n,
                      report.changes_markdown(changes, n)))
    if 'engines' in measured:
        found.append(('Two heat-engine processes',
                      engines.markdown(measured['engines'])))
    if 'scale' in measured:
        found.append(('Scale: one engine worker', report.scale_markdown(
            measured['scale'])))
    for name in parts.EXTERNAL_PARTS:
        if name in results:
            found.append(('ExternalResource (%s)' % name,
                          external_report.markdown(results[name]['data'])))
    if 'feedback' in measured:
        found.append(('Time to first feedback',
                      feedback.markdown(measured['feedback'])))
    if 'signals' in measured:
        s = measured['signals']
        found.append(('Signals to one stack', signals.markdown(
            s['results'], s['heat'].split('.'))))
    if 'long_lived' in measured:
        m = measured['long_lived']
        found.append(('A long-lived stack', long_lived.markdown(
            m['results'], m['heat'].split('.'), m['actions'])))
    return found


PROFILE_COMMIT = re.compile(r'^Commit ([0-9a-f]{7,40})', re.MULTILINE)


def profile_roots(name):
    """What a profile measures: the import closure's roots."""
    if name.startswith('profile-external'):
        return parts.EXTERNAL + ('benchmarks.told_profile',)
    if name.startswith('profile-phases'):
        return parts.CHAIN + ('benchmarks.chain_phases',)
    return parts.CHAIN + ('benchmarks.engine_profile',)


def profile_mark(name, text):
    """' (STALE ...)' or ' (no commit named)' of a profile, else ''."""
    found = PROFILE_COMMIT.search(text)
    if found is None:
        return ' (no commit named: a summary, judged by its sources)'
    newer = stamp.stale({'commit': found.group(1)},
                        closure.files_of(profile_roots(name)))
    return ' (STALE: measured files changed in %s)' % newer if newer else ''


def profiles_markdown(results_dir):
    """A line per profile beside the results (benchmarks/engine_profile)."""
    lines = []
    for name in sorted(os.listdir(results_dir)):
        if name.startswith('profile-') and name.endswith('.md'):
            with open(os.path.join(results_dir, name)) as f:
                text = f.read()
            title = text.splitlines()[0].lstrip('# ').strip()
            lines.append('- [%s](%s): %s%s' % (
                name, name, title, profile_mark(name, text)))
    return '\n'.join(lines)


def write_headline(readme, rst, series):
    """The series' headline between its markers; False if none."""
    start, end = markers(series)
    try:
        with open(readme) as f:
            text = f.read()
    except OSError:
        return False
    if start not in text or end not in text:
        return False
    head, rest = text.split(start, 1)
    _old, tail = rest.split(end, 1)
    with open(readme, 'w') as f:
        f.write('%s%s\n\n%s\n\n%s%s' % (head, start, rst.strip(), end,
                                        tail))
    return True


def origin_line(series, results):
    """Where a series' headline comes from: Heat, commits, dates."""
    stamps = [r['stamp'] for r in results.values()]
    named = ['%s (%s)' % (name, ', '.join(marks(r))) if marks(r) else name
             for name, r in sorted(results.items())]
    return 'Heat %s (%s), parts %s; commits %s; measured %s.' % (
        series, ', '.join(sorted({s['heat'] for s in stamps})),
        ', '.join(named),
        ', '.join(sorted({s['commit'][:10] for s in stamps})),
        ', '.join(sorted({s['date'][:10] for s in stamps})))


def merge_report(results_dir, readme, series):
    """Merge, write; what was written (a few lines to print)."""
    results = newest_results(results_dir)
    measured = measured_of(results)
    sections = [('Parts and where their figures come from',
                 origin_markdown(results)),
                ('Targets', targets.markdown(measured))]
    sections += sections_of(measured, results)
    profiles = profiles_markdown(results_dir)
    if profiles:
        sections.append(('Profiles of the missed targets (issue 33, item 4)',
                         profiles))
    path = report.write(results_dir, sections)
    said = ['%d of %d parts measured; report: %s' % (
        len(results), len(parts.PARTS), path)]
    tables = []
    if measured.get('chain'):
        rows = measured['chain']
        report.plot(rows, os.path.join(results_dir, 'chain.png'))
        tables.append('Chain: medians of the rounds in seconds; ratios: the '
                      'median of the per-round ratios and its verdict '
                      '(95 % interval) against the target (ours <= 1.0x '
                      'in-tree; ours / floor <= 1.3x at N=10, <= 1.15x '
                      'from N=100):\n\n' + report.headline_rst(
                          rows, targets.ratio_cells(rows)))
    tables.append(headline.rst(results))
    rst = '\n\n'.join(t for t in tables if t)
    if rst:
        rst = origin_line(series, results) + '\n\n' + rst
        with open(os.path.join(results_dir, 'headline.rst'), 'w') as f:
            f.write(rst + '\n')
        said.append('README headline: %s' % (
            'written' if write_headline(readme, rst, series) else
            'no %s/%s markers in %s, left as it is' % (
                markers(series) + (readme,))))
    return '\n'.join(said)
