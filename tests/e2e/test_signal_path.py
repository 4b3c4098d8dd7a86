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
"""The deployment signal path end to end, as a user sees it.

Through heat-api and heat-api-cfn with a real Keystone whose signed requests
live 1 minute ([credential] auth_ttl = 1, conftest.py): a CFN_SIGNAL tool
that runs longer completes; each deadline cause produced for real with its
exact reason in `stack show` and the events; bad signals leave events,
never an HTTP 5xx, and never overwrite a final state.
"""

import re
import time
from urllib import parse

import requests

from heat_lifecycle_fixtures import hot

# The tool works for $seconds s, then writes its `result` output.
SCRIPT = """#!/bin/sh
echo "working for $seconds s"
sleep "$seconds"
printf 'done after %s s' "$seconds" > "$heat_outputs_path.result"
"""

ERROR = 'Error: resources.deployment: '
UTC = r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ'


def template(transport='HEAT_SIGNAL', **deadlines):
    return hot.template(hot.with_server(
        config=hot.script_config(SCRIPT, ['seconds'], ['result']),
        deployment=hot.deployment('config', transport, input_values=(
            hot.from_params('seconds')), **deadlines)),
        hot.params(seconds='number'),
        hot.attr_outputs('deployment', 'result'))


def signal_events(driver, stack_id):
    return [e.resource_status_reason for e in driver.events(stack_id)
            if e.resource_name == 'deployment' and
            e.resource_status.startswith('SIGNAL_')]


def failed_event(driver, stack_id):
    [event] = [e for e in driver.events(stack_id)
               if e.resource_name == 'deployment' and
               e.resource_status == 'CREATE_FAILED']
    return event.resource_status_reason


def deployment(heat, stack_id):
    sd_id = heat.resources.get(stack_id, 'deployment').physical_resource_id
    return heat.software_deployments.get(sd_id)


def wait_for(predicate, timeout, what):
    """predicate()'s first true answer; an error counts as no answer."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            found = predicate()
        except Exception as exc:
            found, error = None, exc
        else:
            error = None
        if found:
            return found
        assert time.monotonic() < deadline, 'no %s in %ss (%s)' % (
            what, timeout, error)
        time.sleep(1)


def test_cfn_signal_outlives_keystone_auth_ttl_a_timestamped_one_not(
        driver, heat):
    """One wait past Keystone's minute for the test and its control.

    The control proves that this cloud enforces auth_ttl; without it, the
    test could pass on a Keystone that ignores auth_ttl. Heat's in-tree
    StructuredDeployment signs its CFN_SIGNAL URL with a Timestamp:
    accepted at once, refused after Keystone's minute.
    """
    control = timestamped_urls_signalled_once(driver, heat)
    began = time.monotonic()
    stack_id = driver.create(
        template('CFN_SIGNAL'), {'seconds': 90}, servers=['server'],
        agent_options={'hook_timeout': 150, 'heartbeat_interval': 20})
    took = time.monotonic() - began
    assert took > 90
    assert driver.outputs(stack_id)['result'] == 'done after 90 s'
    sd = deployment(heat, stack_id)
    assert (sd.status, sd.status_reason) == ('COMPLETE', 'Outputs received')
    assert sd.output_values['deploy_stdout'] == 'working for 90 s\n'
    # The URL the server signalled carries no timestamp ...
    inputs = {i['name']: i.get('value')
              for i in heat.software_configs.get(sd.config_id).inputs}
    query = parse.parse_qs(parse.urlparse(inputs['deploy_signal_id']).query)
    assert 'Timestamp' not in query and query['Signature']
    # ... and was accepted after Keystone's minute: heartbeats included.
    reasons = signal_events(driver, stack_id)
    beats = [int(m.group(1)) for m in map(re.compile(
        r'.* in progress: script hook still running after (\d+) s$').match,
        reasons) if m]
    assert beats and max(beats) > 60, reasons
    assert reasons[-1] == 'Signal: deployment %s succeeded' % sd.id
    # The control, signed before the 90 s: refused now.
    the_later_timestamped_url_is_refused(driver, heat, *control)


def test_a_server_that_never_polls_fails_at_its_start_timeout(driver, heat):
    # No agent is started for the server: nothing ever polls.
    stack_id = driver.create(template(start_timeout=15), {'seconds': 1},
                             expect='FAILED')
    reason = ('the server never started the deployment in 15 s '
              '(start_timeout): no signal arrived. Likely causes: server not '
              'booted, agent not polling, metadata server unreachable, '
              'signals blocked')
    stack = heat.stacks.get(stack_id)
    assert stack.stack_status_reason == (
        'Resource CREATE failed: ' + ERROR + reason)
    assert failed_event(driver, stack_id) == ERROR + reason
    sd = deployment(heat, stack_id)
    assert (sd.status, sd.status_reason) == ('FAILED', reason)
    assert signal_events(driver, stack_id) == []


def test_a_script_that_outlives_its_run_timeout_names_its_last_progress(
        driver, heat):
    stack_id = driver.create(
        template(start_timeout=60, run_timeout=25), {'seconds': 40},
        servers=['server'], expect='FAILED',
        agent_options={'heartbeat_interval': 5})
    sd = deployment(heat, stack_id)
    match = re.match(r'^still running after 25 s \(run_timeout\); last '
                     r'progress: script hook still running after (\d+) s at '
                     r'(%s)$' % UTC, sd.status_reason)
    assert match, sd.status_reason
    assert 5 <= int(match.group(1)) <= 25
    stack = heat.stacks.get(stack_id)
    assert stack.stack_status_reason == (
        'Resource CREATE failed: ' + ERROR + sd.status_reason)
    assert failed_event(driver, stack_id) == (ERROR + sd.status_reason)[:255]
    # The tool ends later; its result is a late signal: an event, and the
    # deployment keeps its deadline failure.
    late = ('Signal: deployment %s: signal ignored, the deployment is not '
            'in progress (CREATE FAILED): late, duplicate or for a previous '
            'action' % sd.id)
    wait_for(lambda: late in signal_events(driver, stack_id), 90,
             'late result')
    after = deployment(heat, stack_id)
    assert (after.status, after.status_reason) == ('FAILED',
                                                   sd.status_reason)
    assert 'result' not in (after.output_values or {})


def raw_signal(cloud, stack_id, stack_name, body):
    """POST `body` (bytes) to the deployment's signal URL; the status."""
    url = '%s/stacks/%s/%s/resources/deployment/signal' % (
        cloud.heat.url(cloud.keystone.demo_project_id), stack_name, stack_id)
    response = cloud.keystone.demo_session().post(
        url, data=body, headers={'Content-Type': 'application/json'},
        raise_exc=False)
    return response.status_code


def test_bad_signals_leave_events_and_never_a_5xx(driver, heat, cloud):
    # The user signals the deployment of a server that has no agent.
    stack_id = driver.create(template(), {'seconds': 1}, wait=False)
    name = heat.stacks.get(stack_id).stack_name
    wait_for(lambda: deployment(heat, stack_id).status == 'IN_PROGRESS', 120,
             'deployment waiting for its signal')

    def signal(body):
        heat.resources.signal(stack_id, 'deployment', data=body)
    signal({'deploy_status': 'IN_PROGRESS',
            'deploy_status_reason': 'installing ' + 'x' * 70000})
    stored = deployment(heat, stack_id).status_reason
    assert stored.startswith('In progress: installing xxx')
    assert 'characters cut: a status reason keeps at most 4096' in stored
    # Not JSON: heat-api refuses it (the engine never sees it).
    assert raw_signal(cloud, stack_id, name, b'{not json') == 400
    signal({'deploy_status': 'DONE', 'result': 'half',
            'deploy_stdout': 'out'})
    driver.wait(stack_id, 'CREATE', 'FAILED')
    reason = ("unknown deploy_status 'DONE' (expected one of IN_PROGRESS, "
              "COMPLETE, FAILED)")
    assert heat.stacks.get(stack_id).stack_status_reason == (
        'Resource CREATE failed: ' + ERROR + 'Deployment to server failed: '
        + reason)
    # Late, duplicate and malformed signals now: events, nothing changes.
    signal({'deploy_status': 'COMPLETE', 'result': 'overwritten?'})
    signal({'deploy_status': 'IN_PROGRESS', 'deploy_status_reason': 'late'})
    assert raw_signal(cloud, stack_id, name, b'["a", "list"]') == 200
    assert raw_signal(cloud, stack_id, name, b'') == 200
    sd = deployment(heat, stack_id)
    assert (sd.status, sd.status_reason) == ('FAILED', reason)
    assert sd.output_values['result'] == 'half'
    prefix = 'Signal: deployment %s' % sd.id
    late = (prefix + ': signal ignored, the deployment is not in progress '
            '(CREATE FAILED): late, duplicate or for a previous action')
    events = signal_events(driver, stack_id)
    assert events[0].startswith(prefix + ' in progress: installing xxx')
    assert events[1:] == [prefix + ' failed: ' + reason] + [late] * 4


# Heat's in-tree StructuredDeployment: a Timestamp-signed CFN_SIGNAL URL.
TIMESTAMPED = hot.template(hot.with_server(
    config=hot.script_config({}, kind='OS::Heat::StructuredConfig'),
    **{name: hot.deployment('config', 'CFN_SIGNAL',
                            'OS::Heat::StructuredDeployment')
       for name in ('early', 'late')}), version='2016-10-14')


SIGNAL_BODY = {'deploy_stdout': '', 'deploy_stderr': '',
               'deploy_status_code': 0}


def _signal_url(heat, stack_id, name):
    physical = heat.resources.get(stack_id, name).physical_resource_id
    sd = heat.software_deployments.get(physical)
    return {i['name']: i.get('value') for i in heat.software_configs.get(
        sd.config_id).inputs}['deploy_signal_id']


def timestamped_urls_signalled_once(driver, heat):
    """The control's stack, its early URL signalled at once."""
    stack_id = driver.create(TIMESTAMPED, wait=False)
    urls = wait_for(lambda: all(
        heat.resources.get(stack_id, n).physical_resource_id
        for n in ('early', 'late')) and {
            n: _signal_url(heat, stack_id, n) for n in ('early', 'late')},
        120, 'both deployments delivered')
    signed = time.monotonic()
    for url in urls.values():
        query = parse.parse_qs(parse.urlparse(url).query)
        assert query['Timestamp'], url
    early = requests.post(urls['early'], json=SIGNAL_BODY, timeout=60)
    assert early.status_code == 200, early.text
    return stack_id, urls['late'], signed


def the_later_timestamped_url_is_refused(driver, heat, stack_id, url,
                                         signed):
    time.sleep(max(0, signed + 75 - time.monotonic()))
    late = requests.post(url, json=SIGNAL_BODY, timeout=60)
    assert late.status_code in (401, 403), (late.status_code, late.text)
    assert heat.resources.get(stack_id, 'late').resource_status == \
        'CREATE_IN_PROGRESS'
    driver.delete(stack_id)
