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
"""Milestones a tool reports while its hook runs.

The agent gives each hook run a file, named in the hook's environment as
HEAT_LIFECYCLE_PROGRESS_FILE; the tools a hook starts inherit it. A tool
appends one line per milestone: plain text, or the JSON map that
`heat-lifecycle-progress MESSAGE [--percent N]` writes (the command is on
the hook's PATH). The agent reads new lines at most once per
milestone_interval and relays the latest as an IN_PROGRESS signal, so a
chatty tool cannot flood heat-api. A JSON line with "failed": true (our
Ansible callback writes one per failed task) is a milestone too, and the
first one names the failure in the reason of a failed deployment.
"""

import argparse
import collections
import glob
import json
import os
import sys
import sysconfig
import tempfile

ENV = 'HEAT_LIFECYCLE_PROGRESS_FILE'
PREFIX = 'heat-lifecycle-progress-'
MAX_MESSAGE = 200  # characters; Heat keeps 255 of an event's reason
MAX_LINE = 4096    # bytes read of one line; the rest is dropped

Milestone = collections.namedtuple('Milestone', 'message percent failed',
                                   defaults=(False,))


def parse(line):
    """The Milestone of one line, or None for a blank one."""
    text = line.decode('utf-8', 'replace').strip()
    if not text:
        return None
    message, percent, failed = text, None, False
    if text.startswith('{'):
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict) and 'message' in data:
            message = str(data['message']).strip()
            percent = _percent(data.get('percent'))
            failed = data.get('failed') is True
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE - 3] + '...'
    return Milestone(message, percent, failed)


def _percent(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return int(value) if 0 <= value <= 100 else None


def remove_stale(directory):
    """Remove the files of hook runs an agent killed mid-run left behind."""
    for path in glob.glob(os.path.join(directory, PREFIX + '*')):
        try:
            os.unlink(path)
        except OSError:
            pass


class Journal(object):
    """The agent's side: the file of one hook run, read as it grows.

    It lives in the agent's state directory (`directory`): a run killed
    before it removed its file leaves it there, for the next pass's
    remove_stale(), never in the system's temporary directory.
    """

    def __init__(self, directory=None):
        fd, self.path = tempfile.mkstemp(prefix=PREFIX, dir=directory)
        os.close(fd)
        self._offset = 0
        self._partial = b''
        self.failures = []  # the messages of the failed lines read

    def environment(self, environ):
        """The hook's environment: the file, and our command on PATH."""
        env = dict(environ)
        env[ENV] = self.path
        env['PATH'] = os.pathsep.join(
            p for p in (sysconfig.get_path('scripts'), env.get('PATH'))
            if p)
        return env

    def read_new(self):
        """The milestones of the lines completed since the last read."""
        try:
            with open(self.path, 'rb') as f:
                f.seek(self._offset)
                data = f.read()
        except OSError:
            return []
        self._offset += len(data)
        lines = (self._partial + data).split(b'\n')
        self._partial = lines.pop()[:MAX_LINE]
        found = [m for m in (parse(line[:MAX_LINE]) for line in lines)
                 if m is not None]
        self.failures += [m.message for m in found if m.failed]
        return found

    def remove(self):
        try:
            os.unlink(self.path)
        except OSError:
            pass


def _parser():
    parser = argparse.ArgumentParser(
        prog='heat-lifecycle-progress',
        description='Report a milestone of the tool that heat-lifecycle-'
                    'agent runs: the agent relays it to Heat as the '
                    'deployment\'s progress.')
    parser.add_argument('message', help='what the tool is doing now')
    parser.add_argument('--percent', type=int, choices=range(0, 101),
                        metavar='0-100', help='how far it is')
    return parser


def main(argv=None, environ=None):
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    environ = os.environ if environ is None else environ
    path = environ.get(ENV)
    if not path:
        sys.stderr.write('heat-lifecycle-progress: %s is not set: not run '
                         'by a heat-lifecycle-agent hook\n' % ENV)
        return 2
    if not args.message.strip():
        sys.stderr.write('heat-lifecycle-progress: the message is empty\n')
        return 2
    line = json.dumps({'message': args.message, 'percent': args.percent})
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        try:
            os.write(fd, line.encode('utf-8') + b'\n')  # one append
        finally:
            os.close(fd)
    except OSError as exc:
        sys.stderr.write('heat-lifecycle-progress: %s: %s\n'
                         % (path, exc.strerror))
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
