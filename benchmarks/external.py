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
"""ExternalResource told by Mistral, against Heat's in-tree type (issue 34).

On the loopback cloud (external_cloud: real Keystone, Mistral,
heat-engine with 2 workers, heat-api, heat-api-cfn), never the in-process
engine: ours is told through Mistral's webhook to heat-api-cfn, which a
single in-process worker would flatter. Ours is OS::Mistral::
ExternalResource, in-tree Upstream::Mistral::ExternalResource, in the same
run (external_cases says how the windows run):

- part external-short: `short`, 2 s workflows, one stack at a time, in
  rounds; `batch`, 50 stacks each waiting on a 60 s workflow at once (one
  window per type per round); `lost`, both types side by side while
  heat-api-cfn is down as the workflows end (ours' notifications lost);
- part external-600: `long`, 600 s workflows, 3 stacks of each type side
  by side (one 10-minute window: the part fits 15 minutes).

Per stack: SUCCESS (Mistral's log, to the millisecond) -> COMPLETE (the
CREATE_COMPLETE event first read from Heat's database), its Mistral calls
(the proxy, each call named by the stack's own workflow or execution;
Mistral's own count of reads beside it) and how it ended. Per window of
one type: the engine workers' threads in use. Medians come with a ~95 %
band (order statistics); ratios are per pair of stacks or windows
(benchmarks/ratios.py). The targets are in benchmarks/targets.py.
"""

import collections
import math
import os
import statistics
import sys
import types

from oslo_config import cfg

from benchmarks import external_cases as cases
from benchmarks import external_cloud
from benchmarks import external_watch as watch
from benchmarks import ratios
from benchmarks import targets as part_targets
from heat_lifecycle_plugins import config

OURS, INTREE, KINDS = cases.OURS, cases.INTREE, cases.KINDS
CASES = ('short', 'batch', 'lost', 'long')
LOST = 'lost'


def _cloud(ctx):
    fallback = ctx.plan.get('fallback')
    return external_cloud.shared(os.path.join(
        os.path.dirname(ctx.workdir), 'external-cloud-%s' % (
            fallback or 'default')), fallback, ctx.log)


def _release(part):
    """Stop the shared cloud unless a later part of this run needs it.

    The parts named after --part on the command line (part_run), else
    none; at exit it is stopped anyway.
    """
    args = sys.argv[1:]
    named = []
    if '--part' in args:
        for word in args[args.index('--part') + 1:]:
            if word.startswith('--'):
                break
            named.append(word)
    later = named[named.index(part) + 1:] if part in named else []
    if not any(name.startswith('external') for name in later):
        external_cloud.stop_shared()


def _base(plan):
    from heat_lifecycle_plugins import heat_internals
    opts = cfg.CONF[config.GROUP.name]
    return {'engine': 'eventlet' if heat_internals.engine_uses_eventlet()
            else 'threads',
            'fallback_period': plan.get('fallback') or
            opts.mistral_notified_poll_interval,
            'poll_interval': opts.mistral_poll_interval,
            'event_poll': watch.POLL, 'thread_every': watch.THREAD_EVERY,
            'cases': {}}


def _started(ctx):
    """The part's cloud and its result so far, after any warm-up."""
    env = _cloud(ctx)
    data = _base(ctx.plan)
    if ctx.plan.get('warm_up'):
        cases.warm_up(env, ctx.log)
    return env, data


def run_short(ctx):
    """Part external-short: short, batch and lost."""
    plan, log = ctx.plan, ctx.log
    env, data = _started(ctx)
    found = data['cases']
    found['short'] = cases.in_rounds(env, 'short', plan['short_rounds'], 1,
                                     plan['short_seconds'], log)
    found['batch'] = cases.in_rounds(env, 'batch', plan['batch_rounds'],
                                     plan['batch_stacks'],
                                     plan['batch_seconds'], log)
    if plan.get('lost_stacks'):
        found[LOST] = cases.side_by_side(env, LOST, plan['lost_stacks'],
                                         plan['lost_seconds'], log,
                                         lose=True)
    _release('external-short')
    return data


def run_long(ctx):
    """Part external-600: long workflows side by side."""
    plan, log = ctx.plan, ctx.log
    env, data = _started(ctx)
    data['cases']['long'] = cases.side_by_side(
        env, 'long', plan['stacks'], plan['seconds'], log,
        slack=120 + data['fallback_period'])
    _release('external-600')
    return data


def run(bench, rounds, workdir, log, long_seconds=60):
    """The single run's `--only external` (run.py): short and one batch.

    bench (the in-process engine) is not used.
    """
    plan = {'short_rounds': rounds, 'short_seconds': 2.0, 'batch_rounds': 1,
            'batch_stacks': 1, 'batch_seconds': long_seconds}
    try:
        return run_short(types.SimpleNamespace(
            plan=plan, workdir=os.path.join(workdir, 'external'), log=log))
    finally:
        external_cloud.stop_shared()


# -- what the figures say --------------------------------------------------

def lower_rank(n, alpha=0.05):
    """0-based rank of the lower end of a median's ~(1 - alpha) band.

    The order statistics k and n-1-k hold the median with probability
    1 - 2 P(Bin(n, 1/2) <= k); 0 (the whole range) when no k reaches it.
    """
    k, below = 0, 0.0
    while True:
        below += math.comb(n, k) / 2.0 ** n
        if 2 * below > alpha:
            return max(0, k - 1) if k else 0
        k += 1


def median_band(values):
    """{'median', 'low', 'high', 'rounds', 'min', 'max'} or None.

    low-high: the ~95 % band of the median (ratios.verdict decides on it);
    rounds: how many values.
    """
    found = sorted(v for v in values if v is not None)
    if not found:
        return None
    k = lower_rank(len(found))
    return {'median': statistics.median(found), 'low': found[k],
            'high': found[len(found) - 1 - k], 'rounds': len(found),
            'min': found[0], 'max': found[-1]}


def describe_seconds(band):
    if band is None:
        return 'n/a'
    return '%.3f s (%.3f-%.3f, %d stack%s; all %.3f-%.3f)' % (
        band['median'], band['low'], band['high'], band['rounds'],
        '' if band['rounds'] == 1 else 's', band['min'], band['max'])


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
    return ratios.describe(summary, target).replace('round', 'pair')


# -- report ------------------------------------------------------------------

def case_title(name, case):
    return {
        'short': '%g s workflows, one stack at a time, %d round(s)',
        'batch': '%d stacks at once, %g s workflows, %d round(s)',
        'lost': 'notification lost: heat-api-cfn down while %g s workflows '
                'end, %d stack(s) of each type side by side',
        'long': '%g s workflows, %d stack(s) of each type side by side',
    }[name] % {
        'short': (case['seconds'], case['rounds']),
        'batch': (case['stacks'], case['seconds'], case['rounds']),
        'lost': (case['seconds'], case['stacks']),
        'long': (case['seconds'], case['stacks']),
    }[name]


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
            if len(w['kinds']) == 2 and w['threads']]
    if both and both[0]['median'] is not None:
        lines += ['', 'Both types side by side: %g engine threads in use '
                  '(peak %g) for %d resources in progress.' % (
                      both[0]['median'], both[0]['peak'],
                      case['windows'][0]['stacks'])]
    lines += told_split(case)
    lines += ['', 'Mistral calls, ours / in-tree per pair of stacks: %s.'
              % describe_pairs(calls_ratio(case))]
    if case['stacks'] > 1:
        lines[-1] += ' Executions running at once, at most: %s.' % ', '.join(
            '%s %s' % ('+'.join(w['kinds']), w.get('at_once'))
            for w in case['windows'])
    return lines


def _told(case):
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
    return _spans(_told(case), 'success', 'signalled', 'complete')


def _delivery_parts(case):
    """([SUCCESS -> at heat-api-cfn], [at heat-api-cfn -> SIGNAL]).

    Of ours' told stacks whose webhook heat-api-cfn's log shows (results
    from 2026-11-26 on); empty lists for older ones.
    """
    return _spans([s for s in _told(case) if s.get('arrived')],
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
            'execution, Heat storing the state).' % (
                len(delivery), describe_seconds(median_band(delivery)),
                inside, describe_seconds(median_band(ours)))]


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


def targets(data):
    return part_targets.external_targets(data)
