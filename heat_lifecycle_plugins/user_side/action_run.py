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
"""A day-two action requested as the stack's user, and followed.

Requests an action of a deployment or external resource on a running
stack as `openstack stack update --existing` would: a PATCH stack update
that changes only the parameters the template wires to the resource's
request properties (action_request, and extended_action and action_inputs
when given; request_plan.py finds them). Then follows the update: the
resource's new events, the final state, its outputs. Nothing is printed:
`heat-lifecycle-plugins run-action`, `openstack lifecycle action run` and
the dashboard show it each their own way.

Bad input, a resource not wired for requests, an action it does not
define, or Heat's and the cloud's failures: request_plan.RunActionError or
another errors.UserSideError, one line for the user.
"""

import time

from heat_lifecycle_plugins import action_requests
from heat_lifecycle_plugins.user_side import heat_api
from heat_lifecycle_plugins.user_side import request_plan as rp
from heat_lifecycle_plugins.user_side import stack_updates

UPDATING = 'UPDATE_IN_PROGRESS'
COMPLETE = 'UPDATE_COMPLETE'


def check_defined(hc, resource_row, action):
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


def send_request(update, read, action, resource, pause=0.5):
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
                action, resource, exc.attempts,
                exc.after['stack_status']))


class ActionRun(object):
    """One day-two run: requested, then followed, as the stack's user.

    hc: python-heatclient as the stack's user; stack_ref: the stack's name
    or id; resource: a resource of the stack or a path into its nested
    stacks and chain members (chain.1.deploy or chain/1/deploy); action:
    a custom action of the resource (BACKUP) or UPDATE to re-apply it;
    inputs: {key: value}, inputs of this run only.
    """

    def __init__(self, hc, stack_ref, resource, action, inputs=None):
        self.hc, self.stack_ref = hc, stack_ref
        self.resource, self.action = resource, action
        self.inputs = dict(inputs or {})
        self.token = self.stack_id = self.row = None
        self.target_stack = self.target_name = None
        self.seen = set()

    def _events(self):
        return [e.to_dict() for e in self.hc.events.list(
            self.target_stack, resource_name=self.target_name,
            sort_keys='event_time', sort_dir='asc')]

    def new_events(self):
        """The target's events (dicts, oldest first) not given before."""
        found = []
        for event in self._events():
            if event['id'] not in self.seen:
                self.seen.add(event['id'])
                found.append(event)
        return found

    def _walk(self, template, names):
        """The levels down to the target, its row and its stack.

        Levels: [(template, name)] from the top stack down.
        """
        from heatclient import exc
        levels, ident = [], self.stack_id
        for depth, name in enumerate(names):
            levels.append((template, name))
            try:
                row = self.hc.resources.get(ident, name).to_dict()
            except exc.HTTPNotFound:
                raise rp.RunActionError('stack %s has no resource %s' % (
                    self.stack_ref, '.'.join(names[:depth + 1])))
            if depth < len(names) - 1:
                nested = heat_api.nested_stack_of(row)
                if nested is None:
                    raise rp.RunActionError('%s has no nested stack'
                                            % '.'.join(names[:depth + 1]))
                ident = nested
                template = self.hc.stacks.template(ident)
        return levels, row, ident

    def request(self):
        """Send the request; its token (when and a random part).

        Raises errors.UserSideError (rp.RunActionError for the request
        itself) with one line for the user.
        """
        with heat_api.heat_errors(self.stack_ref):
            rp.check_inputs(self.inputs)
            return self._request()

    def _request(self):
        hc = self.hc
        stack = hc.stacks.get(self.stack_ref).to_dict()
        self.stack_id = '%s/%s' % (stack['stack_name'], stack['id'])
        template = hc.stacks.template(self.stack_id)
        token = rp.new_token()
        names = rp.resource_path(template, self.resource)
        levels, self.row, self.target_stack = self._walk(template, names)
        self.target_name = names[-1]
        planned = rp.plan(levels[-1][0], names[-1], self.action,
                          self.inputs, token)
        params = rp.lift(levels, planned, self.resource)
        check_defined(hc, self.row, self.action)
        from heatclient import exc as heat_exc
        self.seen = {e['id'] for e in self._events()}
        try:
            send_request(
                lambda: hc.stacks.update(self.stack_id, existing=True,
                                         parameters=params),
                lambda: hc.stacks.get(self.stack_id).to_dict(),
                self.action, self.resource)
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
                    self.action, self.resource, token, exc.code,
                    self.stack_ref))
        self.token = token
        return token

    def follow(self, poll=2.0, timeout=3600):
        """What happens until the update ends, without printing.

        Yields ('event', event) for each new event of the target (a dict
        as heat-api gives it), then ('ended', stack) with the stack's
        final state, or ('timeout', None) after `timeout` seconds.
        """
        deadline = time.monotonic() + timeout
        while True:
            for event in self.new_events():
                yield 'event', event
            stack = self.hc.stacks.get(self.stack_id).to_dict()
            if stack['stack_status'] != UPDATING:
                for event in self.new_events():
                    yield 'event', event
                yield 'ended', stack
                return
            if time.monotonic() > deadline:
                yield 'timeout', None
                return
            time.sleep(poll)

    def succeeded(self, stack):
        """Whether the ended update and the target both completed."""
        resource = self.hc.resources.get(self.target_stack, self.target_name)
        return (stack['stack_status'] == COMPLETE and
                resource.to_dict()['resource_status'] == COMPLETE)

    def outputs(self):
        """{name: value}: the deployment's outputs (the workflow's)."""
        if self.row.get('resource_type') == rp.EXTERNAL_RESOURCE_TYPE:
            found = self.hc.resources.get(
                self.target_stack, self.target_name,
                with_attr=['output']).to_dict()
            return (found.get('attributes') or {}).get('output') or {}
        deployment = self.hc.software_deployments.get(
            self.row['physical_resource_id']).to_dict()
        return deployment.get('output_values') or {}


def requested(action, resource, token):
    """The line that says a request was sent."""
    return 'requested %s of %s (request %s)' % (action, resource, token)


def request(hc, stack_ref, resource, action, inputs=None):
    """Request `action` of `resource`; the request token.

    As ActionRun(...).request(): errors.UserSideError with one line.
    """
    return ActionRun(hc, stack_ref, resource, action, inputs).request()
