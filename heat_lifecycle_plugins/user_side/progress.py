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
"""Every deployment of a stack, nested ones included, with its progress.

read() gives (stack, rows) as heat-api shows them now, printing nothing:
`openstack lifecycle progress list` prints the rows once, `openstack
lifecycle progress watch` (osc/progress_watch.py) redraws them until
ended(), the dashboard refreshes its own. A row's progress is the
deployment's last message: the agent's "started" and heartbeats, or a
milestone the tool reported (heat-lifecycle-progress).
"""

import datetime

from heat_lifecycle_plugins import action_requests
from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.user_side import diagnosis
from heat_lifecycle_plugins.user_side import heat_api
from heat_lifecycle_plugins.user_side import request_plan
from heat_lifecycle_plugins.user_side import waiting

COLUMNS = ('Deployment', 'Status', 'Elapsed', 'Progress')
# Nested stacks deeper than this are not listed.
MAX_DEPTH = 20
_PROGRESS = 'In progress: '


def _stack_of(resource):
    """NAME/ID of the stack a listed resource is in (its 'stack' link)."""
    for link in resource.get('links') or ():
        if link.get('rel') == 'stack':
            return '/'.join(link['href'].rstrip('/').split('/')[-2:])
    return None


def with_paths(top_ref, resources):
    """The resources, each with 'path' from the top stack down.

    resources: a nested_depth listing, in any order; one whose parent was
    not listed (deeper than MAX_DEPTH) is left out.
    """
    top_id = top_ref.split('/')[-1]
    path_of = {top_id: []}
    nested_of = {heat_api.nested_stack_of(r).split('/')[-1]: r
                 for r in resources if heat_api.nested_stack_of(r)}

    def path(stack_id, seen=()):
        if stack_id not in path_of:
            parent = nested_of.get(stack_id)
            parent_stack = _stack_of(parent) if parent else None
            if parent_stack is None or stack_id in seen:
                return None
            above = path(parent_stack.split('/')[-1], seen + (stack_id,))
            path_of[stack_id] = (None if above is None else
                                 above + [parent['resource_name']])
        return path_of[stack_id]

    found = []
    for resource in resources:
        stack = _stack_of(resource)
        above = path(stack.split('/')[-1]) if stack else []
        if above is not None:
            found.append(dict(resource, path=above + [
                resource['resource_name']], stack_ref=stack or top_ref))
    return sorted(found, key=lambda r: r['path'])


def is_deployment(resource):
    return (str(resource.get('resource_type') or '').endswith('Deployment')
            and not heat_api.nested_stack_of(resource))


def _elapsed(resource, deployment, now):
    status = (deployment or {}).get('status') or ''
    if status != protocol.IN_PROGRESS:
        return ''
    began = waiting.parse_time(resource.get('updated_time') or
                               resource.get('creation_time'))
    if began is None:
        return ''
    seconds = int((now - began).total_seconds())
    return '%d:%02d' % divmod(max(seconds, 0), 60)


def _progress(deployment):
    reason = str((deployment or {}).get('status_reason') or '')
    return reason[len(_PROGRESS):] if reason.startswith(_PROGRESS) else reason


def row(resource, deployment, now):
    """(Deployment, Status, Elapsed, Progress) of one deployment."""
    status = ((deployment or {}).get('status') or
              resource.get('resource_status'))
    return ('/'.join(resource['path']), status,
            _elapsed(resource, deployment, now), _progress(deployment))


def requested_in_events(resource, events):
    """The custom action an external resource's UPDATE runs, or None.

    A request's action runs as Heat's UPDATE; the event of its Mistral
    execution's start names it. Only that UPDATE's events count: those
    since the resource's updated_time (when its action began).
    """
    if not str(resource.get('resource_status') or '').startswith(
            protocol.UPDATE + '_'):
        return None
    since = str(resource.get('updated_time') or '')
    found = None
    for event in sorted(events or (), key=lambda e: str(e.get('event_time'))):
        if str(event.get('event_time') or '') >= since:
            found = action_requests.requested_in(
                event.get('resource_status_reason')) or found
    return found


def _action(resource, deployment, delivered, events):
    """The action a row shows: a request's custom one before Heat's."""
    return (request_plan.requested_action(delivered) or
            requested_in_events(resource, events) or
            (deployment or {}).get('action') or
            str(resource.get('resource_status') or '').split('_')[0])


def details(resource, deployment, settings, stack, now, delivered=None,
            events=()):
    """A deployment's row as a dict, with its action and deadlines.

    For a dashboard: the row's columns (path, status, elapsed, progress)
    plus the deployment's action, when its action began and, while it is
    in progress, the deadlines that will fire (waiting.deadlines of its
    start_timeout and run_timeout, settings; the stack's timeout).
    delivered: the config the deployment last delivered; the custom
    action it runs (BACKUP) is the row's action, not Heat's UPDATE.
    events: the resource's; an external resource's request is read from
    them (requested_in_events).
    """
    path, status, elapsed, said = row(resource, deployment, now)
    began = waiting.parse_time(resource.get('updated_time') or
                               resource.get('creation_time'))
    fires = []
    if status == protocol.IN_PROGRESS:
        fires = waiting.deadlines(began, settings or {}, said, stack, now)
    return {'path': path, 'status': status, 'elapsed': elapsed,
            'progress': said, 'deadlines': fires,
            'action': _action(resource, deployment, delivered, events),
            'began': began, 'final': status != protocol.IN_PROGRESS,
            'resource_name': resource.get('resource_name'),
            'stack_ref': resource.get('stack_ref'),
            'physical_id': resource.get('physical_resource_id')}


def read(hc, stack_ref):
    """(stack, rows) as heat-api shows them now."""
    stack = hc.stacks.get(stack_ref).to_dict()
    ident = '%s/%s' % (stack['stack_name'], stack['id'])
    listed = [r.to_dict() for r in hc.resources.list(
        ident, nested_depth=MAX_DEPTH)]
    now = datetime.datetime.now(datetime.timezone.utc)
    rows = []
    for resource in with_paths(ident, listed):
        if not is_deployment(resource):
            continue
        deployment = None
        if resource.get('physical_resource_id'):
            deployment = heat_api.deployment(
                hc, resource['physical_resource_id'])
        rows.append(row(resource, deployment, now))
    return stack, rows


def ended(stack, rows):
    return (not waiting.stack_in_progress(stack) and
            all(r[1] != protocol.IN_PROGRESS for r in rows))


def failed(stack, rows):
    """Whether the stack or any of its deployments failed."""
    return diagnosis.stack_failed(stack) or any(
        r[1] == protocol.FAILED or str(r[1]).endswith('_FAILED')
        for r in rows)
