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
"""What the tab's template and the rows' refresh are given.

Heat is asked with the logged-in user's token, through heat-dashboard's
own client (heat_dashboard.api.heat.heatclient). A refusal by the cloud's
policy or an unreachable Heat becomes a message in the tab, never an
error page.
"""

import datetime
import logging

from django.urls import NoReverseMatch
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from heat_dashboard.api import heat

from openstack_dashboard import policy

from heat_lifecycle_dashboard import lifecycle_data
from heat_lifecycle_dashboard import timeline

LOG = logging.getLogger(__name__)
TAB_QUERY = '?tab=stack_details__lifecycle'
# heat-api's PATCH update (what a day-two request sends) is checked
# against stacks:update_patch (heat-dashboard's conf/heat_policy.yaml).
RUN_POLICY = (('orchestration', 'stacks:update_patch'),)
# mistral-dashboard's execution page (mistraldashboard/executions/urls.py,
# dashboard 'mistral'): linked only when it is installed.
MISTRAL_EXECUTION = 'horizon:mistral:executions:detail'
REFUSED = _('Resource details are refused by the cloud\'s policy: your '
            'role may read the stack but not its resources.')


def can_run(request):
    return policy.check(RUN_POLICY, request)


def execution_url(execution_id):
    if not execution_id:
        return None
    try:
        return reverse(MISTRAL_EXECUTION, args=[execution_id])
    except NoReverseMatch:
        return None


def resource_url(stack_id, finding):
    """heat-dashboard's resource page of a finding's resource."""
    if not finding.get('resource'):
        return None
    where = (finding.get('stack_name') if finding.get('nested')
             else stack_id) or stack_id
    return reverse('horizon:project:stacks:resource',
                   args=[where, finding['resource']])


def _executions(findings):
    """{path: {execution, state, url, failed_tasks}} of failed workflows."""
    found = {}
    for finding in findings:
        details = finding.get('details') or {}
        if details.get('execution'):
            found[finding['path_text']] = {
                'execution': details['execution'],
                'state': details.get('state'),
                'failed_tasks': details.get('failed_tasks') or [],
                'url': execution_url(details['execution'])}
    return found


def rows_context(request, stack_id, hc=None):
    """{'stack', 'rows', 'final', 'refused', 'timeline'} of the stack."""
    hc = hc or heat.heatclient(request)
    now = datetime.datetime.now(datetime.timezone.utc)
    try:
        stack, rows = lifecycle_data.deployments(hc, stack_id)
    except lifecycle_data.Refused:
        stack = lifecycle_data.stack(hc, stack_id)
        return {'stack': stack, 'rows': [], 'refused': True,
                'final': lifecycle_data.all_final(stack, []),
                'timeline': ''}
    return {'stack': stack, 'rows': rows, 'refused': False,
            'final': lifecycle_data.all_final(stack, rows),
            'timeline': timeline.svg(rows, now)}


def _running(stack):
    return (stack.get('stack_status') or '').endswith('_IN_PROGRESS')


def _linked(stack_id, cause):
    for finding in cause['findings']:
        finding['url'] = resource_url(stack_id, finding)
    return cause


def with_cause(stack_id, hc, context):
    """rows_context's context, with what the cause section shows.

    'cause': `why`'s report of a failed or running stack (None for the
    rest), a running one's from the rows' own reads; 'executions': its
    failed workflows, each row given its own.
    """
    context.update(cause=None, executions={})
    if context['refused']:
        pass
    elif _running(context['stack']):
        context['cause'] = _linked(stack_id, lifecycle_data.waiting_cause(
            context['stack'], context['rows']))
    elif (context['stack'].get('stack_status') or '').endswith('_FAILED'):
        cause = _linked(stack_id, lifecycle_data.cause(hc, stack_id))
        context['cause'] = cause
        context['executions'] = _executions(cause['findings'])
    for row in context['rows']:
        row['execution'] = context['executions'].get(row['path'])
    return context


def refresh_context(request, stack_id):
    """What the rows' refresh shows: rows_context's context.

    With with_cause's while the stack runs (read from the rows: no
    further Heat call, and 'last progress N s ago' stays true) and once
    all is final (the cause section then says how the stack ended).
    """
    hc = heat.heatclient(request)
    found = rows_context(request, stack_id, hc)
    if found['final'] or _running(found['stack']):
        return with_cause(stack_id, hc, found)
    return found


def tab_context(request, stack_id):
    """Everything the tab shows; an 'error' line instead when Heat fails."""
    context = {'stack_id': stack_id, 'refused_text': REFUSED,
               'refresh_url': reverse('horizon:project:lifecycle:rows',
                                      args=[stack_id]),
               'action_url': reverse('horizon:project:lifecycle:run',
                                     args=[stack_id]),
               'can_run': can_run(request)}
    try:
        hc = heat.heatclient(request)
        context.update(rows_context(request, stack_id, hc))
        with_cause(stack_id, hc, context)
    except Exception as exc:
        LOG.warning('Lifecycle tab of stack %s: %s', stack_id, exc)
        context['error'] = _('Heat could not be read: %s') % exc
    return context
