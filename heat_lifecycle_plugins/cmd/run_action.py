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

Requests ACTION of a deployment or external resource on a running stack
as its user would: a PATCH stack update (`openstack stack update
--existing`) that changes only the parameters the template wires to the
resource's request properties (action_request, and extended_action and
action_inputs when given). Then it waits for the update, printing the
resource's new events, and prints the result: the outputs, or why it
failed (the `why` command's diagnosis).

The client and authentication are heat_api's. Exit status: 0 the action
succeeded (or was requested, with --no-wait), 1 it failed, 2 bad
arguments, a resource not wired for requests, or Heat unreachable.
"""

import argparse
import json
import sys
import time

from heat_lifecycle_plugins import action_names
from heat_lifecycle_plugins import action_requests
from heat_lifecycle_plugins.cmd import why
from heat_lifecycle_plugins.user_side import heat_api
from heat_lifecycle_plugins.user_side import report
from heat_lifecycle_plugins.user_side import request_plan as rp
from heat_lifecycle_plugins.user_side import stack_updates

EXIT_OK, EXIT_FAILED, EXIT_ERROR = 0, 1, 2
OWN_ARGUMENTS = heat_api.OWN_ARGUMENTS + (
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
    heat_api.add_cloud_arguments(parser, argv)


def _check_defined(hc, resource_row, action):
    """rp.RunActionError if the resource is known to lack `action`.

    A deployment: the component it last delivered. (An external resource's
    actions were checked in the template by rp.plan().)
    """
    from heatclient import exc
    rtype = resource_row.get('resource_type')
    if rtype == rp.EXTERNAL_RESOURCE_TYPE:
        return
    if rtype != rp.DEPLOYMENT_TYPE:
        raise rp.RunActionError(
            'resource %s is a %s; run-action runs actions of %s and %s' % (
                resource_row.get('resource_name'), rtype,
                rp.DEPLOYMENT_TYPE, rp.EXTERNAL_RESOURCE_TYPE))
    physical_id = resource_row.get('physical_resource_id')
    if not physical_id:
        return  # nothing delivered yet: the engine checks it
    try:
        deployment = hc.software_deployments.get(physical_id).to_dict()
        derived = hc.software_configs.get(deployment['config_id']).to_dict()
    except exc.HTTPException:
        return  # nothing delivered yet: the engine checks it
    handled = rp.defined_actions(derived)
    requested = action_requests.requested(action)
    if handled is not None and action_requests.to_deliver(
            requested, handled) is None:
        raise rp.RunActionError(action_requests.undefined(
            resource_row.get('resource_name'), rp.EXTENDED_ACTION,
            requested, handled, True))


def _facts(stack):
    """(status, updated_time) of a stack as heat-api shows it."""
    action_status = stack['stack_status'].split('_', 1)  # UPDATE_FAILED
    return action_status[-1], stack.get('updated_time')


def _event_line(event):
    """An event as heat-api gives it (resource_status is ACTION_STATUS)."""
    return '%s %s %s: %s' % (
        event.get('event_time'), event.get('resource_name'),
        event.get('resource_status'), event.get('resource_status_reason'))


def send_request(update, read, args, pause=0.5):
    """Send the stack update; rp.RunActionError if Heat drops it twice.

    Right after a FAILED request Heat may drop this one: never report
    the earlier failure as this request's. update, read: as
    stack_updates.send's, on heat-api's stack (a dict).
    """
    try:
        return stack_updates.send(update, read, _facts, pause=pause)
    except stack_updates.Dropped as exc:
        raise rp.RunActionError(
            '%s of %s: Heat dropped the request %d times (the stack '
            'stays %s); send it again' % (
                args.action, args.resource, exc.attempts,
                exc.after['stack_status']))


class Run(object):
    """One run-action: request, follow, report."""

    def __init__(self, hc, args, out=sys.stdout):
        self.hc, self.args, self.out = hc, args, out
        self.seen = set()

    def _print(self, text):
        print(text, file=self.out)
        self.out.flush()

    def _events(self):
        return [e.to_dict() for e in self.hc.events.list(
            self.target_stack, resource_name=self.target_name,
            sort_keys='event_time', sort_dir='asc')]

    def _print_new_events(self):
        for event in self._events():
            if event['id'] not in self.seen:
                self.seen.add(event['id'])
                self._print(_event_line(event))

    def _walk(self, stack_id, template, names):
        """The levels down to the target, its row and its stack.

        Levels: [(template, name)] from the top stack down.
        """
        from heatclient import exc
        levels, ident = [], stack_id
        for depth, name in enumerate(names):
            levels.append((template, name))
            try:
                row = self.hc.resources.get(ident, name).to_dict()
            except exc.HTTPNotFound:
                raise rp.RunActionError('stack %s has no resource %s' % (
                    self.args.stack, '.'.join(names[:depth + 1])))
            if depth < len(names) - 1:
                nested = heat_api.nested_stack_of(row)
                if nested is None:
                    raise rp.RunActionError('%s has no nested stack'
                                            % '.'.join(names[:depth + 1]))
                ident = nested
                template = self.hc.stacks.template(ident)
        return levels, row, ident

    def request(self, inputs):
        args, hc = self.args, self.hc
        stack = hc.stacks.get(args.stack).to_dict()
        stack_id = '%s/%s' % (stack['stack_name'], stack['id'])
        template = hc.stacks.template(stack_id)
        token = rp.new_token()
        names = rp.resource_path(template, args.resource)
        levels, row, self.target_stack = self._walk(stack_id, template,
                                                    names)
        self.target_name = names[-1]
        planned = rp.plan(levels[-1][0], names[-1], args.action, inputs,
                          token)
        params = rp.lift(levels, planned, args.resource)
        _check_defined(hc, row, args.action)
        from heatclient import exc as heat_exc
        self.seen = {e['id'] for e in self._events()}
        try:
            send_request(
                lambda: hc.stacks.update(stack_id, existing=True,
                                         parameters=params),
                lambda: hc.stacks.get(stack_id).to_dict(), args)
        except heat_exc.HTTPException as exc:
            if (getattr(exc, 'code', None) or 0) < 500:
                raise
            # heat-api gave up waiting for a busy engine: the engine may
            # still run the request, or RabbitMQ dropped it with the call.
            raise rp.RunActionError(
                '%s of %s (request %s): heat-api did not confirm it (HTTP '
                '%s); the engine may still run it, or never; watch the '
                'stack (openstack lifecycle progress list %s) and request '
                'it again only if it did not run' % (
                    args.action, args.resource, token, exc.code,
                    args.stack))
        self._print('requested %s of %s (request %s)' % (
            args.action, args.resource, token))
        return stack_id, row

    def follow(self, stack_id):
        """Wait for the stack update to end; its final state."""
        deadline = time.monotonic() + self.args.wait_timeout
        while True:
            self._print_new_events()
            stack = self.hc.stacks.get(stack_id).to_dict()
            if stack['stack_status'] != 'UPDATE_IN_PROGRESS':
                self._print_new_events()
                return stack
            if time.monotonic() > deadline:
                return None
            time.sleep(self.args.poll)

    def result(self, stack_id, row, stack):
        resource = self.hc.resources.get(self.target_stack, self.target_name)
        ok = (stack['stack_status'] == 'UPDATE_COMPLETE' and
              resource.to_dict()['resource_status'] == 'UPDATE_COMPLETE')
        if ok:
            self._print('%s of %s: COMPLETE' % (self.args.action,
                                                self.args.resource))
            for key, value in sorted(self._outputs(stack_id, row).items()):
                self._print('  %s: %s' % (key, json.dumps(value)))
            return EXIT_OK
        self._print('%s of %s: FAILED' % (self.args.action,
                                          self.args.resource))
        stack, findings = why.diagnose(self.hc, stack_id)
        self._print('\n'.join(report.render(stack, findings)))
        return EXIT_FAILED

    def _outputs(self, stack_id, row):
        if row.get('resource_type') == rp.EXTERNAL_RESOURCE_TYPE:
            found = self.hc.resources.get(
                self.target_stack, self.target_name,
                with_attr=['output']).to_dict()
            return (found.get('attributes') or {}).get('output') or {}
        deployment = self.hc.software_deployments.get(
            row['physical_resource_id']).to_dict()
        return deployment.get('output_values') or {}


def check_arguments(args):
    """The --input values; rp.RunActionError for a bad ACTION or input."""
    problem = action_names.problem(args.action)
    if problem:
        raise rp.RunActionError('ACTION %s' % problem)
    return rp.parse_inputs(args.input)


def run(args, client=None):
    """The command's exit status.

    client: a callable giving python-heatclient (from the cloud options
    in args when not given).
    """
    try:
        inputs = check_arguments(args)
        with heat_api.heat_errors(args.stack):
            hc = (client() if client else
                  heat_api.heat_client(args, OWN_ARGUMENTS))
            current = Run(hc, args)
            stack_id, row = current.request(inputs)
            if not args.wait:
                return EXIT_OK
            stack = current.follow(stack_id)
            if stack is None:
                print('error: %s of %s still runs after %d s '
                      '(--wait-timeout)' % (args.action, args.resource,
                                            args.wait_timeout),
                      file=sys.stderr)
                return EXIT_FAILED
            return current.result(stack_id, row, stack)
    except heat_api.CommandError as exc:
        print('error: %s' % exc, file=sys.stderr)
        return EXIT_ERROR
