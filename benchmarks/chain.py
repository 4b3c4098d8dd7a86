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
"""ResourceChain benchmarks.

1. A chain of N OS::Heat::None members, sequential and concurrent: create,
   update (changed resource_properties), delete and peak RSS, for our
   OS::Heat::ResourceChain and the in-tree type
   (Upstream::Heat::ResourceChain).
2. The floor: the same N members as a flat template with explicit depends_on
   (sequential: each on the one before; concurrent: dealt into LANES lanes
   between one start and one end node, the shape of our chain's nested
   stack at its default concurrency_limit, so that it is a floor).
3. One entry inserted at position 0 of a sequential chain of 50 whose entries
   alternate between two types, and one entry removed from the middle:
   members replaced and created, update time, for ours, in-tree and the
   floor (the same change made to a flat template: a new first resource
   that the old first one depends on; the middle resource removed and its
   successor depending on its predecessor).

Every round runs ours, in-tree and the floor back to back, in an order that
changes from round to round (round_order), and keeps each round's
figures: ratios are taken per round (benchmarks/ratios.py). warm_up()
runs one uncounted round first, so that the process's first-stack costs
fall on no kind.

Convergence pauses 1 s after starting each resource that depends on nothing
(heat.engine.stack.Stack.converge_stack), so N independent resources take
at least N seconds to start: a floor of N independent resources would
measure that pause, not the engine's work.
"""

import os

from oslo_config import cfg
import yaml

from benchmarks import harness
from benchmarks import round_order
from benchmarks.upstream_types import UPSTREAM_CHAIN
from heat_lifecycle_plugins import config
from heat_lifecycle_plugins.resources import chain_segments
from heat_lifecycle_plugins.resources import chain_shape

OURS = 'ours'
INTREE = 'in-tree'
FLOOR = 'floor'
OUR_CHAIN = 'OS::Heat::ResourceChain'
MEMBER = 'OS::Heat::None'
INSERT_TYPES = ('OS::Heat::None', 'OS::Heat::RandomString')
OPERATIONS = ('create', 'update', 'delete')
KINDS = (OURS, INTREE, FLOOR)
LANES = 10  # OS::Heat::ResourceChain's default concurrency_limit
EXAMPLE = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), 'examples', 'benchmarks.yaml')


def chain_template(chain_type, types, concurrent, value=None):
    props = {'resources': list(types), 'concurrent': concurrent}
    if value is not None:
        props['resource_properties'] = {'value': value}
    return {'heat_template_version': '2015-04-30',
            'resources': {'chain': {'type': chain_type,
                                    'properties': props}}}


def shape_limits():
    """ours' (largest flat chain, segment size) as the engine here has it.

    chain_shape.limits of the chain_segment_size option.
    """
    config.register_opts(cfg.CONF)  # once registered, a no-op
    return chain_shape.limits(cfg.CONF[config.GROUP.name].chain_segment_size)


def our_lanes(n, limit=LANES):
    """The lanes ours' concurrent chain of N members runs in.

    A segmented chain shares `limit` among its segments
    (chain_segments.segment_limit): 8 lanes at N=400 in 8 segments of 50;
    one nested stack (N <= 163) runs `limit`.
    """
    flat, size = shape_limits()
    segments = chain_segments.initial_segments(n, size, flat)
    if segments is None:
        return min(limit, n)
    count = len(set(segments))
    return min(n, chain_segments.segment_limit(count, limit) * count)


def floor_template(n, concurrent, value):
    """N flat members: in a line, or between two gates in lanes.

    As many lanes as ours' chain of N runs in (our_lanes).
    """
    names = [str(i) for i in range(n)]
    lanes = our_lanes(n) if concurrent else 1
    resources = {}
    for i, name in enumerate(names):
        member = {'type': MEMBER, 'properties': {'value': value}}
        if i >= lanes:
            member['depends_on'] = [names[i - lanes]]
        elif concurrent:
            member['depends_on'] = ['start']
        resources[name] = member
    if concurrent:
        resources['start'] = {'type': MEMBER}
        resources['end'] = {'type': MEMBER, 'depends_on': names[-lanes:]}
    return {'heat_template_version': '2015-04-30', 'resources': resources}


def example_template():
    with open(EXAMPLE) as f:
        return yaml.safe_load(f)


def stack_args(kind, n, concurrent, value):
    """(template, environment) of one lifecycle step.

    examples/benchmarks.yaml for both chains (the in-tree one through a
    resource_registry alias), the flat template for the floor.
    """
    if kind == FLOOR:
        return floor_template(n, concurrent, value), None
    env = {'parameters': {'member_types': ','.join([MEMBER] * n),
                          'concurrent': concurrent, 'member_value': value}}
    if kind == INTREE:
        env['resource_registry'] = {OUR_CHAIN: UPSTREAM_CHAIN}
    return example_template(), env


def timeout_for(n, concurrent, kind):
    # The in-tree concurrent chain starts its N leaves 1 s apart (create),
    # and replaces itself on update: allow for N s per pass, twice.
    if concurrent and kind == INTREE:
        return 120 + 3 * n
    return 120 + n


def lifecycle_round(bench, kind, n, concurrent, tag):
    """create, update, delete once; ({operation: seconds}, peak RSS grow)."""
    timeout = timeout_for(n, concurrent, kind)
    name = 'bench-%s-%s-%d-%s' % (kind.replace('-', ''),
                                  'c' if concurrent else 's', n, tag)
    bench.rss.reset()
    start_rss = bench.rss.peak
    times, cpu = {}, {}
    template, env = stack_args(kind, n, concurrent, 'v1')
    times['create'], ident = bench.create(template, name, timeout,
                                          environment=env)
    cpu['create'] = bench.last_cpu_share
    template, env = stack_args(kind, n, concurrent, 'v2')
    times['update'] = bench.update(ident, template, timeout,
                                   environment=env)
    cpu['update'] = bench.last_cpu_share
    times['delete'] = bench.delete(ident, timeout)
    cpu['delete'] = bench.last_cpu_share
    return times, cpu, bench.rss.peak, bench.rss.peak - start_rss


def warm_up(bench, log):
    """One uncounted round of every kind at N=10: the first-stack costs."""
    for kind in KINDS:
        lifecycle_round(bench, kind, 10, False, 'warm-up')
    log('  warm-up round done (not counted)')


def run_lifecycle(bench, sizes, rounds, concurrent_sizes, log):
    """Items 1 and 2: a row per (mode, N, kind), every round's figures."""
    rows = []
    plan = [(False, n) for n in sizes] + [(True, n) for n in concurrent_sizes]
    for concurrent, n in plan:
        mode = 'concurrent' if concurrent else 'sequential'
        found = {k: {'samples': {op: [] for op in OPERATIONS},
                     'cpu': {op: [] for op in OPERATIONS}, 'peaks': []}
                 for k in KINDS}
        for r in range(rounds):
            for kind in round_order.balanced_order(KINDS, r):
                times, shares, peak, grow = lifecycle_round(
                    bench, kind, n, concurrent, 'r%d' % r)
                for op in OPERATIONS:
                    found[kind]['samples'][op].append(times[op])
                    found[kind]['cpu'][op].append(shares[op])
                found[kind]['peaks'].append((peak, grow))
                log('  %-10s N=%-4d %-7s round %d: %s' % (
                    mode, n, kind, r, ', '.join(
                        '%s %.2fs' % (op, times[op]) for op in OPERATIONS)))
        rows += [lifecycle_row(mode, n, kind, found[kind]) for kind in KINDS]
    return rows


def lifecycle_row(mode, n, kind, found):
    """One (mode, N, kind) row: its rounds' figures and their medians."""
    samples = found['samples']
    return {
        'mode': mode, 'n': n, 'kind': kind,
        'rounds': len(samples['create']),
        'samples': samples,
        'median': {op: harness.median(samples[op]) for op in OPERATIONS},
        'cpu_share': {op: harness.median(found['cpu'][op])
                      for op in OPERATIONS},
        'peak_rss': max(p for p, _g in found['peaks']),
        'rss_growth': max(g for _p, g in found['peaks']),
    }


CHANGES = ('insert at 0', 'remove mid-list')


def changed_types(types, change):
    """(types, flat resource names) after `change`.

    The flat floor keeps every other resource's name.
    """
    names = [str(i) for i in range(len(types))]
    if change == CHANGES[0]:
        # The new first entry has the other type than the old first one,
        # so every later entry of an index-named chain changes type.
        return [INSERT_TYPES[1]] + types, ['new'] + names
    middle = len(types) // 2
    return (types[:middle] + types[middle + 1:],
            names[:middle] + names[middle + 1:])


def flat_template(types, names):
    """The floor of a change: resources `names` in a sequential flat stack."""
    resources = {}
    for i, (rtype, name) in enumerate(zip(types, names)):
        resources[name] = {'type': rtype}
        if i:
            resources[name]['depends_on'] = [names[i - 1]]
    return {'heat_template_version': '2015-04-30', 'resources': resources}


def change_templates(kind, n, change):
    types = [INSERT_TYPES[i % 2] for i in range(n)]
    new_types, new_names = changed_types(types, change)
    if kind == FLOOR:
        return (flat_template(types, [str(i) for i in range(n)]),
                flat_template(new_types, new_names))
    chain_type = OUR_CHAIN if kind == OURS else UPSTREAM_CHAIN
    return (chain_template(chain_type, types, False),
            chain_template(chain_type, new_types, False))


def member_ids(bench, kind, ident):
    """Physical ids of the members (the floor: of the stack's resources)."""
    if kind == FLOOR:
        return set(bench.engine.physical_ids(ident).values())
    return {r['physical_resource_id']
            for r in bench.engine.resources(ident, nested_depth=1)
            if r.get('parent_resource') == 'chain'}


def change_round(bench, kind, n, change, tag):
    before_t, after_t = change_templates(kind, n, change)
    expected = n + 1 if change == CHANGES[0] else n - 1
    timeout = 120 + 2 * n
    _t, ident = bench.create(before_t, 'bench-change-%s-%s' % (
        kind.replace('-', ''), tag), timeout)
    before = member_ids(bench, kind, ident)
    seconds = bench.update(ident, after_t, timeout)
    after = member_ids(bench, kind, ident)
    bench.delete(ident, timeout)
    if len(after) != expected:
        raise harness.BenchmarkError('%s has %d members after %s, not %d'
                                     % (kind, len(after), change, expected))
    return seconds, len(before - after), len(after - before)


def run_changes(bench, n, rounds, log):
    """Item 3: {change: {kind: {update, replaced, created, rounds}}}."""
    results = {}
    for change in CHANGES:
        samples = {OURS: [], INTREE: [], FLOOR: []}
        for r in range(rounds):
            for kind in round_order.balanced_order(KINDS, r):
                seconds, replaced, created = change_round(
                    bench, kind, n, change, 'r%d' % r)
                samples[kind].append((seconds, replaced, created))
                log('  %s of %d, %-7s round %d: update %.2fs, %d members '
                    'gone, %d created' % (change, n, kind, r, seconds,
                                          replaced, created))
        results[change] = {kind: {
            'samples': [s for s, _r, _c in rows],
            'update': harness.median([s for s, _r, _c in rows]),
            'replaced': harness.median([rp for _s, rp, _c in rows]),
            'created': harness.median([c for _s, _r, c in rows]),
            'rounds': len(rows),
        } for kind, rows in samples.items()}
    return results
