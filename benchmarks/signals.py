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
"""Signal load on one stack: ours against the in-tree type.

    python -m benchmarks.signals [--signals N] [--results-dir DIR]

One in-process heat-engine worker (convergence, fake:// RPC, private
MariaDB) takes N signals (default 5000) to one deployment of a one-resource
stack, over many deployment actions of 250 signals each (249 progress, one
final), sent through the engine's resource_signal RPC by 4 senders at once
as heat-api would. Per kind it records how many were handled, where the
first one failed and with what, whether the stack could still be updated
and deleted afterwards, and the threads left in the stack's ThreadGroup.

Kinds: ours (OS::Heat::SoftwareDeployment), the in-tree type
(Upstream::Heat::SoftwareDeployment, benchmarks/upstream_types.py), then the
in-tree type again with the opt-in remedy forget_finished_threads applied
(Heat 25.0 on). The engine starts without the remedy, so this runs in a
process of its own (benchmarks/run.py starts it; benchmarks/harness.py's
engine applies the remedy for the other benchmarks).

Output, not expectations: results_dir/signals.md and signals.json.
"""

from concurrent import futures
import json
import os
import sys
import time

from benchmarks import harness  # selects Heat's runtime first
from benchmarks.upstream_types import UPSTREAM_DEPLOYMENT
from heat.common import exception
from heat_lifecycle_plugins import heat_internals

HERE = os.path.dirname(os.path.abspath(__file__))
OURS, INTREE, REMEDY = 'ours', 'in-tree', 'in-tree + forget_finished_threads'
TYPES = {OURS: 'OS::Heat::SoftwareDeployment', INTREE: UPSTREAM_DEPLOYMENT,
         REMEDY: UPSTREAM_DEPLOYMENT}
ACTION_SIGNALS = 250

SENDERS = 4
AFTERWARDS_TIMEOUT = 60


def lone_deployment(type_name, config_id, round_):
    return {'heat_template_version': '2016-04-08', 'resources': {
        'deployment': {'type': type_name, 'properties': {
            'config': config_id, 'server': 'a-server-elsewhere',
            'signal_transport': 'HEAT_SIGNAL',
            'input_values': {'round': round_}}}}}


def _error(exc):
    text = '%s: %s' % (type(exc).__name__, exc)
    return text.splitlines()[0][:160]


class Load(object):
    """N signals to one deployment of one kind, and what came of them."""

    def __init__(self, engine, kind, signals, log):
        self.engine = engine
        self.kind = kind
        self.type_name = TYPES[kind]
        self.signals = signals
        self.log = log
        self.result = {'kind': kind, 'sent': 0, 'handled': 0,
                       'first_failure': None, 'error': None,
                       'update_after': None, 'delete_after': None}

    def _deployment(self):
        """The deployment's row, or None while there is none.

        A deployment Heat replaces (one left FAILED) is deleted between
        reading the resource and reading its row: not there yet.
        """
        res = self.engine.resource(self.ident, 'deployment', with_attr=False)
        if not res['physical_resource_id']:
            return None
        try:
            return self.engine.client.show_software_deployment(
                self.engine.ctx, res['physical_resource_id'])
        except exception.NotFound:
            return None

    def _wait_in_progress(self, action, previous=None, timeout=120):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            sd = self._deployment()
            if sd and (sd['action'], sd['status']) == (
                    action, 'IN_PROGRESS') and sd['config_id'] != previous:
                return sd
            time.sleep(0.05)
        raise harness.BenchmarkError('%s: no %s delivery in %ss' % (
            self.kind, action, timeout))

    def _send(self, bodies):
        """Send from SENDERS threads; the index and error of the first fail."""
        def send(body):
            try:
                self.engine.signal(self.ident, 'deployment', body, sync=False)
            except Exception as exc:
                return exc
            return None
        with futures.ThreadPoolExecutor(SENDERS) as pool:
            errors = list(pool.map(send, bodies))
        failed = [i for i, e in enumerate(errors) if e is not None]
        self.result['sent'] += len(bodies)
        self.result['handled'] += len(bodies) - len(failed)
        return (failed[0], errors[failed[0]]) if failed else None

    def run(self):
        began = time.monotonic()
        eng = self.engine
        config = self.config = eng.client.create_software_config(
            eng.ctx, group='script', name='load', config='#!/bin/sh\n',
            outputs=[{'name': 'result'}])['id']
        self.template = lone_deployment(self.type_name, config, 0)
        self.ident = eng.create(self.template, wait=False)
        sd = self._wait_in_progress('CREATE')
        action = 0
        while self.result['sent'] < self.signals:
            if action:
                self.template = lone_deployment(self.type_name, config,
                                                action)
                try:
                    eng.update(self.ident, self.template, wait=False)
                except Exception as exc:
                    self._failed(self.result['sent'], 'stack update: %s'
                                 % _error(exc))
                    break
                sd = self._wait_in_progress('UPDATE', sd['config_id'])
            tag = 'a%d-' % action
            bodies = [{'deploy_status': 'IN_PROGRESS',
                       'deploy_status_reason': '%ss%d' % (tag, n)}
                      for n in range(ACTION_SIGNALS - 1)]
            bodies.append({'deploy_stdout': 'done', 'deploy_status_code': 0,
                           'result': tag})
            sent_before = self.result['sent']
            failure = self._send(bodies)
            if failure:
                index, exc = failure
                self._failed(sent_before + index + 1, _error(exc))
                break
            eng.wait(self.ident, 'UPDATE' if action else 'CREATE')
            action += 1
            if action % 4 == 0:
                self.log('  %-34s %5d signals handled' % (
                    self.kind, self.result['handled']))
        self.result['seconds'] = round(time.monotonic() - began, 1)
        self.result['actions'] = action
        self._afterwards()
        self.result['threads'] = self._threads()
        return self.result

    def _failed(self, number, error):
        self.result['first_failure'] = number
        self.result['error'] = error
        self.log('  %-34s signal %d failed: %s' % (self.kind, number, error))

    def _threads(self):
        group = self.engine.service.thread_group_mgr.groups.get(
            self.ident['stack_id'])
        return len(group.threads) if group is not None else 0

    def _outcome(self, action, start):
        try:
            start()
        except Exception as exc:
            return 'refused: %s' % _error(exc)
        try:
            stack = self.engine.wait(self.ident, action, expect=None,
                                     timeout=AFTERWARDS_TIMEOUT)
        except Exception as exc:
            return 'did not end: %s' % _error(exc)
        if stack is None:
            return 'DELETE_COMPLETE'
        return '%s_%s' % (stack['stack_action'], stack['stack_status'])

    def _afterwards(self):
        """Can the stack still be updated, then deleted?

        The update deploys the same config (a config that exists: the
        probe can succeed) without waiting for a signal.
        """
        eng = self.engine
        template = lone_deployment(self.type_name, self.config, -1)
        template['resources']['deployment']['properties'][
            'signal_transport'] = 'NO_SIGNAL'
        self.result['update_after'] = self._outcome(
            'UPDATE', lambda: eng.update(self.ident, template, wait=False))
        self.result['delete_after'] = self._outcome(
            'DELETE', lambda: eng.delete(self.ident, wait=False))


def markdown(results, version):
    lines = [
        'Heat %s; one engine worker; %d signals per action (249 progress, '
        'one final), %d senders at once.' % (
            '.'.join(map(str, version)), ACTION_SIGNALS, SENDERS), '',
        '| kind | sent | handled | first failure | error | stack update '
        'after | stack delete after | threads left | s |',
        '|---|---:|---:|---:|---|---|---|---:|---:|']
    for r in results:
        lines.append('| %s | %d | %d | %s | %s | %s | %s | %d | %.0f |' % (
            r['kind'], r['sent'], r['handled'],
            r['first_failure'] or '-', r['error'] or '-', r['update_after'],
            r['delete_after'], r['threads'], r['seconds']))
    return '\n'.join(lines)


def targets(measured):
    """The issue's target, from signals.json as run() writes it."""
    ours = [r for r in measured['results'] if r['kind'] == OURS]
    intree = [r for r in measured['results'] if r['kind'] == INTREE]
    if not ours:
        return [('ours: every signal to one stack handled', 'not run',
                 'not measured')]
    ours = ours[0]
    seen = 'ours %d of %d handled' % (ours['handled'], ours['sent'])
    if intree:
        seen += '; in-tree %s' % (
            'first failure at signal %d' % intree[0]['first_failure']
            if intree[0]['first_failure'] else
            '%d of %d handled' % (intree[0]['handled'], intree[0]['sent']))
    ok = ours['handled'] == ours['sent'] and not ours['first_failure']
    after = ours['update_after'] == 'UPDATE_COMPLETE'
    return [('ours: every one of %d signals to one stack handled (Heat %s)'
             % (ours['sent'], measured['heat']), seen,
             'met' if ok else 'MISSED'),
            ('ours: the stack updates after the signals',
             ours['update_after'], 'met' if after else 'MISSED')]


def run(argv=None):
    args = harness.parse_count_args(argv, 'benchmarks.signals', __doc__,
                                    '--signals', 5000, 'signals per kind',
                                    kinds=(OURS, INTREE, REMEDY))
    version = heat_internals.heat_version()
    results = []
    with harness.lone_engine(args.workdir, 'hlp-bench-signals-',
                             plugins=[harness.UPSTREAM_PLUGIN]) as engine:
        # The in-tree type's signal serializes the stack's stored
        # context; this engine has no Keystone to load its roles from.
        heat_internals.stored_context_without_keystone()
        for kind in args.kinds:
            if kind == REMEDY and not \
                    heat_internals.forget_finished_threads():
                harness.say('  %s: nothing to remedy on Heat %s' % (
                    kind, '.'.join(map(str, version))))
                continue
            harness.say('%s: %d signals' % (kind, args.signals))
            results.append(Load(engine, kind, args.signals, harness.say).run())
    text = markdown(results, version)
    os.makedirs(args.results_dir, exist_ok=True)
    with open(os.path.join(args.results_dir, 'signals.md'), 'w') as f:
        f.write(text + '\n')
    with open(os.path.join(args.results_dir, 'signals.json'), 'w') as f:
        json.dump({'heat': '.'.join(map(str, version)), 'results': results},
                  f, indent=2)
    harness.say(text)
    return 0


if __name__ == '__main__':
    sys.exit(harness.main(run))
