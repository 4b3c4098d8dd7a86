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
import uuid

from heat_lifecycle_plugins import action_names
from heat_lifecycle_plugins import action_requests
from heat_lifecycle_plugins.cmd import heat_api
from heat_lifecycle_plugins.cmd import stack_updates
from heat_lifecycle_plugins.cmd import why
from heat_lifecycle_plugins import protocol

EXIT_OK, EXIT_FAILED, EXIT_ERROR = 0, 1, 2
OWN_ARGUMENTS = heat_api.OWN_ARGUMENTS + (
    'resource', 'action', 'input', 'wait', 'wait_timeout', 'poll')
REQUEST_PROPERTIES = (EXTENDED_ACTION, ACTION_REQUEST, ACTION_INPUTS) = (
    'extended_action', 'action_request', 'action_inputs')
DEPLOYMENT_TYPE = 'OS::Heat::SoftwareDeployment'
EXTERNAL_RESOURCE_TYPE = 'OS::Mistral::ExternalResource'
WIRING_HELP = (
    'give it action_request: {get_param: <a string parameter>} (and '
    'extended_action: {get_param: ...} to choose the action, action_inputs: '
    '{get_param: <a json parameter>} for --input)')


class RunActionError(heat_api.CommandError):
    """Bad arguments or a resource that cannot take requests: one line."""


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


# -- pure parts: arguments and the template's wiring ----------------------

def parse_inputs(items):
    """{key: value} of --input KEY=VALUE items; RunActionError if bad."""
    inputs = {}
    for item in items:
        key, sep, value = item.partition('=')
        if not sep or not key.strip():
            raise RunActionError('--input %r: expected KEY=VALUE' % item)
        if key in protocol.DERIVED_INPUTS or key == \
                protocol.DEPLOY_STATUS_AWARE:
            raise RunActionError('--input %r: %s is set by Heat, not by a '
                                 'request' % (item, key))
        inputs[key.strip()] = value
    return inputs


def _param_of(value):
    """The parameter a property value is {get_param: NAME} of, or None."""
    if isinstance(value, dict) and list(value) == ['get_param']:
        name = value['get_param']
        if isinstance(name, str):
            return name
    return None


def plan(template, resource, action, inputs, token):
    """The parameters a PATCH update sets to request `action`.

    template: the stack's template (a dict); raises RunActionError naming
    what to add when the resource is not wired for it.
    """
    problem = action_names.problem(action)
    if problem:
        raise RunActionError('ACTION %s' % problem)
    definition = (template.get('resources') or {}).get(resource)
    if not isinstance(definition, dict):
        raise RunActionError('stack has no resource %s in its template'
                             % resource)
    props = definition.get('properties') or {}
    where = 'resource %s' % resource
    workflows = props.get('actions')
    if (definition.get('type') == EXTERNAL_RESOURCE_TYPE and
            isinstance(workflows, dict) and
            action_requests.requested(action) not in workflows):
        raise RunActionError(action_requests.no_workflow(
            resource, EXTENDED_ACTION, action, workflows))
    request = _param_of(props.get(ACTION_REQUEST))
    if request is None:
        raise RunActionError('%s is not wired for requests: %s' % (
            where, WIRING_HELP))
    params = {request: token}
    chosen = props.get(EXTENDED_ACTION)
    chosen_param = _param_of(chosen)
    if chosen_param is not None:
        params[chosen_param] = action
    elif action_requests.requested(chosen) != action:
        raise RunActionError(
            '%s: extended_action is %s in the template, not a parameter; '
            'to run %s give it extended_action: {get_param: ...}' % (
                where, chosen or 'unset (UPDATE)', action))
    inputs_param = _param_of(props.get(ACTION_INPUTS))
    if inputs and inputs_param is None:
        raise RunActionError('%s: --input needs action_inputs: {get_param: '
                             '<a json parameter>} in the template' % where)
    if inputs_param is not None:
        params[inputs_param] = json.dumps(inputs, sort_keys=True)
    return params


# Types whose members take their properties from one property of theirs.
MEMBER_PROPERTIES = {'OS::Heat::ResourceChain': ('resource_properties',),
                     'OS::Heat::ResourceGroup': ('resource_def',
                                                 'properties')}


def _definition(template, name):
    return ((template.get('resources') or {}).get(name) or {})


def _member_properties(definition):
    """The properties a chain or group gives each member, or None."""
    keys = MEMBER_PROPERTIES.get(definition.get('type'))
    if keys is None:
        return None
    found = definition.get('properties') or {}
    for key in keys:
        found = found.get(key) if isinstance(found, dict) else None
    return found if isinstance(found, dict) else {}


def lift(levels, params, path):
    """The top stack's parameters that carry `params` down to the target.

    levels: [(template, resource name)] from the top stack down, the last
    being the target's; params: what plan() set in the deepest stack. A
    member of a chain or group takes its properties from the chain's
    resource_properties (the group's resource_def), one level up.
    """
    depth = len(levels) - 1
    while depth > 0:
        parent = _definition(*levels[depth - 1])
        source, step = parent.get('properties') or {}, 1
        if depth >= 2:
            members = _member_properties(_definition(*levels[depth - 2]))
            if members is not None:
                source, step = members, 2
        owner = levels[depth - step][1]
        lifted = {}
        for name, value in params.items():
            param = _param_of(source.get(name))
            if param is None:
                raise RunActionError(
                    '%s: %s does not pass parameter %s down: give it %s: '
                    '{get_param: <a parameter of its stack>}%s' % (
                        path, owner, name, name,
                        ' in resource_properties' if step == 2 else ''))
            lifted[param] = value
        params = lifted
        depth -= step
    return params


def resource_path(template, resource):
    """The names from the top stack down to RESOURCE (chain.3.deploy)."""
    if resource in (template.get('resources') or {}) or '.' not in resource:
        return [resource]
    names = resource.split('.')
    if not all(names):
        raise RunActionError('RESOURCE %s: expected NAME or a path of '
                             'names such as chain.3.deploy' % resource)
    return names


def new_token():
    """A request token: when (UTC) and a random part, unique per run."""
    return '%s-%s' % (time.strftime('%Y%m%dT%H%M%SZ', time.gmtime()),
                      uuid.uuid4().hex[:8])


def defined_actions(derived_config):
    """The actions of a delivered component, or None if not a component.

    derived_config: the config a deployment last delivered, which holds
    the whole component. A plain config is left to the engine's check.
    """
    if (derived_config or {}).get(protocol.GROUP) != \
            protocol.COMPONENT_GROUP:
        return None
    stored = derived_config.get(protocol.CONFIG) or {}
    return {a for entry in stored.get(protocol.CONFIGS) or []
            for a in entry.get(protocol.ACTIONS) or ()}


# -- the client side ------------------------------------------------------

def _check_defined(hc, resource_row, action):
    """RunActionError if the resource is known to lack `action`.

    A deployment: the component it last delivered. (An external resource's
    actions were checked in the template by plan().)
    """
    from heatclient import exc
    rtype = resource_row.get('resource_type')
    if rtype == EXTERNAL_RESOURCE_TYPE:
        return
    if rtype != DEPLOYMENT_TYPE:
        raise RunActionError('resource %s is a %s; run-action runs actions '
                             'of %s and %s' % (
                                 resource_row.get('resource_name'), rtype,
                                 DEPLOYMENT_TYPE, EXTERNAL_RESOURCE_TYPE))
    physical_id = resource_row.get('physical_resource_id')
    if not physical_id:
        return  # nothing delivered yet: the engine checks it
    try:
        deployment = hc.software_deployments.get(physical_id).to_dict()
        derived = hc.software_configs.get(deployment['config_id']).to_dict()
    except exc.HTTPException:
        return  # nothing delivered yet: the engine checks it
    handled = defined_actions(derived)
    requested = action_requests.requested(action)
    if handled is not None and action_requests.to_deliver(
            requested, handled) is None:
        raise RunActionError(action_requests.undefined(
            resource_row.get('resource_name'), EXTENDED_ACTION, requested,
            handled, True))


def _facts(stack):
    """(status, updated_time) of a stack as heat-api shows it."""
    action_status = stack['stack_status'].split('_', 1)  # UPDATE_FAILED
    return action_status[-1], stack.get('updated_time')


def _event_line(event):
    """An event as heat-api gives it (resource_status is ACTION_STATUS)."""
    return '%s %s %s: %s' % (
        event.get('event_time'), event.get('resource_name'),
        event.get('resource_status'), event.get('resource_status_reason'))


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
                raise RunActionError('stack %s has no resource %s' % (
                    self.args.stack, '.'.join(names[:depth + 1])))
            if depth < len(names) - 1:
                nested = heat_api.nested_stack_of(row)
                if nested is None:
                    raise RunActionError('%s has no nested stack' % '.'.join(
                        names[:depth + 1]))
                ident = nested
                template = self.hc.stacks.template(ident)
        return levels, row, ident

    def request(self, inputs):
        args, hc = self.args, self.hc
        stack = hc.stacks.get(args.stack).to_dict()
        stack_id = '%s/%s' % (stack['stack_name'], stack['id'])
        template = hc.stacks.template(stack_id)
        token = new_token()
        names = resource_path(template, args.resource)
        levels, row, self.target_stack = self._walk(stack_id, template,
                                                    names)
        self.target_name = names[-1]
        params = lift(levels, plan(levels[-1][0], names[-1], args.action,
                                   inputs, token), args.resource)
        _check_defined(hc, row, args.action)
        self.seen = {e['id'] for e in self._events()}
        try:
            # Right after a FAILED request Heat may drop this one: never
            # report the earlier failure as this request's.
            stack_updates.send(
                lambda: hc.stacks.update(stack_id, existing=True,
                                         parameters=params),
                lambda: hc.stacks.get(stack_id).to_dict(), _facts)
        except stack_updates.Dropped as exc:
            raise RunActionError(
                '%s of %s: Heat dropped the request %d times (the stack '
                'stays %s); send it again' % (
                    args.action, args.resource, exc.attempts,
                    exc.after['stack_status']))
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
        self._print('\n'.join(why.render(stack, findings)))
        return EXIT_FAILED

    def _outputs(self, stack_id, row):
        if row.get('resource_type') == EXTERNAL_RESOURCE_TYPE:
            found = self.hc.resources.get(
                self.target_stack, self.target_name,
                with_attr=['output']).to_dict()
            return (found.get('attributes') or {}).get('output') or {}
        deployment = self.hc.software_deployments.get(
            row['physical_resource_id']).to_dict()
        return deployment.get('output_values') or {}


def check_arguments(args):
    """The --input values; RunActionError for a bad ACTION or input."""
    problem = action_names.problem(args.action)
    if problem:
        raise RunActionError('ACTION %s' % problem)
    return parse_inputs(args.input)


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
