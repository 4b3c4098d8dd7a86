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
- t1: the first moment a new event of the deployment resource is listed by
  `GET /stacks/<id>/events` (polled every 100 ms as the demo user).

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
from benchmarks import harness
from benchmarks import ratios
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
ROUNDS = 5


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


def measure_once(cloud, kind, workdir):
    hc = cloud.heat_client()
    with stacks.StackDriver(hc, workdir, prefix='bench-feedback-%s'
                            % kind.replace('-', ''), timeout=180) as driver:
        stack_id = driver.create(template(kind), wait=False)
        agent = driver.start_agent(stack_id, 'server')
        first, t0 = first_feedback(hc, stack_id, agent, kind)
        driver.wait(stack_id, 'CREATE')
        driver.delete(stack_id)
    seen_at, event = first
    return {'seconds': seen_at - t0,
            'event': '%s "%s"' % (event.resource_status, re.sub(
                r'[0-9a-f-]{36} ', '',
                event.resource_status_reason or '')[:70])}


def first_feedback(hc, stack_id, agent, kind):
    """((seen at, first new event), t0) of the deployment."""
    t0 = first = None
    seen_before = set()
    next_events = 0.0
    deadline = time.time() + 180
    while first is None:
        if time.time() > deadline:
            raise harness.BenchmarkError(
                '%s deployment: no feedback in 180 s\n%s' % (
                    kind, agent.log_tail(3000)))
        if t0 is None:
            t0 = handed_to_agent(agent.heat_config)
        if time.time() >= next_events:
            next_events = time.time() + 0.1
            events = deployment_events(hc, stack_id)
            now = time.time()
            if t0 is None:
                seen_before.update(e.id for e in events)
            else:
                new = [e for e in events if e.id not in seen_before]
                if new:
                    first = (now, new[0])
        time.sleep(0.02)
    return first, t0


def run(bench, log, quick=False):
    """bench (the in-process engine) is not used: this needs the real API."""
    rounds = 1 if quick else ROUNDS
    workdir = os.path.join(bench.workdir, 'cloud')
    samples = {OURS: [], INTREE: []}
    with Cloud(workdir, with_mistral=False,
               heat_plugins=[harness.UPSTREAM_PLUGIN],
               keystone_options=external_cloud.KEYSTONE_AS_DEPLOYED) as cloud:
        for r in range(rounds):
            for kind in samples:
                s = measure_once(cloud, kind, workdir)
                samples[kind].append(s)
                log('  %-7s round %d: first feedback %.2fs after the agent '
                    'started (%s)' % (kind, r, s['seconds'], s['event']))
    found = {}
    for kind, rows in samples.items():
        seconds = [s['seconds'] for s in rows]
        found[kind] = {'seconds': harness.median(seconds), 'samples': seconds,
                       'event': rows[0]['event'], 'rounds': len(rows)}
    return found


def band(fb, kind):
    """ratios.summary of the kind's rounds.

    A result from before 'samples' gives its median alone: one round.
    """
    return ratios.summary(fb[kind].get('samples') or [fb[kind]['seconds']])


def markdown(fb):
    lines = ['Deployment script: `sleep %d`; real agent on a DeployedServer, '
             'events read through heat-api.' % SCRIPT_SECONDS, '',
             '| kind | first feedback after the agent starts (s, median) '
             '| rounds (s) | first event seen |', '|---|---:|---|---|']
    for kind in (OURS, INTREE):
        lines.append('| %s | %.2f | %s | %s |' % (
            kind, fb[kind]['seconds'], ', '.join(
                '%.2f' % s for s in fb[kind].get('samples', ())) or 'n/a',
            fb[kind]['event']))
    return '\n'.join(lines)


def targets(fb):
    """Ours' median under TARGET_SECONDS, decided on its rounds' band."""
    ours = band(fb, OURS)
    seen = 'ours %s, in-tree %.2f s%s' % (
        ratios.describe(ours, unit=' s'), fb[INTREE]['seconds'],
        ratios.to_decide(ours, TARGET_SECONDS))
    return [('first feedback < %.0f s after the agent starts'
             % TARGET_SECONDS, seen, ratios.verdict(ours, TARGET_SECONDS))]
