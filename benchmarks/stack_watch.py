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
"""Wait for a stack's action from outside the engine's process.

The in-process benchmarks time an operation until the stack's action
ends. Asking the engine (show_stack through its RPC API) every 20 ms ran
Heat's code in the engine's own process, on its GIL: 2-7 % of an
operation's wall time in Python work, and more for a flat stack of 100
than for a chain (profiles of 2026-11-27). A StackWatch instead runs
this module in a process of its own, which reads the stack's row from
Heat's database every 20 ms and answers on a pipe; the benchmark's
thread waits on the pipe, holding no GIL.

Protocol, one JSON object a line: the benchmark writes {"seq", "id",
"action", "every"}; the watch answers {"seq", "action", "status",
"reason", "name"} once the action has ended (or "status": null when the
row is gone), and {"seq", "waiting": true, ...} every second before that,
so that the benchmark keeps its deadline and its own checks. A new line
replaces the stack being watched.
"""

import json
import os
import select
import subprocess
import sys
import time

TERMINAL = ('COMPLETE', 'FAILED')
QUERY = ('SELECT action, status, status_reason, name FROM stack '
         'WHERE id = :id')
REPORT_EVERY = 1.0


class StackWatchError(RuntimeError):
    """The action ended otherwise, not in time, or the watch is gone."""


def verdict(row, action):
    """'ended', 'gone' or 'waiting', for a row (action, status, ...)."""
    if row is None:
        return 'gone'
    if row[0] == action and row[1] in TERMINAL:
        return 'ended'
    return 'waiting'


class StackWatch(object):
    """The watching process and the benchmark's side of the pipe."""

    def __init__(self, db_url, every=0.02):
        self.db_url = db_url
        self.every = every
        self.seq = 0
        self.proc = None

    def start(self):
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        self.proc = subprocess.Popen(
            [sys.executable, '-m', 'benchmarks.stack_watch', self.db_url],
            cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, bufsize=1)
        return self

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def wait(self, stack_id, action, timeout, expect='COMPLETE',
             on_poll=None):
        """Until the stack's `action` ends `expect`; its row as a dict.

        None when the row is gone and the action was DELETE. on_poll()
        runs about every second while it waits (it may raise to stop).
        """
        self.seq += 1
        self.proc.stdin.write(json.dumps({
            'seq': self.seq, 'id': stack_id, 'action': action,
            'every': self.every}) + '\n')
        deadline = time.monotonic() + timeout
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise StackWatchError(
                    'the stack watch exited (%s)' % self.proc.poll())
            answer = json.loads(line)
            if answer['seq'] != self.seq:
                continue  # of a wait that stopped early
            if not answer.get('waiting'):
                return self._ended(answer, action, expect)
            if on_poll is not None:
                on_poll()
            if time.monotonic() > deadline:
                raise StackWatchError('%s: %s did not end in %ss (%s_%s)' % (
                    answer.get('name'), action, timeout,
                    answer.get('action'), answer.get('status')))

    @staticmethod
    def _ended(answer, action, expect):
        if answer['status'] is None:
            if action == 'DELETE':
                return None
            raise StackWatchError('the stack is gone while %s ran' % action)
        if expect and answer['status'] != expect:
            raise StackWatchError('%s %s_%s: %s' % (
                answer['name'], action, answer['status'], answer['reason']))
        return answer


def _watch(connection, command, out):
    """Poll one stack until it ends or a new command arrives; that one."""
    import sqlalchemy
    query = sqlalchemy.text(QUERY)
    reported = time.monotonic()
    while True:
        row = connection.execute(query, {'id': command['id']}).first()
        found = verdict(row, command['action'])
        answer = {'seq': command['seq']}
        if row is not None:
            answer.update(action=row[0], status=row[1], reason=row[2],
                          name=row[3])
        if found != 'waiting':
            if found == 'gone':
                answer['status'] = None
            out.write(json.dumps(answer) + '\n')
            out.flush()
            return None
        if time.monotonic() - reported >= REPORT_EVERY:
            reported = time.monotonic()
            out.write(json.dumps(dict(answer, waiting=True)) + '\n')
            out.flush()
        # The pause between two reads: a new command ends it.
        if select.select([sys.stdin], [], [], command['every'])[0]:
            return sys.stdin.readline()


def main(argv):
    import sqlalchemy
    engine = sqlalchemy.create_engine(argv[0], isolation_level='AUTOCOMMIT')
    with engine.connect() as connection:
        line = sys.stdin.readline()
        while line:
            line = (_watch(connection, json.loads(line), sys.stdout) or
                    sys.stdin.readline())
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
