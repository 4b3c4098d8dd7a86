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
"""Time to first feedback of a long deployment.

Runs on the end-to-end loopback cloud (heat_lifecycle_fixtures.cloud:
MariaDB, RabbitMQ, Keystone, heat-engine, heat-api, heat-api-cfn as separate
processes) because the path measured is the real one: a DeployedServer
whose os-collect-config runs heat-lifecycle-agent, which signals through
heat-api with HEAT_SIGNAL; the user reads events through heat-api with
python-heatclient.

The deployment's script sleeps SCRIPT_SECONDS. Measured, per kind:

- t0, "the agent starts the deployment": the moment the server's
  os-refresh-config step (heat_lifecycle_fixtures/refresh_config.py)
  writes the deployments it collected into the heat-config file and hands
  them to the agent (the file's modification time, read by polling it
  every 20 ms);
- "in the database": the first moment a new event of the deployment
  resource is in Heat's database (external_watch.HeatEvents, a read every
  40 ms from this process, outside every Heat process);
- "one read": then `GET /stacks/<id>/events` of the resource as the demo
  user (python-heatclient: a stack lookup and the list), the first read
  that lists the event, timed. First feedback is the sum: when a user
  who reads as the event lands has it.

The event is not watched through heat-api: on 2025.1 every engine call
of heat-api costs a multiple of 0.5 s (oslo.messaging 16.1.2's
ReplyWaiters.get looks for the reply every 0.5 s), so a read takes
about a second and a poll through it would add up to one more.

Ours (OS::Heat::SoftwareDeployment) signals IN_PROGRESS when the hook
starts, so its first event is SIGNAL_IN_PROGRESS; the in-tree type
(Upstream::Heat::SoftwareDeployment, registered in the engine's plugin dir)
gets no progress, so its first event is the completion signal.
"""

import json
import os
import re
import time

from benchmarks import external_cloud
from benchmarks import external_watch
from benchmarks import harness
from benchmarks import ratios
from benchmarks import round_order
from benchmarks.upstream_types import UPSTREAM_DEPLOYMENT
from heat_lifecycle_fixtures.cloud import Cloud
from heat_lifecycle_fixtures import hot
from heat_lifecycle_fixtures import stacks

OURS = 'ours'
INTREE = 'in-tree'
TYPES = {OURS: 'OS::Heat::SoftwareDeployment',
         INTREE: UPSTREAM_DEPLOYMENT}
SCRIPT_SECONDS = 10
TARGET_SECONDS = 2.0
ROUNDS = 10  # an even number: each kind leads half of them


def template(kind):
    """A deployment (of type TYPES[kind]) of a SCRIPT_SECONDS sleep."""
    return hot.template(hot.with_server(
        config=hot.script_config('#!/bin/sh\nsleep "$seconds"\n',
                                 inputs=['seconds']),
        deployment=hot.deployment('config', kind=TYPES[kind], input_values={
            'seconds': SCRIPT_SECONDS})))


def handed_to_agent(path):
    """mtime of the heat-config file once it lists a deployment, else None."""
    try:
        stat = os.stat(path)
        with open(path) as f:
            deployments = json.load(f)
    except (OSError, ValueError):
        return None
    return stat.st_mtime if deployments else None


def deployment_events(hc, stack_id):
    from heatclient import exc
    try:
        return hc.events.list(stack_id, resource_name='deployment')
    except exc.HTTPNotFound:  # no event of the resource yet
        return []


def measure_once(cloud, events, kind, workdir):
    hc = cloud.heat_client()
    with stacks.StackDriver(hc, workdir, prefix='bench-feedback-%s'
                            % kind.replace('-', ''), timeout=180) as driver:
        stack_id = driver.create(template(kind), wait=False)
        agent = driver.start_agent(stack_id, 'server')
        t0, known, event = first_event(events, stack_id, agent, kind)
        read = user_read(hc, stack_id, known)
        driver.wait(stack_id, 'CREATE')
        driver.delete(stack_id)
    return sample(t0, event, read)


def sample(t0, event, read):
    """A round's figures, from t0, the first event and the read."""
    in_db = event.seen - t0
    return {'seconds': in_db + read, 'in_db': in_db, 'read': read,
            'event': '%s_%s "%s"' % (event.action, event.status, re.sub(
                r'[0-9a-f-]{36} ', '', event.reason)[:70])}


def first_event(events, stack_id, agent, kind):
    """(t0, events known at t0, first new event) of the deployment."""
    t0 = None
    deadline = time.time() + 180
    while True:
        if time.time() > deadline:
            raise harness.BenchmarkError(
                '%s deployment: no feedback in 180 s (event reader: %s)\n%s'
                % (kind, events.error, agent.log_tail(3000)))
        found = events.of(stack_id, 'deployment')
        if t0 is None:
            t0 = handed_to_agent(agent.heat_config)
            known = len(found)
        elif len(found) > known:
            return t0, known, found[known]
        time.sleep(0.02)


def user_read(hc, stack_id, known):
    """Seconds of the first read through heat-api that lists the event."""
    deadline = time.time() + 60
    while time.time() < deadline:
        start = time.time()
        if len(deployment_events(hc, stack_id)) > known:
            return time.time() - start
    raise harness.BenchmarkError('the event in the database was not listed '
                                 'by heat-api in 60 s')


def run(bench, log, quick=False):
    """bench (the in-process engine) is not used: this needs the real API."""
    rounds = 1 if quick else ROUNDS
    workdir = os.path.join(bench.workdir, 'cloud')
    samples = {OURS: [], INTREE: []}
    with Cloud(workdir, with_mistral=False,
               heat_plugins=[harness.UPSTREAM_PLUGIN],
               keystone_options=external_cloud.KEYSTONE_AS_DEPLOYED) as cloud:
        events = external_watch.HeatEvents(
            cloud.heat.settings['database']['connection']).start()
        try:
            for r in range(rounds):
                for kind in round_order.balanced_order((OURS, INTREE), r):
                    s = measure_once(cloud, events, kind, workdir)
                    samples[kind].append(s)
                    log('  %-7s round %d: first feedback %.2fs after the '
                        'agent started (in the database %.2fs, one read '
                        '%.2fs; %s)' % (kind, r, s['seconds'], s['in_db'],
                                        s['read'], s['event']))
        finally:
            events.stop()
    return {kind: summarised(rows) for kind, rows in samples.items()}


def summarised(rows):
    """A kind's result: the rounds' sums and their two terms."""
    seconds = [s['seconds'] for s in rows]
    return {'seconds': harness.median(seconds), 'samples': seconds,
            'in_db': [s['in_db'] for s in rows],
            'read': [s['read'] for s in rows],
            'event': rows[0]['event'], 'rounds': len(rows)}


def band(fb, kind):
    """ratios.summary of the kind's rounds.

    A result from before 'samples' gives its median alone: one round.
    """
    return ratios.summary(fb[kind].get('samples') or [fb[kind]['seconds']])


def markdown(fb):
    lines = ['Deployment script: `sleep %d`; real agent on a DeployedServer; '
             'the first new event of the deployment in Heat\'s database, '
             'then one read of it through heat-api.' % SCRIPT_SECONDS, '',
             '| kind | first feedback after the agent starts (s, median) '
             '| rounds (s) | in the database (s, median) '
             '| one read (s, median) | first event seen |',
             '|---|---:|---|---:|---:|---|']
    for kind in (OURS, INTREE):
        lines.append('| %s | %.2f | %s | %s | %s | %s |' % (
            kind, fb[kind]['seconds'], ', '.join(
                '%.2f' % s for s in fb[kind].get('samples', ())) or 'n/a',
            _median_of(fb[kind], 'in_db'), _median_of(fb[kind], 'read'),
            fb[kind]['event']))
    return '\n'.join(lines)


def _median_of(row, term):
    """A term's median, 'n/a' in a result from before the terms."""
    values = row.get(term)
    return '%.2f' % harness.median(values) if values else 'n/a'


def targets(fb):
    """Ours' median under TARGET_SECONDS, decided on its rounds' band."""
    ours = band(fb, OURS)
    seen = 'ours %s, in-tree %.2f s%s' % (
        ratios.describe(ours, unit=' s'), fb[INTREE]['seconds'],
        ratios.to_decide(ours, TARGET_SECONDS))
    return [('first feedback < %.0f s after the agent starts'
             % TARGET_SECONDS, seen, ratios.verdict(ours, TARGET_SECONDS))]
