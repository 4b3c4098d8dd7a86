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
"""What a stack that is still in progress waits for.

Pure, like diagnosis.py, whose Findings it returns: for each deployment
still IN_PROGRESS (nested ones included), its last progress and how long
ago it came, the deadlines that will fail it and when (its own
start_timeout and run_timeout, the stack's timeout), and how its server
signals (transport and endpoint, from the config it was delivered).
"""

import datetime
import urllib.parse

from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.user_side import diagnosis

WAITING = 'waiting'
DEADLINE_PROPERTIES = (START_TIMEOUT, RUN_TIMEOUT) = (
    'start_timeout', 'run_timeout')


def stack_in_progress(stack):
    return str(stack.get('stack_status') or '').endswith('_IN_PROGRESS')


def parse_time(text):
    """A Heat API timestamp (ISO 8601, UTC) as an aware datetime, or None."""
    if not text:
        return None
    text = str(text).rstrip('Z').split('.')[0].split('+')[0]
    try:
        found = datetime.datetime.strptime(text, '%Y-%m-%dT%H:%M:%S')
    except ValueError:
        return None
    return found.replace(tzinfo=datetime.timezone.utc)


def _text(when):
    return when.strftime('%Y-%m-%dT%H:%M:%SZ')


def action_began(events):
    """When the resource's current action began: its last *_IN_PROGRESS."""
    began = [e for e in events if str(e.get('resource_status') or '')
             .endswith('_IN_PROGRESS') and
             not str(e.get('resource_status')).startswith('SIGNAL')]
    if not began:
        return None
    return parse_time(max(str(e.get('event_time')) for e in began))


def deadlines(began, settings, progress, stack, now):
    """[{'name', 'fires_at', 'in_seconds'}] soonest first.

    settings: the deployment's start_timeout and run_timeout (None: not
    set); start_timeout only counts until the first progress.
    """
    found = []
    if began is not None:
        for name in DEADLINE_PROPERTIES:
            limit = settings.get(name)
            if limit is None or (name == START_TIMEOUT and progress):
                continue
            found.append((name, began + datetime.timedelta(seconds=limit)))
    stack_began = parse_time(stack.get('updated_time') or
                             stack.get('creation_time'))
    if stack.get('timeout_mins') and stack_began is not None:
        found.append(('the stack\'s timeout (%s min)' % stack['timeout_mins'],
                      stack_began + datetime.timedelta(
                          minutes=int(stack['timeout_mins']))))
    return [{'name': name, 'fires_at': _text(when),
             'in_seconds': int((when - now).total_seconds())}
            for name, when in sorted(found, key=lambda pair: pair[1])]


def signal_route(derived_config):
    """{'transport', 'endpoint', 'note'} of a delivered config's inputs.

    Never a credential: the endpoint is a URL's scheme, host and path.
    """
    inputs = {i.get('name'): i.get('value') for i in
              (derived_config or {}).get('inputs') or ()}
    transport = inputs.get(protocol.DEPLOY_SIGNAL_TRANSPORT)
    route = {'transport': transport, 'endpoint': None, 'note': None}
    url = inputs.get(protocol.DEPLOY_SIGNAL_ID)
    if transport == protocol.HEAT_SIGNAL:
        url = inputs.get(protocol.DEPLOY_AUTH_URL)
    if url:
        parts = urllib.parse.urlsplit(str(url))
        route['endpoint'] = '%s://%s%s' % (parts.scheme, parts.netloc,
                                           parts.path)
        if 'Timestamp=' in parts.query:
            route['note'] = ('the URL is signed with a timestamp: Keystone '
                             'refuses it [credential] auth_ttl after that')
    if transport == protocol.NO_SIGNAL:
        route['note'] = 'nothing waits for a signal'
    elif transport not in protocol.STATUS_AWARE_TRANSPORTS and transport:
        route['note'] = ('the engine polls for the result; progress signals '
                         'do not reach the deployment')
    return route


def explain(stack, resources, events, deployments, settings=None,
            configs=None, now=None):
    """Findings (role 'waiting') for the deployments still in progress.

    settings: {physical id: {start_timeout, run_timeout}}; configs:
    {physical id: the config it was delivered}.
    """
    settings, configs = settings or {}, configs or {}
    now = now or datetime.datetime.now(datetime.timezone.utc)
    events_of = diagnosis.events_by_path(events)
    findings = []
    for resource in resources:
        ident = resource.get('physical_resource_id')
        deployment = deployments.get(ident)
        if (deployment is None or not diagnosis.may_be_deployment(resource)
                or deployment.get('status') != protocol.IN_PROGRESS):
            continue
        mine = events_of[tuple(resource['path'])]
        progress = diagnosis.last_progress(mine, deployment)
        began = action_began(mine)
        details = {'last_progress': progress,
                   'deadlines': deadlines(began, settings.get(ident, {}),
                                          progress, stack, now),
                   'signal': signal_route(configs.get(ident))}
        if progress:
            ago = now - (parse_time(progress['time']) or now)
            progress['seconds_ago'] = int(ago.total_seconds())
            cause = 'last progress %d s ago: %s' % (
                progress['seconds_ago'], progress['message'])
        elif began is not None:
            cause = ('no signal from the server yet, %d s after the action '
                     'began' % (now - began).total_seconds())
        else:
            cause = 'no signal from the server yet'
        findings.append(diagnosis.Finding(
            WAITING, diagnosis.DEPLOYMENT, list(resource['path']),
            resource.get('resource_type'), resource.get('resource_status'),
            resource.get('stack_name'), ident, cause,
            deployment.get('status_reason'), details))
    findings.sort(key=lambda f: f.path)
    return findings
