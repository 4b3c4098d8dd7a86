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
"""A long-lived stack: N actions on one stack, one engine worker.

    python -m benchmarks.long_lived [--actions N] [--results-dir DIR]

One in-process heat-engine worker (convergence, fake:// RPC, private
MariaDB, the default settings) puts one stack of our SoftwareComponent and
SoftwareDeployment through N actions in turn: a stack update that
re-applies the deployment (a new input value), a day-two request (BACKUP,
a new action_request) and a stack check. Each deployment action ends with
the signals the agent sends (one progress, one final) through the engine's
resource_signal RPC. It records the threads left in the stack's thread
group as it goes, the first action that failed and with what, and whether
the stack still takes an update and a delete afterwards.

Run as installed (forget_finished_threads off), then with the remedy on
(Heat 25.0 on), in one process: the remedy cannot be undone.
Output, not expectations: results_dir/long-lived.md and long-lived.json.
"""

import json
import os
import sys
import time

from benchmarks import harness  # selects Heat's runtime first
from benchmarks import signals
from heat_lifecycle_plugins import heat_internals

HERE = os.path.dirname(os.path.abspath(__file__))
OFF, ON = 'as installed', 'forget_finished_threads on'
KINDS = ('update', 'request', 'check')
SAMPLE_EVERY = 25
TEMPLATE = {
    'heat_template_version': '2016-10-14',
    'parameters': {'round': {'type': 'number'},
                   'request': {'type': 'string', 'default': ''}},
    'resources': {
        'component': {'type': 'OS::Heat::SoftwareComponent', 'properties': {
            'configs': [
                {'tool': 'script', 'actions': ['CREATE', 'UPDATE'],
                 'config': 'true'},
                {'tool': 'script', 'actions': ['BACKUP'], 'config': 'true'}],
            'outputs': [{'name': 'result'}]}},
        'deployment': {'type': 'OS::Heat::SoftwareDeployment', 'properties': {
            'config': {'get_resource': 'component'},
            'server': 'a-server-elsewhere',
            'signal_transport': 'HEAT_SIGNAL',
            'input_values': {'round': {'get_param': 'round'}},
            'extended_action': 'BACKUP',
            'action_request': {'get_param': 'request'}}},
    },
}


class LongLived(object):
    """One stack put through `actions` actions; what came of it."""

    def __init__(self, engine, kind, actions, log):
        self.engine, self.kind, self.actions = engine, kind, actions
        self.log = log
        self.params = {'round': 0, 'request': ''}
        self.result = {'kind': kind, 'actions': 0, 'first_failure': None,
                       'error': None, 'threads': [], 'update_after': None,
                       'delete_after': None}
        self.load = self.load_config_id = None

    def _signal_done(self, previous):
        """Wait for the deployment's new action, then signal it to the end."""
        sd = self.load._wait_in_progress_any(previous)
        for body in ({'deploy_status': 'IN_PROGRESS',
                      'deploy_status_reason': 'working'},
                     {'deploy_stdout': 'done', 'deploy_status_code': 0,
                      'result': str(self.params['round'])}):
            self.engine.signal(self.ident, 'deployment', body, sync=False)
        return sd['config_id']

    def _one(self, number, config_id):
        eng, kind = self.engine, KINDS[number % len(KINDS)]
        if kind == 'check':
            eng.check(self.ident)
            return config_id
        if kind == 'update':
            self.params['round'] = number
        else:
            self.params['request'] = 'r%d' % number
        eng.update(self.ident, TEMPLATE, params=dict(self.params),
                   wait=False)
        config_id = self._signal_done(config_id)
        eng.wait(self.ident, 'UPDATE')
        return config_id

    def run(self):
        began = time.monotonic()
        eng = self.engine
        self.ident = eng.create(TEMPLATE, params=dict(self.params),
                                wait=False)
        self.load = _Deployment(eng, self.ident)
        config_id = self.load_config_id = self._signal_done(None)
        eng.wait(self.ident, 'CREATE')
        for number in range(1, self.actions + 1):
            try:
                config_id = self._one(number, config_id)
            except Exception as exc:
                self.result['first_failure'] = number
                self.result['error'] = '%s: %s' % (
                    KINDS[number % len(KINDS)], signals._error(exc))
                self.log('  %s: action %d failed: %s' % (
                    self.kind, number, self.result['error']))
                break
            self.result['actions'] = number
            self.load_config_id = config_id
            if number % SAMPLE_EVERY == 0:
                threads = self._threads()
                self.result['threads'].append([number, threads])
                self.log('  %-28s %4d actions, %4d threads' % (
                    self.kind, number, threads))
        self.result['seconds'] = round(time.monotonic() - began, 1)
        self.result['threads_left'] = self._threads()
        self._afterwards()
        return self.result

    def _threads(self):
        group = self.engine.service.thread_group_mgr.groups.get(
            self.ident['stack_id'])
        return len(group.threads) if group is not None else 0

    def _afterwards(self):
        """Does the stack still take an update (signalled) and a delete?"""
        try:
            self._one(len(KINDS) * self.actions, self.load_config_id)
            self.result['update_after'] = 'UPDATE_COMPLETE'
        except Exception as exc:
            self.result['update_after'] = 'failed: %s' % signals._error(exc)
        self.result['delete_after'] = signals.Load._outcome(
            self, 'DELETE', lambda: self.engine.delete(self.ident,
                                                       wait=False))


class _Deployment(signals.Load):
    """signals.Load's reading of the deployment, for any next action."""

    def __init__(self, engine, ident):
        self.engine, self.ident, self.kind = engine, ident, 'deployment'

    def _wait_in_progress_any(self, previous, timeout=120):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            sd = self._deployment()
            if sd and sd['status'] == 'IN_PROGRESS' and \
                    sd['config_id'] != previous:
                return sd
            time.sleep(0.02)
        raise harness.BenchmarkError('no new deployment action in %ss'
                                     % timeout)


def markdown(results, version, actions):
    lines = [
        'Heat %s; one engine worker; %d actions asked (update, day-two '
        'request, check in turn; each deployment action signalled '
        'progress + final).' % ('.'.join(map(str, version)), actions), '',
        '| settings | actions done | first failure | error | threads left '
        '| update after | delete after | s |',
        '|---|---:|---:|---|---:|---|---|---:|']
    for r in results:
        lines.append('| %s | %d | %s | %s | %d | %s | %s | %.0f |' % (
            r['kind'], r['actions'], r['first_failure'] or '-',
            r['error'] or '-', r['threads_left'], r['update_after'],
            r['delete_after'], r['seconds']))
    lines += ['', 'Threads in the stack\'s thread group, every %d actions:'
              % SAMPLE_EVERY, '']
    for r in results:
        lines.append('- %s: %s' % (r['kind'], ', '.join(
            '%d: %d' % (n, t) for n, t in r['threads']) or 'none sampled'))
    return '\n'.join(lines)


def targets(measured):
    """The issue's target, from long-lived.json as run() writes it."""
    by_kind = {r['kind']: r for r in measured['results']}
    installed = by_kind.get(OFF)
    if installed is None:
        return [('a long-lived stack keeps taking actions', 'not run',
                 'not measured')]
    asked = measured['actions']
    seen = ('as installed: %s' % (
        'failed at action %d (%s)' % (installed['first_failure'],
                                      installed['error'])
        if installed['first_failure'] else
        '%d of %d' % (installed['actions'], asked)))
    remedy = by_kind.get(ON)
    if remedy:
        seen += '; forget_finished_threads on: %d of %d, %d threads left' % (
            remedy['actions'], asked, remedy['threads_left'])
    met = installed['actions'] == asked and not installed['first_failure']
    if not met and remedy and remedy['actions'] == asked and \
            not remedy['first_failure']:
        # Only the setting differs: the failure is Heat keeping threads.
        seen += ('; the remedy alone made the difference: Heat keeps '
                 'finished threads, the remedy is opt-in')
    return [('a stack keeps taking signals and actions through %d actions '
             'with the default settings (Heat %s)' % (asked,
                                                      measured['heat']),
             seen, 'met' if met else 'MISSED')]


def run(argv=None):
    args = harness.parse_count_args(argv, 'benchmarks.long_lived', __doc__,
                                    '--actions', 500, 'actions per run')
    version = heat_internals.heat_version()
    results = []
    with harness.lone_engine(args.workdir, 'hlp-bench-long-') as engine:
        for kind in (OFF, ON):
            if kind == ON and not heat_internals.forget_finished_threads():
                harness.say('  %s: nothing to remedy on Heat %s' % (
                    kind, '.'.join(map(str, version))))
                continue
            harness.say('%s: %d actions' % (kind, args.actions))
            results.append(LongLived(engine, kind, args.actions,
                                     harness.say).run())
    text = markdown(results, version, args.actions)
    os.makedirs(args.results_dir, exist_ok=True)
    with open(os.path.join(args.results_dir, 'long-lived.md'), 'w') as f:
        f.write(text + '\n')
    with open(os.path.join(args.results_dir, 'long-lived.json'), 'w') as f:
        json.dump({'heat': '.'.join(map(str, version)),
                   'actions': args.actions, 'results': results}, f,
                  indent=2)
    harness.say(text)
    return 0


if __name__ == '__main__':
    sys.exit(harness.main(run))
