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
"""What an ExternalResource part's figures say: tables and targets.

Reads the data benchmarks/external.py measured (per stack: SUCCESS ->
COMPLETE, its Mistral calls, how it ended; per window: engine threads in
use). Medians come with their 95 % interval (benchmarks/ratios.py); ratios
are per pair of stacks or windows. The targets (issue 34): told, median
SUCCESS -> COMPLETE <= 0.3 s for every workflow length; a lost
notification, COMPLETE within one fallback period; Mistral calls <=
in-tree's for every length, <= a tenth of in-tree's at 600 s; no more
engine threads in use than in-tree.
"""

import collections
import statistics

from benchmarks import external_cases as cases
from benchmarks import external_watch as watch
from benchmarks import ratios

OURS, INTREE, KINDS = cases.OURS, cases.INTREE, cases.KINDS
CASES = ('short', 'batch', 'lost', 'long')
LOST = 'lost'


# -- what the figures say --------------------------------------------------

def median_band(values):
    """ratios.summary of seconds: the median and its 95 % interval."""
    return ratios.summary(values)


def describe_seconds(band):
    """'0.280 s (95 % 0.265-0.405, 20 stacks)'; all of them beside it."""
    text = ratios.describe(band, unit=' s', rounds='stack', digits=3)
    if band is not None and band['low'] is not None:
        text = text[:-1] + '; all %.3f-%.3f)' % (band['min'], band['max'])
    return text


def of_kind(case, kind, how=None):
    return [s for s in case['samples'] if s['kind'] == kind and
            (how is None or s['how'] == how)]


def latencies(case, kind, how=None):
    return [s['latency'] for s in of_kind(case, kind, how)
            if s['status'] == 'COMPLETE']


def pairs(case, key):
    """([ours], [in-tree]) of `key`, stack against stack.

    The n-th stack of each type in the same round.
    """
    slots = collections.defaultdict(dict)
    for kind in KINDS:
        seen = collections.Counter()
        for s in of_kind(case, kind):
            slots[(s['round'], seen[s['round']])][kind] = s.get(key)
            seen[s['round']] += 1
    found = [v for _slot, v in sorted(slots.items()) if len(v) == 2]
    return [v[OURS] for v in found], [v[INTREE] for v in found]


def window_threads(case):
    """{(round, type): threads in use} of the windows of one type."""
    found = {}
    for window in case['windows']:
        if len(window['kinds']) == 1 and window['threads']:
            found[(window['rounds'][0], window['kinds'][0])] = \
                window['threads']['median']
    return found


def thread_pairs(data):
    """([ours], [in-tree]) threads in use, window against window."""
    ours, intree = [], []
    for name in CASES:
        found = window_threads(data['cases'].get(name) or {'windows': []})
        for (round_, kind), value in sorted(found.items()):
            if kind == OURS and (round_, INTREE) in found:
                ours.append(value)
                intree.append(found[(round_, INTREE)])
    return ours, intree


def calls_ratio(case):
    return ratios.summary(ratios.per_round(*pairs(case, 'calls')))


def describe_pairs(summary, target=None):
    """ratios.describe, its rounds being pairs of stacks or windows."""
    return ratios.describe(summary, target, rounds='pair')


# -- report ------------------------------------------------------------------

def case_title(name, case):
    """The case in words, from its layout."""
    windows = len(case.get('windows') or [None])
    return {
        'short': '%(seconds)g s workflows, one stack at a time, '
                 '%(rounds)d round(s)',
        'batch': '%(stacks)d stacks at once, %(seconds)g s workflows, '
                 '%(rounds)d round(s)',
        'lost': 'notification lost: heat-api-cfn down while %(seconds)g s '
                'workflows end, %(stacks)d stack(s) of each type side by '
                'side',
        'long': '%(seconds)g s workflows, ' + (
            '%d windows of ' % windows if windows > 1 else '') + (
            '%(stacks)d stack(s) of each type side by side'),
    }[name] % case


def how_they_ended(rows):
    """The stacks counted by how ours ended: 'fallback 12, told 38'."""
    counts = collections.Counter(s['how'] or 'polled (in-tree)'
                                 for s in rows)
    return ', '.join('%s %d' % kv for kv in sorted(counts.items()))


def _threads_cell(case, kind):
    found = [w['threads'] for w in case['windows']
             if w['kinds'] == [kind] and w['threads'] and
             w['threads']['median'] is not None]
    if not found:
        return 'n/a'
    return '%g (peak %g)' % (statistics.median(t['median'] for t in found),
                             max(t['peak'] for t in found))


def _calls_by(rows):
    total = collections.Counter()
    for s in rows:
        total.update(s['calls_by'])
    return ', '.join('%s %d' % kv for kv in sorted(total.items()))


def case_markdown(name, case):
    lines = ['**%s**' % case_title(name, case), '',
             '| type | stacks | SUCCESS -> COMPLETE: median (95 % band; '
             'all) | how it ended | Mistral calls per stack (median) | '
             'all calls, by method and collection | Mistral\'s reads of '
             'the executions (its log) '
             '| engine threads in use (median; peak) |',
             '|---|---:|---|---|---:|---|---:|---|']
    for kind in KINDS:
        rows = of_kind(case, kind)
        lines.append('| %s | %d | %s | %s | %s | %s | %d | %s |' % (
            kind, len(rows), describe_seconds(median_band(
                latencies(case, kind))), how_they_ended(rows),
            '%g' % statistics.median(s['calls'] for s in rows)
            if rows else 'n/a', _calls_by(rows),
            sum(s['fetches'] for s in rows), _threads_cell(case, kind)))
    both = [w['threads'] for w in case['windows']
            if len(w['kinds']) == 2 and w['threads'] and
            w['threads']['median'] is not None]
    if both:
        lines += ['', 'Both types side by side: %g engine threads in use '
                  '(%speak %g) for %d resources in progress%s.' % (
                      statistics.median(t['median'] for t in both),
                      'the median of the windows\'; ' if len(both) > 1
                      else '', max(t['peak'] for t in both),
                      case['windows'][0]['stacks'],
                      ' in each window' if len(both) > 1 else '')]
    lines += told_split(case)
    lines += ['', 'Mistral calls, ours / in-tree per pair of stacks: %s.'
              % describe_pairs(calls_ratio(case))]
    if case['stacks'] > 1:
        lines[-1] += ' Executions running at once, at most: %s.' % ', '.join(
            '%s %s' % ('+'.join(w['kinds']), w.get('at_once'))
            for w in case['windows'])
    return lines


def told_stacks(case):
    """Ours' stacks told by Mistral, with their SIGNAL event seen."""
    return [s for s in of_kind(case, OURS)
            if s['status'] == 'COMPLETE' and s.get('signalled') and
            s.get('success') and s['how'] == 'told']


def _spans(stacks, *marks):
    """Per pair of consecutive marks, each stack's time between them."""
    return tuple([s[end] - s[start] for s in stacks]
                 for start, end in zip(marks, marks[1:]))


def _told_parts(case):
    """([SUCCESS -> SIGNAL], [SIGNAL -> COMPLETE]) of ours' told stacks."""
    return _spans(told_stacks(case), 'success', 'signalled', 'complete')


def _delivery_parts(case):
    """([SUCCESS -> at heat-api-cfn], [at heat-api-cfn -> SIGNAL]).

    Of ours' told stacks whose webhook heat-api-cfn's log shows (results
    from 2026-11-26 on); empty lists for older ones.
    """
    return _spans([s for s in told_stacks(case) if s.get('arrived')],
                  'success', 'arrived', 'signalled')


def told_medians(case):
    """(median SUCCESS -> SIGNAL, median SIGNAL -> COMPLETE), or None."""
    delivery, ours = _told_parts(case)
    if not delivery:
        return None
    return statistics.median(delivery), statistics.median(ours)


def told_split(case):
    """Where ours' told latency goes: delivery, then our check."""
    delivery, ours = _told_parts(case)
    if not delivery:
        return []
    webhook, cfn = _delivery_parts(case)
    inside = ''
    if webhook:
        inside = (': Mistral\'s webhook reaching heat-api-cfn %s, then '
                  'heat-api-cfn (the EC2 signature and token checked with '
                  'Keystone, the RPC) to the event %s' % (
                      describe_seconds(median_band(webhook)),
                      describe_seconds(median_band(cfn))))
    return ['', 'Ours, told (%d stacks): SUCCESS -> its SIGNAL event %s '
            '(Mistral\'s webhook, heat-api-cfn checking the EC2 signature '
            'and the token with Keystone, the RPC into the engine)%s; '
            'SIGNAL -> COMPLETE %s (the check\'s next look, one read of the '
            'execution, Heat storing the state)%s.' % (
                len(delivery), describe_seconds(median_band(delivery)),
                inside, describe_seconds(median_band(ours)),
                _check_split(case))]


def _check_split(case):
    """SIGNAL -> COMPLETE split at ours' event of the ended execution.

    Results from 2026-12-06 on (`found`); '' for older ones.
    """
    stacks = [s for s in told_stacks(case) if s.get('found')]
    if not stacks:
        return ''
    check, heat = _spans(stacks, 'signalled', 'found', 'complete')
    return (': the check until its event of the ended execution %s (its '
            'wake, the read from Mistral), then Heat storing the state %s '
            '(events read every %d ms)' % (
                describe_seconds(median_band(check)),
                describe_seconds(median_band(heat)), watch.POLL * 1000))


def markdown(data):
    if 'cases' not in data:
        return ('A result of the older in-process scenario: run the part '
                'again.')
    lines = [
        'Loopback cloud, heat-engine with 2 workers (%s); ours waits to be '
        'told, with a fallback poll every %d s. SUCCESS: Mistral\'s log '
        '(ms); COMPLETE: the first read of the CREATE_COMPLETE event from '
        'Heat\'s database (every %d ms; Heat keeps whole seconds). Engine '
        'threads in use: threads of the engine workers not waiting on a '
        'futex (/proc/<pid>/task/*/wchan, every %g s; idle pool threads wait '
        'on one), above the least count in the 2 s before the window, while '
        'at least half of the most executions that ran at once were running '
        '(from half a second into each such stretch).' % (
            data['engine'], data['fallback_period'],
            data['event_poll'] * 1000, data['thread_every']), '']
    for name in CASES:
        if name in data['cases']:
            lines += case_markdown(name, data['cases'][name]) + ['']
    lines += ['Targets of this part:', '',
              '| target | measured | verdict |', '|---|---|---|']
    lines += ['| %s | %s | %s |' % row for row in targets(data)]
    return '\n'.join(lines)


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


def told_row(name, case):
    band = median_band(latencies(case, OURS, 'told'))
    ours = of_kind(case, OURS)
    seen = describe_seconds(band) + _untold(ours)
    split = told_medians(case)
    if split:
        seen += ('; of which delivery to the engine %.2f s, ours after '
                 'the signal %.2f s' % split)
    verdict = ratios.verdict(band, TOLD_SECONDS)
    seen += ratios.to_decide(band, TOLD_SECONDS, rounds='told stacks')
    read = through_api(case)
    if read:
        user, term, one, how = read
        seen += '; as a user %s: %s' % (how, describe_seconds(user))
        seen += ratios.to_decide(user, TOLD_SECONDS, rounds='told stacks')
        seen += ('; heat-api returned it %s after the database\'s '
                 'COMPLETE, one read taking %s' % (
                     describe_seconds(term), describe_seconds(one)))
        seen += read_limit(case, one)
        verdict = worse(verdict, ratios.verdict(user, TOLD_SECONDS))
    return ('ExternalResource told, %s: median SUCCESS -> COMPLETE <= %.1f s'
            ' (Heat\'s database; through heat-api where measured)'
            % (case_title(name, case), TOLD_SECONDS), seen, verdict)


def read_limit(case, one):
    """The clause naming heat-api's own read as the limit, or ''.

    When one read through heat-api alone takes longer than the whole
    target (its interval's lower end over it), no type can be read
    COMPLETE within the target that way; in-tree's stacks, read the same
    way, show the term is the read's, not the type's.
    """
    if one is None or one['low'] is None or one['low'] <= TOLD_SECONDS:
        return ''
    theirs = returned_after(read_back(case, INTREE))
    return ('; one read alone is over %.1f s on this Heat (its engine '
            'call\'s reply wait, the same for any type: in-tree\'s stacks '
            'were returned %s after the database\'s COMPLETE), so through '
            'heat-api the target is beyond what this Heat allows'
            % (TOLD_SECONDS, describe_seconds(theirs)))


def read_back(case, kind, how=None):
    """Stacks of `kind` read COMPLETE through heat-api."""
    return [s for s in of_kind(case, kind, how)
            if s['status'] == 'COMPLETE' and
            s.get('user_latency') is not None]


def returned_after(stacks):
    """Band of how long after the database's COMPLETE heat-api had it."""
    return median_band([s['api_seen'] - s['complete'] for s in stacks])


def through_api(case):
    """Bands of ours' told stacks as read through heat-api, or None.

    (SUCCESS -> heat-api returned it COMPLETE, the database's COMPLETE ->
    that, the finishing read's own time, how it was read); None for
    results from before ApiReads.
    """
    told = read_back(case, OURS, 'told')
    if not told:
        return None
    return (median_band([s['user_latency'] for s in told]),
            returned_after(told),
            median_band([s['api_read'] for s in told]),
            read_how(told[0].get('api_from')))


def read_how(read_from):
    """How the told stacks were read through heat-api, as the row says."""
    if read_from == watch.READ_FROM:
        return ('reads it through heat-api (one read as Heat\'s database '
                'shows it COMPLETE)')
    return 'polling heat-api every %g s reads it' % watch.API_EVERY


def worse(*verdicts):
    """MISSED if any is, else undecided if any is, else met."""
    for verdict in (ratios.MISSED, ratios.UNDECIDED):
        if verdict in verdicts:
            return verdict
    return ratios.MET


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


def lost_row(case, period):
    ours = of_kind(case, OURS)
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


def _threads_row(data):
    title = ('ExternalResource: engine threads in use <= %.1fx in-tree\'s '
             '(window against window)' % THREADS_VS_IN_TREE)
    if data['engine'] == 'eventlet':
        return (title, 'eventlet engine: resources wait in green threads, '
                'which /proc does not show', 'not measured')
    ours, intree = thread_pairs(data)
    found = ratios.summary(ratios.per_round(ours, intree))
    if found is None:
        return (title, 'in-tree used no thread above the idle count in any '
                'window' if ours else 'no window of one type alone (side '
                'by side)', 'not measured')
    return (title, describe_pairs(found, THREADS_VS_IN_TREE),
            ratios.verdict(found, THREADS_VS_IN_TREE))


def targets(data, part=THREADS_PART):
    """The target rows of one ExternalResource part's data.

    The engine threads' target only of THREADS_PART: the other runs the
    two types side by side, never one alone.
    """
    if 'cases' not in data:
        return [('ExternalResource', 'a result of the older in-process '
                 'scenario: run the part again', 'not measured')]
    rows = []
    for name in CASES:
        case = data['cases'].get(name)
        if case is None:
            continue
        if name == LOST:
            rows.append(lost_row(case, data['fallback_period']))
            continue
        rows.append(told_row(name, case))
        target = calls_target(case['seconds'])
        found = calls_ratio(case)
        rows.append(('ExternalResource, %s: Mistral calls <= %gx in-tree\'s'
                     % (case_title(name, case), target),
                     describe_pairs(found, target),
                     ratios.verdict(found, target)))
    if part == THREADS_PART:
        rows.append(_threads_row(data))
    return rows
