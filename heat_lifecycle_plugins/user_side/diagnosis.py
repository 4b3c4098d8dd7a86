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
"""Why a stack failed: its failing resources, deepest first, each explained.

Pure: the input is what heat-api shows a user, as plain dicts (the stack,
the resources of it and of the nested stacks it was walked into, their
events, the software deployments behind them); the output is an ordered
list of Findings. `heat-lifecycle-plugins why` (why.py) reads the
API and prints them.

A resource dict has the API's keys (resource_type, resource_status,
resource_status_reason, physical_resource_id, updated_time, stack_name)
plus `path`, the resource names from the top stack down to it, and
`nested`, whether it has a nested stack. An event dict has the API's keys
(resource_status, resource_status_reason, event_time) plus `path`.
Deployments are keyed by id (the resource's physical id) with the API's
keys (status, status_reason, output_values, updated_time).
"""

import collections
import re

from heat_lifecycle_plugins import protocol

# Why a resource is listed, most telling first: it failed on its own; it
# was still in progress when its stack failed; it was cancelled because
# something else failed; it failed because a resource of its nested stack
# did. STACK: nothing left to list but the stack's or an event's reason.
ROLES = (CAUSE, STUCK, CANCELLED, ENCLOSING, STACK) = (
    'cause', 'stuck', 'cancelled', 'enclosing', 'stack')
# What explains it.
KINDS = (DEPLOYMENT, WORKFLOW, DEADLINE, TIMEOUT, RESOURCE) = (
    'deployment', 'workflow', 'deadline', 'timeout', 'resource')

Finding = collections.namedtuple(
    'Finding', 'role kind path type status stack_name physical_id cause '
               'reason details')

STDERR_LINES = 5
# Lines our agent adds to a tool's stderr (its own note, not the tool's).
AGENT_NOTE = '[heat-lifecycle-agent]'

# Heat wraps a reason in the exception's name and the resource's path
# ("Error: resources.chain.resources.db: ..."), and a stack's reason in
# "Resource CREATE failed: "; what is left is the resource's own words.
_WRAPPER = re.compile(r'^(?:Resource \w+ failed: |'
                      r'(?:\w+: )?resources[.\[]\S*?: )')
# A resource stopped because something else failed ("CREATE aborted
# (Operation cancelled)"); an abort because time ran out is a timeout.
_CANCELLED = re.compile(r'Operation cancelled|^Stack \w+ cancelled|'
                        r'^\w+ aborted$')
_TIMED_OUT = 'Timed out'
# The deadlines of a deployment say which one fired.
_DEADLINE = re.compile(r'(the server never started .*|still running after .*)')
# ExternalResource's reason for a failed execution (execution_results).
_WORKFLOW = re.compile(r'Mistral workflow (?P<workflow>\S+) ended '
                       r'(?P<state>\w+): (?P<cause>.*) '
                       r'\(execution (?P<execution>[^\s)]+)\)')
_TASK = re.compile(r'task (?P<task>\S+) failed: (?P<error>.*?)'
                   r'(?=; task \S+ failed: |$)')
# A deployment's SIGNAL event for a progress signal, and its status_reason
# while in progress (deployment_signals).
# The Ansible callback's failure: "task [name] failed on host: message".
_FAILED_TASK = re.compile(r'task \[.*?\] (?:failed|unreachable) on ')
_PROGRESS_EVENT = re.compile(r' in progress: (.*)$')
_PROGRESS_REASON = re.compile(r'^In progress: (.*)$')


def _status(thing, key):
    return str(thing.get(key) or '')


def stack_failed(stack):
    """Whether the stack's last action failed (or was rolled back)."""
    status = _status(stack, 'stack_status')
    return status.endswith('_FAILED') or status.startswith('ROLLBACK_')


def failed_or_unfinished(resource):
    """Whether a resource of a failed stack may explain the failure.

    Failed resources, and those still in progress (a stack timeout leaves
    what it waited for IN_PROGRESS).
    """
    status = _status(resource, 'resource_status')
    return status.endswith(('_FAILED', '_IN_PROGRESS'))


def cancelled(resource):
    """Whether it stopped because something else failed (not a timeout)."""
    reason = own_reason(resource.get('resource_status_reason'))
    return bool(_CANCELLED.search(reason)) and _TIMED_OUT not in reason


def needs_reading(resource):
    """Whether to read its nested stack, events and deployment.

    What failed_or_unfinished lists, except what was cancelled: its own
    story is someone else's failure (and a large chain may have hundreds
    of them).
    """
    return failed_or_unfinished(resource) and not cancelled(resource)


def may_be_deployment(resource):
    """Whether the resource's physical id may be a software deployment's."""
    return (not resource.get('nested') and
            bool(resource.get('physical_resource_id')) and
            _status(resource, 'resource_type').endswith('Deployment'))


def own_reason(reason):
    """A reason without Heat's wrappers: the failing resource's own words."""
    text = str(reason or '').strip()
    while True:
        stripped = _WRAPPER.sub('', text, count=1)
        if stripped == text:
            return text
        text = stripped


def is_below(path, other):
    return len(other) > len(path) and tuple(other[:len(path)]) == tuple(path)


def _role(resource, looked_at):
    if resource.get('nested') and any(
            is_below(resource['path'], r['path']) for r in looked_at):
        return ENCLOSING
    if cancelled(resource):
        return CANCELLED
    if _status(resource, 'resource_status').endswith('_IN_PROGRESS'):
        return STUCK
    return CAUSE


def stderr_tail(stderr, lines=STDERR_LINES):
    """The last non-empty lines of a tool's stderr."""
    kept = [line.rstrip() for line in str(stderr or '').splitlines()
            if line.strip()]
    return kept[-lines:]


def _tool_last_words(tail, reason=''):
    """The failed task a reason names, or the tool's last stderr line.

    The agent's reason (the deployment's, or its note on stderr) leads
    with the task Ansible failed on (agent/ansible_callbacks): it wins
    over a warning the tool wrote last. Else the last line the tool
    itself wrote (not the agent's note).
    """
    notes = [line.strip()[len(AGENT_NOTE):].strip() for line in tail
             if line.lstrip().startswith(AGENT_NOTE)]
    for said in [reason] + notes:
        if _FAILED_TASK.match(said or ''):
            return said.strip()
    for line in reversed(tail):
        if not line.lstrip().startswith(AGENT_NOTE):
            return line.strip()
    return None


def progress_marks(events):
    """[{'message', 'time'}] of a deployment's progress signals, in time."""
    marks = []
    for event in events:
        if not _status(event, 'resource_status').startswith('SIGNAL_'):
            continue
        match = _PROGRESS_EVENT.search(_status(event,
                                               'resource_status_reason'))
        if match:
            marks.append({'message': match.group(1),
                          'time': _status(event, 'event_time')})
    return sorted(marks, key=lambda mark: mark['time'])


def last_progress(events, deployment=None):
    """{'message', 'time'} of a deployment's last progress, or None."""
    marks = progress_marks(events)
    found = marks[-1] if marks else None
    if found is None and deployment:
        match = _PROGRESS_REASON.match(_status(deployment, 'status_reason'))
        if match:
            found = {'message': match.group(1),
                     'time': _status(deployment, 'updated_time')}
    return found


def _workflow(reason):
    """(cause, details) of ExternalResource's failed execution, or None."""
    match = _WORKFLOW.search(reason)
    if not match:
        return None
    tasks = [{'task': t.group('task'), 'error': t.group('error')}
             for t in _TASK.finditer(match.group('cause'))]
    details = {'workflow': match.group('workflow'),
               'state': match.group('state'),
               'execution': match.group('execution'),
               'failed_tasks': tasks}
    if not tasks:
        details['state_info'] = match.group('cause')
    return match.group('cause'), details


def _deployment(reason, deployment, events):
    """(kind, cause, details) of a resource backed by a deployment."""
    output = deployment.get('output_values') or {}
    tail = stderr_tail(output.get(protocol.DEPLOY_STDERR))
    status = _status(deployment, 'status')
    dep_reason = _status(deployment, 'status_reason')
    progress = last_progress(events, deployment)
    details = {'deployment_status': status,
               'deployment_reason': dep_reason,
               'stderr_tail': tail,
               'status_code': output.get(protocol.DEPLOY_STATUS_CODE),
               'last_progress': progress}
    deadline = _DEADLINE.search(dep_reason) or _DEADLINE.search(reason)
    if deadline:
        return DEADLINE, deadline.group(1), details
    words = _tool_last_words(tail, dep_reason)
    if words and status != protocol.IN_PROGRESS:
        return DEPLOYMENT, words, details
    if status == protocol.IN_PROGRESS:
        if progress:
            cause = 'the deployment is still IN_PROGRESS; last progress: ' \
                    '%s at %s' % (progress['message'], progress['time'])
        else:
            cause = ('the server never signalled: the deployment is still '
                     'IN_PROGRESS (%s)' % (dep_reason or 'no reason'))
        return DEPLOYMENT, cause, details
    return DEPLOYMENT, dep_reason or own_reason(reason), details


def _explain(resource, events, deployment):
    """(kind, cause, details) of one looked-at resource."""
    reason = _status(resource, 'resource_status_reason')
    if not reason:
        failed = [e for e in events
                  if _status(e, 'resource_status').endswith('_FAILED')]
        if failed:
            reason = _status(failed[-1], 'resource_status_reason')
    if deployment is not None:
        return _deployment(reason, deployment, events)
    deadline = _DEADLINE.search(reason)
    if deadline:
        return DEADLINE, deadline.group(1), {}
    workflow = _workflow(reason)
    if workflow:
        return WORKFLOW, workflow[0], workflow[1]
    own = own_reason(reason)
    if _TIMED_OUT in own:
        action = _status(resource, 'resource_status').split('_')[0]
        return TIMEOUT, ('the stack timed out while its %s was in progress'
                         % action), {}
    if not own and _status(resource, 'resource_status').endswith(
            '_IN_PROGRESS'):
        own = 'still %s when the stack failed' % _status(
            resource, 'resource_status')
    return RESOURCE, own, {}


_RANK = {CAUSE: 0, STUCK: 1, CANCELLED: 2, ENCLOSING: 3, STACK: 4}


def _order(finding, resource):
    return (_RANK[finding.role], -len(finding.path),
            _status(resource, 'updated_time'), finding.path)


def events_by_path(items):
    grouped = collections.defaultdict(list)
    for item in items:
        grouped[tuple(item.get('path') or ())].append(item)
    for found in grouped.values():
        found.sort(key=lambda e: _status(e, 'event_time'))
    return grouped


def _from_events(events, since):
    """Findings from failure events alone (the resources are gone).

    The last failure of each resource since the stack's action began.
    """
    latest = {}
    for event in sorted(events, key=lambda e: _status(e, 'event_time')):
        if (_status(event, 'resource_status').endswith('_FAILED') and
                _status(event, 'event_time') >= since):
            latest[tuple(event.get('path') or ())] = event
    findings = []
    for path, event in latest.items():
        resource = {'path': list(path),
                    'resource_status': event.get('resource_status'),
                    'resource_status_reason':
                        event.get('resource_status_reason'),
                    'updated_time': event.get('event_time'),
                    'resource_type': event.get('resource_type'),
                    'physical_resource_id':
                        event.get('physical_resource_id')}
        kind, cause, details = _explain(resource, [event], None)
        findings.append((Finding(
            CAUSE, kind, list(path), resource['resource_type'],
            resource['resource_status'], None,
            resource['physical_resource_id'], cause,
            resource['resource_status_reason'], details), resource))
    return findings


def explain(stack, resources, events=(), deployments=None):
    """The Findings that explain a failed stack, most telling first.

    Failed resources that explain themselves first (the deepest first,
    then the earliest), then those left in progress or cancelled, then the
    resources that failed because of their nested stacks. Nothing if the
    stack did not fail.
    """
    if not stack_failed(stack):
        return []
    deployments = deployments or {}
    looked_at = [r for r in resources if failed_or_unfinished(r)]
    events_of = events_by_path(events)
    found = []
    for resource in looked_at:
        path = tuple(resource['path'])
        deployment = deployments.get(resource.get('physical_resource_id'))
        if not may_be_deployment(resource):
            deployment = None
        role = _role(resource, looked_at)
        if role == ENCLOSING:
            kind, cause, details = RESOURCE, own_reason(
                resource.get('resource_status_reason')), {}
        else:
            kind, cause, details = _explain(resource, events_of[path],
                                            deployment)
        found.append((Finding(
            role, kind, list(path), resource.get('resource_type'),
            resource.get('resource_status'), resource.get('stack_name'),
            resource.get('physical_resource_id') or None, cause,
            resource.get('resource_status_reason'), details), resource))
    if not found:
        # Heat's timestamps (ISO 8601, UTC) compare as text.
        found = _from_events(events, _status(stack, 'updated_time') or
                             _status(stack, 'creation_time'))
    found.sort(key=lambda pair: _order(*pair))
    findings = [f for f, _r in found]
    if not findings:
        reason = stack.get('stack_status_reason')
        findings.append(Finding(STACK, RESOURCE, [], None,
                                stack.get('stack_status'),
                                stack.get('stack_name'), stack.get('id'),
                                own_reason(reason) or 'no reason given',
                                reason, {}))
    return findings
