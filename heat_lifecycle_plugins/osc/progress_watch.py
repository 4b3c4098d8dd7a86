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
"""`openstack lifecycle progress watch`: the rows redrawn until they end.

user_side.progress reads them; this shows them in place on a terminal,
as a line per change when stdout is not one, and gives the exit status.
"""

import time

from heat_lifecycle_plugins.user_side import progress

EXIT_OK, EXIT_FAILED, EXIT_INTERRUPTED = 0, 1, 130


def outcome(stack, rows):
    """Exit status once ended: 0 all complete, 1 anything failed."""
    return EXIT_FAILED if progress.failed(stack, rows) else EXIT_OK


def _line(r, width):
    return '%-*s  %-11s %6s  %s' % (width, r[0], r[1], r[2], r[3])


class Watch(object):
    """Redraws the rows on a terminal; prints changed rows otherwise."""

    def __init__(self, out, terminal):
        self.out, self.terminal = out, terminal
        self.drawn, self.said = 0, {}

    def show(self, stack, rows):
        width = max([len(r[0]) for r in rows] + [10])
        head = 'stack %s %s' % (stack['stack_name'], stack['stack_status'])
        if self.terminal:
            lines = [head] + [_line(r, width) for r in rows]
            if self.drawn:
                self.out.write('\x1b[%dF' % self.drawn)
            self.out.write(''.join('\x1b[2K%s\n' % line for line in lines))
            self.drawn = len(lines)
        else:
            news = [('', stack['stack_status'], head)] + [
                (r[0], (r[1], r[3]), _line(r, width)) for r in rows]
            for key, state, text in news:
                if self.said.get(key) != state:  # elapsed alone is no news
                    self.said[key] = state
                    self.out.write(text + '\n')
        self.out.flush()


def watch(hc, stack_ref, out, terminal, interval=2.0, timeout=None):
    """Follow until everything ended (or timeout s); the exit status."""
    shown = Watch(out, terminal)
    deadline = time.monotonic() + timeout if timeout else None
    try:
        while True:
            stack, rows = progress.read(hc, stack_ref)
            shown.show(stack, rows)
            if progress.ended(stack, rows):
                return outcome(stack, rows)
            if deadline is not None and time.monotonic() > deadline:
                out.write('still in progress after %d s (--timeout)\n'
                          % timeout)
                return EXIT_FAILED
            time.sleep(interval)
    except KeyboardInterrupt:
        out.write('interrupted: the stack goes on without us\n')
        out.flush()
        return EXIT_INTERRUPTED
