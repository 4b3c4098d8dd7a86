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
"""How findings are shown: text lines, JSON data, table rows.

The findings come from diagnosis.explain (a failed stack) and
waiting.explain (a stack in progress); `why` prints the text or JSON,
`openstack lifecycle cause list` the rows.
"""

import collections

from heat_lifecycle_plugins.user_side import diagnosis
from heat_lifecycle_plugins.user_side import waiting


def as_dict(stack, findings):
    """The report as JSON-ready data (`why --json`)."""
    return {
        'stack': {'id': stack.get('id'), 'name': stack.get('stack_name'),
                  'status': stack.get('stack_status'),
                  'reason': stack.get('stack_status_reason')},
        'failed': diagnosis.stack_failed(stack),
        'in_progress': str(stack.get('stack_status') or '').endswith(
            '_IN_PROGRESS'),
        'findings': [dict(f._asdict(), resource=f.path[-1] if f.path
                          else None) for f in findings],
    }


def _where(finding):
    return '/'.join(finding.path) or '(the stack itself)'


def detail_lines(finding):
    details = finding.details
    lines = []
    if details.get('stderr_tail'):
        lines.append('stderr (last lines):')
        lines += ['  ' + line for line in details['stderr_tail']]
    if details.get('status_code') not in (None, '', 0, '0'):
        lines.append('status code: %s' % details['status_code'])
    if details.get('last_progress'):
        lines.append('last progress: %(message)s (at %(time)s)'
                     % details['last_progress'])
    said = details.get('deployment_reason')
    if said and said in str(finding.reason or ''):
        said = None  # the resource's reason quotes it
    if details.get('deployment_status'):
        lines.append(' '.join(filter(None, (
            'deployment:', details['deployment_status'], said))))
    for task in details.get('failed_tasks') or ():
        lines.append('failed task: %(task)s: %(error)s' % task)
    if details.get('state_info'):
        lines.append('state_info: %s' % details['state_info'])
    if details.get('execution'):
        lines.append('workflow: %s, execution %s (%s)' % (
            details['workflow'], details['execution'], details['state']))
    return lines


def cause_line(finding, findings):
    if finding.role != diagnosis.ENCLOSING:
        return finding.cause or 'no reason given'
    below = ['[%d]' % number for number, other in enumerate(findings, 1)
             if other.role != diagnosis.ENCLOSING and
             diagnosis.is_below(finding.path, other.path)]
    return 'its nested stack failed: see %s' % ', '.join(below)


def _failed_lines(stack, findings):
    """The report as text lines, the root cause first."""
    name = stack.get('stack_name') or stack.get('id')
    if not diagnosis.stack_failed(stack):
        return ['stack %s is %s: nothing failed' % (
            name, stack.get('stack_status'))]
    counts = collections.Counter(f.role for f in findings)
    lines = ['stack %s %s: %s' % (name, stack.get('stack_status'), ', '.join(
        '%d %s' % (counts[role], role) for role in diagnosis.ROLES
        if counts[role]))]
    for number, finding in enumerate(findings, 1):
        lines.append('')
        lines.append('[%d] %s  %s  %s  (%s)' % (
            number, _where(finding), finding.type or '-',
            finding.status or '-', finding.role))
        lines.append('    cause: %s' % cause_line(finding, findings))
        if finding.role == diagnosis.ENCLOSING:
            continue
        if len(finding.path) > 1 and finding.stack_name:
            lines.append('    in stack: %s' % finding.stack_name)
        lines += ['    ' + line for line in detail_lines(finding)]
        own = diagnosis.own_reason(finding.reason)
        if finding.reason and own != finding.cause:
            lines.append('    reason: %s' % finding.reason)
    return lines


def waiting_detail_lines(finding):
    lines = []
    for deadline in finding.details.get('deadlines') or ():
        lines.append('deadline: %(name)s fires at %(fires_at)s (in %(in_'
                     'seconds)d s)' % deadline)
    route = finding.details.get('signal') or {}
    if route.get('transport'):
        lines.append('signals: %s%s' % (route['transport'], (
            ' to %s' % route['endpoint']) if route.get('endpoint') else ''))
    if route.get('note'):
        lines.append('note: %s' % route['note'])
    return lines


def _waiting_lines(stack, findings):
    name = stack.get('stack_name') or stack.get('id')
    lines = ['stack %s %s: %d deployment(s) waiting' % (
        name, stack.get('stack_status'), len(findings))]
    for number, finding in enumerate(findings, 1):
        lines.append('')
        lines.append('[%d] %s  %s  %s  (%s)' % (
            number, '/'.join(finding.path), finding.type,
            finding.status, waiting.WAITING))
        lines.append('    cause: %s' % finding.cause)
        lines += ['    ' + line for line in detail_lines(finding)]
    return lines


def render(stack, findings):
    if waiting.stack_in_progress(stack):
        return _waiting_lines(stack, findings)
    return _failed_lines(stack, findings)


ROW_COLUMNS = ('#', 'Resource', 'Type', 'Status', 'Role', 'Cause',
               'Details')


def rows(findings):
    """The findings as table rows (`openstack lifecycle cause list`)."""
    found = []
    for number, finding in enumerate(findings, 1):
        details = detail_lines(finding)
        if finding.role == waiting.WAITING:
            details = waiting_detail_lines(finding)
        found.append((number, '/'.join(finding.path) or '-',
                      finding.type or '-', finding.status or '-',
                      finding.role, cause_line(finding, findings),
                      '\n'.join(details)))
    return found
