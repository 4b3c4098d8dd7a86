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
"""Ansible callback: task starts and failures as heat-lifecycle milestones.

Loaded by ansible-playbook from the callback path heat-lifecycle-agent
gives a hook (ANSIBLE_CALLBACK_PLUGINS, added to the user's); it needs no
callbacks_enabled entry (CALLBACK_NEEDS_ENABLED False), so the user's list
stays as it is. It runs in ansible's Python, which need not have
heat_lifecycle_plugins: it writes the lines heat-lifecycle-progress writes,
one O_APPEND write each, to $HEAT_LIFECYCLE_PROGRESS_FILE, and does
nothing without it. A failure line carries "failed": true; the agent names
the first one in the deployment's reason. Never raises into ansible.
Written against ansible-core 2.15 (3.9) to 2.20 (3.14): the result's
host/task/result attributes, or _host/_task/_result before 2.19.
"""

import json
import os

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = '''
name: heat_lifecycle_progress
type: notification
short_description: reports Ansible tasks to heat-lifecycle-agent
description:
  - Writes each task start and each failure as a milestone line to the file
    named by HEAT_LIFECYCLE_PROGRESS_FILE; nothing without it.
'''

ENV = 'HEAT_LIFECYCLE_PROGRESS_FILE'
MAX_NAME = 80      # characters of a task's or play's name
MAX_MESSAGE = 150  # characters of a module's message
NO_LOG = 'output hidden (no_log: true)'


def _cut(text, limit):
    text = ' '.join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + '...'


def _part(result, name):
    # ansible-core 2.19 made host/task/result public, keeping the
    # underscored names (deprecated) that older releases have only.
    value = getattr(result, name, None)
    return value if value is not None else getattr(result, '_' + name, None)


def _tasks(items):
    """The tasks of a play's blocks, without rescue ones, in order."""
    for item in items:
        if isinstance(item, list):
            for task in _tasks(item):
                yield task
        elif hasattr(item, 'block'):
            for task in _tasks(list(item.block) + list(item.always)):
                yield task
        else:
            yield item


def _message(data):
    """The module's message of a failed result (a map)."""
    if data.get('_ansible_no_log'):
        return NO_LOG
    if data.get('msg'):
        text = data['msg']
        failed = [item for item in data.get('results') or []
                  if isinstance(item, dict) and item.get('failed')]
        if failed:  # a loop: the first failed item says what went wrong
            text = '%s (first: %s)' % (text, _message(failed[0]))
        return text
    for key in ('stderr', 'stdout', 'reason'):
        if data.get(key):
            return data[key]
    if 'rc' in data:
        return 'non-zero return code %s' % data['rc']
    return 'failed'


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'notification'
    CALLBACK_NAME = 'heat_lifecycle_progress'
    CALLBACK_NEEDS_ENABLED = False

    def __init__(self, *args, **kwargs):
        super(CallbackModule, self).__init__(*args, **kwargs)
        self._path = os.environ.get(ENV)
        self._plays = 0
        self._play = None
        self._total = None
        self._started = 0

    def _write(self, line):
        if not self._path:
            return
        try:
            fd = os.open(self._path, os.O_WRONLY | os.O_APPEND)
            try:
                os.write(fd, json.dumps(line).encode('utf-8') + b'\n')
            finally:
                os.close(fd)
        except (OSError, TypeError, ValueError):
            pass  # progress is never a reason to fail the playbook

    def v2_playbook_on_start(self, playbook):
        try:
            self._plays = len(playbook.get_plays())
        except Exception:
            self._plays = 0

    def v2_playbook_on_play_start(self, play):
        self._play = _cut(play.get_name(), MAX_NAME)
        self._started = 0
        try:
            tasks = list(_tasks(play.get_tasks()))
            dynamic = play.roles or any(
                getattr(t, 'action', '') in (
                    'include_tasks', 'include_role', 'include',
                    'ansible.builtin.include_tasks',
                    'ansible.builtin.include_role') for t in tasks)
            self._total = None if dynamic else len(tasks)
        except Exception:
            self._total = None

    def _task_started(self, task, kind):
        text = '%s [%s]' % (kind, _cut(task.get_name(), MAX_NAME))
        if kind == 'TASK' and not getattr(task, 'implicit', False):
            self._started += 1
            if self._total and self._started <= self._total:
                text += ' (%d of %d)' % (self._started, self._total)
            else:
                text += ' (task %d)' % self._started
        if self._plays > 1 and self._play:
            text += ', play [%s]' % self._play
        self._write({'message': text})

    def v2_playbook_on_task_start(self, task, is_conditional):
        self._task_started(task, 'TASK')

    def v2_playbook_on_handler_task_start(self, task):
        self._task_started(task, 'HANDLER')

    def _failed(self, result, what):
        try:
            task, host = _part(result, 'task'), _part(result, 'host')
            data = _part(result, 'result') or {}
            text = 'task [%s] %s on %s: %s' % (
                _cut(task.get_name(), MAX_NAME), what,
                _cut(host.get_name(), MAX_NAME),
                _cut(_message(data), MAX_MESSAGE))
        except Exception as exc:
            text = 'a task %s (%s)' % (what, type(exc).__name__)
        self._write({'message': text, 'failed': True})

    def v2_runner_on_failed(self, result, ignore_errors=False):
        if not ignore_errors:
            self._failed(result, 'failed')

    def v2_runner_on_unreachable(self, result):
        self._failed(result, 'unreachable')
