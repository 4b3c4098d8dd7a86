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
"""`heat-lifecycle-plugins run-action STACK RESOURCE ACTION`: a day-two run.

Thin: its arguments, printing and exit status over user_side.action_run,
which requests ACTION of a deployment or external resource on a running
stack as its user would (a PATCH stack update of the parameters the
template wires to the resource's request properties) and follows it.
This prints the resource's new events while it runs, then the result:
the outputs, or why it failed (the `why` command's diagnosis).

The client and authentication are cloud_options'. Exit status: 0 the
action succeeded (or was requested, with --no-wait), 1 it failed, 2 bad
arguments, a resource not wired for requests, or Heat unreachable.
"""

import argparse
import json
import sys

from heat_lifecycle_plugins.cmd import cloud_options
from heat_lifecycle_plugins.user_side import action_run
from heat_lifecycle_plugins.user_side import cause
from heat_lifecycle_plugins.user_side import errors
from heat_lifecycle_plugins.user_side import heat_api
from heat_lifecycle_plugins.user_side import report
from heat_lifecycle_plugins.user_side import request_plan as rp

EXIT_OK, EXIT_FAILED, EXIT_ERROR = 0, 1, 2
OWN_ARGUMENTS = cloud_options.OWN_ARGUMENTS + (
    'resource', 'action', 'input', 'wait', 'wait_timeout', 'poll')


def add_arguments(parser, argv):
    parser.add_argument('stack', metavar='STACK',
                        help='name or id of the stack')
    parser.add_argument('resource', metavar='RESOURCE',
                        help='the deployment or external resource')
    parser.add_argument('action', metavar='ACTION',
                        help='the action: a custom action of the resource '
                             '(BACKUP) or UPDATE to re-apply it')
    parser.add_argument('--input', action='append', default=[],
                        metavar='KEY=VALUE',
                        help='an input of this run only (repeatable); '
                             'reaches the tool as an input of the '
                             'deployment (the workflow\'s input for an '
                             'external resource)')
    parser.add_argument('--wait', default=True,
                        action=argparse.BooleanOptionalAction,
                        help='wait for the action and print its events and '
                             'result (default; --no-wait only requests it)')
    parser.add_argument('--wait-timeout', type=int, default=3600,
                        help='seconds to wait (default 3600)')
    parser.add_argument('--poll', type=float, default=2.0,
                        help=argparse.SUPPRESS)
    cloud_options.add_cloud_arguments(parser, argv)


def _event_line(event):
    """An event as heat-api gives it (resource_status is ACTION_STATUS)."""
    return '%s %s %s: %s' % (
        event.get('event_time'), event.get('resource_name'),
        event.get('resource_status'), event.get('resource_status_reason'))


def _print(text):
    print(text)
    sys.stdout.flush()


def _result(current, args, stack):
    """Print the outputs or why it failed; the exit status."""
    if current.succeeded(stack):
        _print('%s of %s: COMPLETE' % (args.action, args.resource))
        for key, value in sorted(current.outputs().items()):
            _print('  %s: %s' % (key, json.dumps(value)))
        return EXIT_OK
    _print('%s of %s: FAILED' % (args.action, args.resource))
    stack, findings = cause.diagnose(current.hc, current.stack_id)
    _print('\n'.join(report.render(stack, findings)))
    return EXIT_FAILED


def _followed(current, args):
    """Print the run's events until it ends; the exit status."""
    for what, found in current.follow(args.poll, args.wait_timeout):
        if what == 'event':
            _print(_event_line(found))
        elif what == 'ended':
            return _result(current, args, found)
    print('error: %s of %s still runs after %d s (--wait-timeout)' % (
        args.action, args.resource, args.wait_timeout), file=sys.stderr)
    return EXIT_FAILED


def check_arguments(args):
    """The --input values; rp.RunActionError for a bad ACTION or input."""
    return rp.checked_request(args.action, args.input)


def run(args, client=None):
    """The command's exit status.

    client: a callable giving python-heatclient (from the cloud options
    in args when not given).
    """
    try:
        inputs = check_arguments(args)
        with heat_api.heat_errors(args.stack):
            hc = (client() if client else
                  cloud_options.heat_client(args, OWN_ARGUMENTS))
            current = action_run.ActionRun(hc, args.stack, args.resource,
                                           args.action, inputs)
            token = current.request()
            _print(action_run.requested(args.action, args.resource, token))
            if not args.wait:
                return EXIT_OK
            return _followed(current, args)
    except errors.UserSideError as exc:
        print('error: %s' % exc, file=sys.stderr)
        return EXIT_ERROR
