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
"""What the tab shows and sends, from the project's library.

The only module of the tab that imports heat_lifecycle_plugins (the
operator's host_check takes its line format only): the diagnosis behind
`why`, the progress reader behind `progress watch`, the deadlines of
`waiting`, the request builder behind `action run`. The rest of the
dashboard sees plain dicts and the library's errors, named below.
"""

import datetime

from heatclient import exc as heat_exc

from heat_lifecycle_plugins import action_names
from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.user_side import action_run
from heat_lifecycle_plugins.user_side import cause as why
from heat_lifecycle_plugins.user_side import diagnosis
from heat_lifecycle_plugins.user_side import errors
from heat_lifecycle_plugins.user_side import heat_api
from heat_lifecycle_plugins.user_side import progress
from heat_lifecycle_plugins.user_side import report
from heat_lifecycle_plugins.user_side import request_plan
from heat_lifecycle_plugins.user_side import waiting

EXTERNAL_RESOURCE_TYPE = request_plan.EXTERNAL_RESOURCE_TYPE
DEPLOYMENT_TYPE = request_plan.DEPLOYMENT_TYPE
# Re-apply: UPDATE runs the deployment's config again.
REAPPLY = 'UPDATE'
# The library's errors: a line for the user; Refused for Heat's 403.
UserSideError = errors.UserSideError
Refused = errors.Refused


def _now():
    return datetime.datetime.now(datetime.timezone.utc)


def _shown(stack, findings):
    """`why`'s report of the findings, each with what the tab shows."""
    found = report.as_dict(stack, findings)
    for finding, shown in zip(findings, found['findings']):
        shown['path_text'] = '/'.join(finding.path) or '-'
        shown['cause_line'] = report.cause_line(finding, findings)
        shown['detail_lines'] = (
            report.waiting_detail_lines(finding)
            if finding.role == waiting.WAITING else
            report.detail_lines(finding))
        shown['nested'] = len(finding.path) > 1
    return found


def cause(hc, stack_ref):
    """{'stack', 'findings', 'failed', 'in_progress'}: `why`'s report.

    Refused when the user may not list the stack's resources.
    """
    try:
        stack, findings = why.diagnose(hc, stack_ref)
    except heat_exc.HTTPForbidden as exc:
        raise Refused(str(exc))
    return _shown(stack, findings)


def waiting_cause(stack_found, rows):
    """cause()'s report of a stack in progress, from the rows' reads.

    What `why` says it waits for (waiting.explain), without reading
    Heat again: the rows read each deployment, its events, deadlines
    and delivered config. None when the stack is not in progress.
    """
    if not waiting.stack_in_progress(stack_found):
        return None
    read = [row['read'] for row in rows if not row['external']]
    return _shown(stack_found, waiting.explain(
        stack_found, [r['resource'] for r in read],
        [e for r in read for e in r['events']],
        {r['resource']['physical_resource_id']: r['deployment']
         for r in read if r['deployment']},
        {r['resource']['physical_resource_id']: r['settings']
         for r in read},
        {r['resource']['physical_resource_id']: r['delivered']
         for r in read}))


def stack(hc, stack_ref):
    """The stack as heat-api shows it (a dict)."""
    return hc.stacks.get(stack_ref).to_dict()


def _events(hc, resource):
    """The resource's events, oldest first, each with its 'path'."""
    try:
        events = [e.to_dict() for e in hc.events.list(
            resource['stack_ref'], resource_name=resource['resource_name'],
            sort_keys='event_time', sort_dir='asc')]
    except heat_exc.HTTPException:
        return []
    for event in events:
        event['path'] = resource['path']
    return events


def _listed(hc, stack_ref):
    """(stack, its resources and their nested ones, each with 'path').

    Refused when the user may not list the resources.
    """
    try:
        found = hc.stacks.get(stack_ref).to_dict()
        ident = '%s/%s' % (found['stack_name'], found['id'])
        listed = [r.to_dict() for r in hc.resources.list(
            ident, nested_depth=progress.MAX_DEPTH)]
    except heat_exc.HTTPForbidden as exc:
        raise Refused(str(exc))
    return found, progress.with_paths(ident, listed)


def deployments(hc, stack_ref):
    """(stack, [row dict]) of every deployment, nested ones included.

    A row: progress.details' keys, plus 'marks' (the progress messages
    with their times, for the timeline) and 'read' (what was read of it,
    for waiting_cause). Refused when the user may not list the resources.
    """
    found, resources = _listed(hc, stack_ref)
    now = _now()
    rows = []
    for resource in resources:
        external = resource.get('resource_type') == EXTERNAL_RESOURCE_TYPE
        if not (progress.is_deployment(resource) or external):
            continue
        resource['stack_name'] = resource['stack_ref'].split('/')[0]
        deployment, settings, delivered = None, {}, None
        if resource.get('physical_resource_id') and not external:
            deployment = heat_api.deployment(
                hc, resource['physical_resource_id'])
            running = (deployment or {}).get('status') == 'IN_PROGRESS'
            if running:
                settings = heat_api.deadline_settings(hc, resource)
            if running or (deployment or {}).get('action') == protocol.UPDATE:
                # How its server signals (waiting_cause); a request's
                # custom action runs as an UPDATE: the config names it.
                delivered = heat_api.delivered_config(hc, deployment)
        events = _events(hc, resource)
        shown = progress.details(resource, deployment, settings, found, now,
                                 delivered, events)
        shown['type'] = resource.get('resource_type')
        shown['external'] = external
        shown['reason'] = resource.get('resource_status_reason')
        shown['updated'] = waiting.parse_time(resource.get('updated_time'))
        shown['resource_status'] = resource.get('resource_status')
        if external:
            shown['final'] = not str(resource.get(
                'resource_status')).endswith('_IN_PROGRESS')
        shown['marks'] = diagnosis.progress_marks(events)
        shown['read'] = {'resource': resource, 'deployment': deployment,
                         'settings': settings, 'delivered': delivered,
                         'events': events}
        rows.append(shown)
    return found, rows


def all_final(stack_found, rows):
    return (not waiting.stack_in_progress(stack_found) and
            all(r['final'] for r in rows))


def _offered(defined):
    """The custom actions among `defined`, and UPDATE (re-apply)."""
    return sorted(a for a in defined if action_names.is_custom(a)) + [
        REAPPLY]


def actions(hc, stack_ref):
    """[(resource path, action)] the stack's resources can be asked to run.

    A deployment: the custom actions of the component it last delivered,
    and UPDATE (re-apply); an external resource: its workflows' custom
    actions, and UPDATE if it has that workflow. Refused when the user
    may not list the resources.
    """
    _stack, resources = _listed(hc, stack_ref)
    choices = []
    for resource in resources:
        rtype = resource.get('resource_type')
        name = '.'.join(resource['path'])
        if rtype == DEPLOYMENT_TYPE and resource.get('physical_resource_id'):
            derived = heat_api.delivered_config(hc, heat_api.deployment(
                hc, resource['physical_resource_id']) or {})
            defined = request_plan.defined_actions(derived) or set()
            choices += [(name, a) for a in _offered(defined)]
        elif rtype == EXTERNAL_RESOURCE_TYPE:
            template = hc.stacks.template(resource['stack_ref'])
            props = ((template.get('resources') or {}).get(
                resource['resource_name']) or {}).get('properties') or {}
            workflows = props.get('actions')
            if isinstance(workflows, dict):
                defined = {str(a).upper() for a in workflows}
                choices += [(name, a) for a in _offered(defined)
                            if a in defined]
    return choices


def run(hc, stack_ref, resource, action, inputs):
    """Send the request `openstack lifecycle action run --no-wait` sends.

    inputs: ['KEY=VALUE']. The line the command prints (with the
    request's token); Refused on a 403, UserSideError otherwise.
    """
    token = action_run.request(
        hc, stack_ref, resource, action,
        request_plan.checked_request(action, list(inputs)))
    return action_run.requested(action, resource, token)
