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
- part external-600: `long`, 600 s workflows, 10 stacks of each type side
  by side in a 10-minute window, the plan's windows one after another.

Per stack: SUCCESS (Mistral's log, to the millisecond) -> COMPLETE (the
CREATE_COMPLETE event first read from Heat's database), its Mistral calls
(the proxy, each call named by the stack's own workflow or execution;
Mistral's own count of reads beside it) and how it ended. Per window of
one type: the engine workers' threads in use. What the figures say, and
the targets: benchmarks/external_report.py.
"""

import os
import sys
import types

from oslo_config import cfg

from benchmarks import external_cases as cases
from benchmarks import external_cloud
from benchmarks import external_watch as watch
from heat_lifecycle_plugins import config

OURS, INTREE, KINDS = cases.OURS, cases.INTREE, cases.KINDS
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
        slack=120 + data['fallback_period'], windows=plan['windows'])
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
