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
"""What a day-two request sets: the template's wiring, read without a cloud.

plan() finds the parameters a PATCH stack update sets to request an
action of a resource (action_request, extended_action, action_inputs
wired with get_param); lift() follows a nested resource's wiring up
through template resources, chains and groups to the top stack's
parameters. run_action.py sends the request.
"""

import json
import time
import uuid

from heat_lifecycle_plugins import action_names
from heat_lifecycle_plugins import action_requests
from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.user_side import errors

REQUEST_PROPERTIES = (EXTENDED_ACTION, ACTION_REQUEST, ACTION_INPUTS) = (
    'extended_action', 'action_request', 'action_inputs')
DEPLOYMENT_TYPE = 'OS::Heat::SoftwareDeployment'
EXTERNAL_RESOURCE_TYPE = 'OS::Mistral::ExternalResource'
WIRING_HELP = (
    'give it action_request: {get_param: <a string parameter>} (and '
    'extended_action: {get_param: ...} to choose the action, action_inputs: '
    '{get_param: <a json parameter>} for --input)')


class RunActionError(errors.UserSideError):
    """Bad arguments or a resource that cannot take requests: one line."""


def set_by_heat(key):
    """Whether an input of that name is Heat's, not a request's."""
    return key in protocol.DERIVED_INPUTS or \
        key == protocol.DEPLOY_STATUS_AWARE


def parse_inputs(items):
    """{key: value} of --input KEY=VALUE items; RunActionError if bad."""
    inputs = {}
    for item in items:
        key, sep, value = item.partition('=')
        if not sep or not key.strip():
            raise RunActionError('--input %r: expected KEY=VALUE' % item)
        name = key.strip()
        if set_by_heat(name):
            raise RunActionError('--input %r: %s is set by Heat, not by a '
                                 'request' % (item, name))
        inputs[name] = value
    return inputs


def checked_request(action, items):
    """{key: value} of a request's KEY=VALUE items for `action`.

    RunActionError for a bad action name or input.
    """
    problem = action_names.problem(action)
    if problem:
        raise RunActionError('ACTION %s' % problem)
    return parse_inputs(items)


def check_inputs(inputs):
    """RunActionError if an input of {key: value} is not a request's."""
    for key in inputs:
        if not isinstance(key, str) or not key.strip():
            raise RunActionError('input %r: expected a name' % (key,))
        if set_by_heat(key):
            raise RunActionError('input %s is set by Heat, not by a request'
                                 % key)


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
    """The names from the top stack down to RESOURCE.

    RESOURCE: a name of the top stack, or a path as the CLI takes it
    (chain.3.deploy) or as the reports show it (chain/3/deploy).
    """
    sep = '/' if '/' in resource else '.'
    if resource in (template.get('resources') or {}) or sep not in resource:
        return [resource]
    names = resource.split(sep)
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


def requested_action(derived_config):
    """The custom action (BACKUP) a delivered config runs, or None.

    A request's custom action runs as Heat's UPDATE of the deployment:
    the config it delivered names the action in its deploy_action input.
    """
    for item in (derived_config or {}).get('inputs') or ():
        if item.get('name') == protocol.DEPLOY_ACTION:
            action = item.get('value')
            return action if action_names.is_custom(action) else None
    return None
