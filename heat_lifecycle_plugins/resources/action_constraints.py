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
"""Property constraints on action names (action_names)."""

from heat.common.i18n import _
from heat.engine import constraints

from heat_lifecycle_plugins import action_names
from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.resources import common


WORKFLOW_KEYS = (WORKFLOW, PARAMS) = ('workflow', 'params')


def valid_action_name():
    """A lifecycle action or a custom one (an upper-case identifier)."""
    return common.ProblemConstraint(
        constraints.Schema.STRING_TYPE, action_names.problem,
        _('A lifecycle action or a custom action: upper-case letters, '
          'digits and underscores, starting with a letter, and not a near '
          'miss of a lifecycle action.'))


# Characters of a request token (resource data, events) and of a
# deployment's name (the derived config's name, Heat's VARCHAR(255)).
MAX_TOKEN = MAX_DEPLOYMENT_NAME = 255


def storable_whole(limit):
    """A string Heat stores as it is: at most `limit` storable characters.

    Heat validates properties again when the action runs, so a value
    that came through get_attr is refused there, naming the property.
    """
    return common.ProblemConstraint(
        constraints.Schema.STRING_TYPE,
        lambda value: protocol.whole_text_problem(value, limit),
        _('At most %d characters, none above U+FFFF.') % limit)


def sendable(value_type):
    """Text a workflow gets: no lone surrogate in any string of the value.

    Mistral cannot take one (protocol.sendable_problem); refused here, it
    is named by property before anything is sent.
    """
    return common.ProblemConstraint(
        value_type, protocol.sendable_problem,
        _('No lone surrogate (U+D800 to U+DFFF) anywhere in it: Mistral '
          'cannot take one.'))


def valid_workflow_actions():
    """ExternalResource's actions: names to {workflow, params}.

    The map is open to custom action names, which Heat's keyed map schema
    would refuse (and drop); so this checks what that schema checked for
    the lifecycle keys: each value is a map with a workflow (a string)
    and optional params (a map), and nothing else.
    """
    return common.ProblemConstraint(
        constraints.Schema.MAP_TYPE, workflow_actions_problem,
        _('Keys are actions (CREATE, UPDATE, DELETE, SUSPEND, RESUME, CHECK '
          'or custom upper-case identifiers); each value is {workflow: '
          'NAME, params: {...}}.'))


def workflow_actions_problem(actions):
    """The first problem of an actions map, or None."""
    for name, spec in sorted((actions or {}).items()):
        problem = workflow_action_problem(name, spec)
        if problem:
            return problem
    return None


def workflow_action_problem(name, spec):
    """Why actions[name] = spec is not valid, or None."""
    problem = action_names.problem(name)
    if problem:
        return 'actions: %s' % problem
    where = 'actions.%s' % name
    if not isinstance(spec, dict):
        return '%s must be a map with workflow and params, not %s' % (
            where, protocol.shown(spec))
    unknown = sorted(set(spec) - set(WORKFLOW_KEYS))
    if unknown:
        named = (protocol.storable_text(key, 80) for key in unknown)
        return '%s: unknown key %s (allowed: workflow, params)' % (
            where, ', '.join(named))
    if WORKFLOW not in spec:
        return '%s.workflow is required: the name or id of a Mistral ' \
               'workflow' % where
    workflow = spec[WORKFLOW]
    if workflow is not None and (not isinstance(workflow, str) or
                                 not workflow):  # None: not resolved yet
        return '%s.workflow must be the name or id of a Mistral ' \
               'workflow, not %s' % (where, protocol.shown(workflow))
    params = spec.get(PARAMS)
    if params is not None and not isinstance(params, dict):
        return '%s.params must be a map, not %s' % (
            where, protocol.shown(params))
    problem = protocol.sendable_problem(spec)
    if problem:
        return '%s: %s' % (where, problem)
    return None
