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
"""The `openstack lifecycle ...` commands.

Thin: each calls the user-side library (user_side.cause,
user_side.progress) or runs the heat-lifecycle-plugins command of the same
job (cmd.run_action) with a client that OSC's client manager
authenticated. Bad input, a stack or resource that is
not there or an unreachable cloud: one line on stderr and exit status 2;
missing credentials: OSC's own message and status 1.
"""

import sys

from osc_lib.command import command

from heat_lifecycle_plugins.cmd import cloud_options
from heat_lifecycle_plugins.cmd import run_action
from heat_lifecycle_plugins.cmd import why
from heat_lifecycle_plugins.osc import progress_watch
from heat_lifecycle_plugins.user_side import cause
from heat_lifecycle_plugins.user_side import errors
from heat_lifecycle_plugins.user_side import heat_api
from heat_lifecycle_plugins.user_side import progress
from heat_lifecycle_plugins.user_side import report

EXIT_ERROR = cloud_options.EXIT_ERROR


class LifecycleCommand(command.Command):
    """OSC authenticates before the command runs, as for its own commands.

    auth_required stays osc-lib's default (True): OSC's shell validates the
    cloud's options, authenticates and sets its user agent; a failure there
    is OSC's own message and status 1, as for every `openstack` command.
    We only read the client manager's public attributes (the client that
    plugin.make_client builds on its session), as python-heatclient's
    commands do; failures after that are our one line and status 2.
    """

    def heat(self):
        """python-heatclient on the session OSC authenticated."""
        return self.app.client_manager.lifecycle

    def run(self, parsed_args):
        try:
            return super(LifecycleCommand, self).run(parsed_args)
        except errors.UserSideError as exc:
            print('error: %s' % exc, file=sys.stderr)
            return EXIT_ERROR


class StackCommand(LifecycleCommand):
    """A command about one stack: its first argument."""

    def get_parser(self, prog_name):
        parser = super(StackCommand, self).get_parser(prog_name)
        parser.add_argument('stack', metavar='<stack>',
                            help='Name or ID of the stack')
        return parser

    def read(self, parsed_args, reader):
        """reader(heat client, stack), its failures one-line errors."""
        with heat_api.heat_errors(parsed_args.stack):
            return reader(self.heat(), parsed_args.stack)


class ListCauses(StackCommand, command.Lister):
    """Explain why a stack failed or what it is waiting for.

    Failed: its failing resources across nested stacks and chain members,
    the deepest cause first, with the tool's stderr, the Mistral task that
    failed or the deadline that fired. In progress: each deployment still
    waiting, with its last progress, how long ago, the deadlines that will
    fire and how its server signals. Exit status 1 when the stack failed.
    """

    def take_action(self, parsed_args):
        stack, findings = self.read(parsed_args, cause.diagnose)
        self.status = why.exit_status(stack)
        return report.ROW_COLUMNS, report.rows(findings)

    def run(self, parsed_args):
        self.status = EXIT_ERROR
        shown = super(ListCauses, self).run(parsed_args)
        return shown or self.status


class RunAction(LifecycleCommand):
    """Run a day-two action of a deployment or external resource.

    Requests ACTION (BACKUP, or UPDATE to re-apply) as a stack update
    --existing of the parameters the template wires to the resource's
    action_request, prints its events while it runs, then its outputs or
    why it failed. RESOURCE may be a path into nested stacks and chain
    members (chain.3.deploy). Exit status 0 succeeded, 1 failed.
    """

    def get_parser(self, prog_name):
        parser = super(RunAction, self).get_parser(prog_name)
        run_action.add_arguments(parser, None)
        return parser

    def take_action(self, parsed_args):
        return run_action.run(parsed_args, client=self.heat)


class ListProgress(StackCommand, command.Lister):
    """List every deployment of a stack with its latest progress.

    Nested stacks and chain members included: status, time since its
    action began and the last progress message (the agent's or a
    milestone the tool reported with heat-lifecycle-progress).
    """

    def take_action(self, parsed_args):
        _stack, found = self.read(parsed_args, progress.read)
        return progress.COLUMNS, found


class WatchProgress(StackCommand):
    """Follow every deployment of a stack until they end.

    A line per deployment, updated in place with its latest progress and
    elapsed time on a terminal; a line per change otherwise. Exit status
    0 when everything completed, 1 when something failed (or --timeout
    passed), 130 on Ctrl-C (the stack goes on).
    """

    def get_parser(self, prog_name):
        parser = super(WatchProgress, self).get_parser(prog_name)
        parser.add_argument('--interval', type=float, default=2.0,
                            metavar='<seconds>',
                            help='Seconds between reads (default 2)')
        parser.add_argument('--timeout', type=int, default=None,
                            metavar='<seconds>',
                            help='Stop following after this many seconds')
        return parser

    def take_action(self, parsed_args):
        if parsed_args.interval <= 0:
            raise errors.UserSideError('--interval must be positive')
        out = self.app.stdout
        return self.read(parsed_args, lambda hc, stack: progress_watch.watch(
            hc, stack, out, out.isatty(), parsed_args.interval,
            parsed_args.timeout))
