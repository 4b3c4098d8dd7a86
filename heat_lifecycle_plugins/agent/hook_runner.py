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
"""Finding and running a group's hook with heat-agents' contract.

The hook gets the deployment as JSON on stdin and prints a JSON map on
stdout: outputs by name plus deploy_stdout, deploy_stderr and
deploy_status_code. It runs in its own session so that a time limit kills
the tool it started too.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from oslo_log import log as logging

from heat_lifecycle_plugins.agent import ansible_progress
from heat_lifecycle_plugins.agent import milestones
from heat_lifecycle_plugins import protocol

LOG = logging.getLogger(__name__)

PACKAGED_HOOKS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                  'hooks')
# A hooks directory named so is PACKAGED_HOOKS_DIR: `--hooks-dir @packaged`
# puts our hooks before heat-agents' on an image that has both.
PACKAGED = '@packaged'
KILL_GRACE_SECONDS = 5
RUN_TIMEOUT_GRACE_MAX = 30  # seconds past a run_timeout, at most
HOOK_POLL = 1.0  # seconds between two looks at whether the hook was killed
# Status codes reported for failures of the agent itself: a deployment it
# could not run, and as shells do, a hook that timed out, is missing or
# could not be started.
ERROR_STATUS = 1
TIMED_OUT = 124
NOT_FOUND = 127
NOT_RUN = 126
KILLED_BASE = 128  # + the signal's number, as shells report it


class HookResult(object):
    """What a hook run produced, with the reason when it failed."""

    def __init__(self, status_code, stdout='', stderr='', outputs=None,
                 reason=None):
        self.status_code = status_code
        self.stdout = stdout
        self.stderr = stderr
        self.outputs = outputs or {}
        self.reason = reason

    @property
    def failed(self):
        return self.status_code != 0


class TimeLimit(object):
    """How long a hook may run, and the reason given when it runs out."""

    def __init__(self, seconds, reason):
        self.seconds = seconds
        self.reason = reason  # % the hook's name


def run_timeout_grace(run_timeout):
    """Seconds the agent waits past a run_timeout before it kills.

    Heat fails the deployment at its run_timeout, counted from the
    delivery; the agent counts from the hook's start, later, and waits a
    little longer still, so that Heat's own reason is the one users see.
    """
    return min(RUN_TIMEOUT_GRACE_MAX, max(1.0, run_timeout / 10.0))


def time_limit(cap, run_timeout):
    """The hook's TimeLimit: the shorter of the two; None: no limit.

    cap: the operator's hook_timeout; run_timeout: the deployment's own
    deadline, after which Heat no longer waits for the result.
    """
    limits = []
    if run_timeout:
        limits.append(TimeLimit(
            run_timeout + run_timeout_grace(run_timeout),
            'hook %%s outlived the deployment\'s run_timeout (%g s) and was '
            'killed' % run_timeout))
    if cap:
        limits.append(TimeLimit(cap, 'hook %%s did not finish within %s '
                                'seconds (hook_timeout) and was killed'
                                % cap))
    return min(limits, key=lambda limit: limit.seconds) if limits else None


def find_hook(name, hooks_dirs):
    """Path of hook `name`, searched in `hooks_dirs` then our own hooks.

    An entry PACKAGED of `hooks_dirs` stands for our own hooks' directory.
    """
    for directory in list(hooks_dirs) + [PACKAGED_HOOKS_DIR]:
        if directory == PACKAGED:
            directory = PACKAGED_HOOKS_DIR
        if directory:
            path = os.path.join(directory, name)
            if os.path.isfile(path):
                return path
    return None


def _command(path):
    # Our own hooks are Python files that may lose their mode bit in a
    # wheel: run them with this interpreter.
    if os.path.realpath(os.path.dirname(path)) == os.path.realpath(
            PACKAGED_HOOKS_DIR):
        return [sys.executable, path]
    return [path]


def _kill(proc):
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(KILL_GRACE_SECONDS)
            return
        except subprocess.TimeoutExpired:
            continue


def _text(data):
    return (data or b'').decode('utf-8', 'replace')


class Progress(object):
    """What the agent does while a hook runs, and when.

    heartbeat(seconds running) every `interval` seconds without a
    milestone; milestone(latest, how many earlier ones it replaces) at
    most every `milestone_interval` seconds, when the tool reported any.
    None or a 0 interval: not done. Every hook gets the milestone file
    (in `directory`, the agent's state directory), command and Ansible
    callback all the same: a tool reporting milestones never breaks.
    ready(): whether signals may be sent yet (the first one was answered);
    until then nothing is sent and the milestones wait in their file.
    """

    def __init__(self, heartbeat=None, interval=0, milestone=None,
                 milestone_interval=0, directory=None, ready=None):
        self.heartbeat = heartbeat if interval > 0 else None
        self.interval = interval
        self.milestone = milestone if milestone_interval > 0 else None
        self.milestone_interval = milestone_interval
        self.journal = milestones.Journal(directory)
        self.ready = ready or (lambda: True)

    def start(self, now):
        self.started = now
        self.next_beat = now + self.interval
        self.next_read = now + self.milestone_interval

    def due(self):
        """When something is next to be done; None: nothing ever."""
        times = ([self.next_beat] if self.heartbeat else []) + (
            [self.next_read] if self.milestone else [])
        return min(times) if times else None

    def tick(self, now):
        if not self.ready():
            return
        if self.milestone and now >= self.next_read:
            found = self.journal.read_new()
            if found:
                self.milestone(found[-1], len(found) - 1)
                self.next_beat = now + self.interval  # a sign of life
            self.next_read = now + self.milestone_interval
        if self.heartbeat and now >= self.next_beat:
            self.heartbeat(now - self.started)
            self.next_beat = time.monotonic() + self.interval

    def environment(self):
        return ansible_progress.environment(
            self.journal.environment(os.environ))

    def tool_failure(self):
        """What the tool reported as its first failure, or None."""
        self.journal.read_new()
        failures = self.journal.failures
        if not failures:
            return None
        more = len(failures) - 1
        return failures[0] + (' (and %d more failure%s)' % (
            more, '' if more == 1 else 's') if more else '')

    def close(self):
        self.journal.remove()


def run(path, deployment, limit, progress=None):
    """Run the hook at `path` for `deployment`; always a HookResult.

    limit: a TimeLimit, or None to let the hook run until it ends.
    progress: a Progress, told about time passing while the hook runs.
    """
    progress = progress or Progress()
    try:
        result = _run(path, deployment, limit, progress)
        failure = progress.tool_failure() if result.failed else None
        if failure:
            # The tool's own words first: Heat's events keep 255
            # characters of a reason.
            result.reason = ('%s (%s)' % (failure, result.reason)
                             if result.reason else failure)
        return result
    finally:
        progress.close()


def _stdin_of(deployment):
    """The hook's input, whole in an unnamed file before the hook starts.

    Not a pipe: communicate() retried after a timeout never sends the
    rest of an input it began (CPython registers stdin only when given
    input), so a hook slow to read a payload over the pipe's 64 KiB
    would wait for its end for ever.
    """
    stdin = tempfile.TemporaryFile()
    stdin.write(json.dumps(ansible_progress.with_callback_option(
        deployment)).encode('utf-8'))
    stdin.seek(0)
    return stdin


def _run(path, deployment, limit, progress):
    try:
        with _stdin_of(deployment) as stdin:
            proc = subprocess.Popen(_command(path), stdin=stdin,
                                    stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE,
                                    env=progress.environment(),
                                    start_new_session=True)
    except OSError as exc:
        return HookResult(NOT_RUN, reason='hook %s could not be started: %s'
                          % (path, exc))
    progress.start(time.monotonic())
    deadline = time.monotonic() + limit.seconds if limit else float('inf')
    while True:
        now = time.monotonic()
        wait = min(deadline, progress.due() or deadline, now + HOOK_POLL)
        try:
            # Retried after a timeout: no output is lost.
            stdout, stderr = proc.communicate(timeout=max(wait - now, 0))
            break
        except subprocess.TimeoutExpired:
            pass
        if proc.poll() is not None and proc.returncode < 0:
            _kill(proc)  # killed; the tools holding its pipes go too
        now = time.monotonic()
        if now >= deadline:
            _kill(proc)
            stdout, stderr = proc.communicate()
            return HookResult(TIMED_OUT, _text(stdout), _text(stderr),
                              reason=limit.reason % os.path.basename(path))
        progress.tick(now)
    if proc.returncode < 0:
        # A hook killed by a signal leaves its tools unsupervised: stop
        # them too (a hook that exits leaves its daemons alone).
        _kill(proc)
    return hook_result(path, proc.returncode, _text(stdout), _text(stderr))


def hook_result(path, returncode, stdout, stderr):
    """The result of a hook that exited with `returncode`.

    A non-zero exit is a failure whatever the hook printed. Reasons name
    the hook by its group, not its path: Heat keeps 255 characters of an
    event's reason, and the tool's stderr comes after this.
    """
    hook = 'hook %s' % os.path.basename(path)
    if returncode < 0:
        return HookResult(KILLED_BASE - returncode, stdout, stderr,
                          reason='%s was killed by %s' % (
                              hook, _signal_name(-returncode)))
    try:
        data = json.loads(stdout) if stdout.strip() else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        if returncode:
            return HookResult(returncode, stdout, stderr,
                              reason='%s exited with status %s'
                                     % (hook, returncode))
        return HookResult(1, stdout, stderr,
                          reason='%s printed no JSON map on stdout' % hook)

    outputs = {k: v for k, v in data.items()
               if k not in protocol.SIGNAL_KEYS}
    tool_stdout = _as_text(data.get(protocol.DEPLOY_STDOUT))
    tool_stderr = _as_text(data.get(protocol.DEPLOY_STDERR))
    raw_code = data.get(protocol.DEPLOY_STATUS_CODE, 0)
    try:
        code = int(raw_code if raw_code is not None else 0)
    except (TypeError, ValueError):
        return HookResult(1, tool_stdout, tool_stderr, outputs,
                          reason='%s returned a %s that is not a '
                                 'number: %r' % (hook,
                                                 protocol.DEPLOY_STATUS_CODE,
                                                 raw_code))
    if code:
        return HookResult(code, tool_stdout, tool_stderr, outputs,
                          reason='%s: the tool exited with status %s'
                                 % (hook, code))
    if returncode:
        # The hook crashed after printing a result: never a success.
        return HookResult(returncode, tool_stdout,
                          _join(tool_stderr, stderr), outputs,
                          reason='%s exited with status %s'
                                 % (hook, returncode))
    return HookResult(0, tool_stdout, tool_stderr, outputs)


def _signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return 'signal %d' % number


def _as_text(value):
    if value is None:
        return ''
    return value if isinstance(value, str) else json.dumps(value)


def _join(first, second):
    return first + ('\n' if first and second else '') + second
