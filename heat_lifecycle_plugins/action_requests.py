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
"""Day-two requests: what a changed request of a deployment runs.

A deployment's `action_request` is an opaque token; a stack update that
changes it to a new, non-empty value requests `extended_action` (UPDATE
when unset) now. Each token runs once: Heat keeps a failed update's old
properties, so the next stack update shows the failed request's token as
a change again; the token last run (kept in resource data) is not run
again. Pure functions: the deployment applies their answers.
"""

import re

from heat_lifecycle_plugins import action_names
from heat_lifecycle_plugins import protocol

# Resource data. REQUESTED_KEY: the action of a request from its start
# until it succeeds (a FAILED request leaves the resource as it was: the
# next update is not a replacement). TOKEN_KEY: the token last run.
REQUESTED_KEY = 'heat_lifecycle_plugins_requested'
TOKEN_KEY = 'heat_lifecycle_plugins_request_token'


def is_new_request(prop_diff, name, last_token):
    """Whether an update's property diff requests an action now."""
    token = (prop_diff or {}).get(name)
    return token not in (None, '') and token != last_token


def failed_request(heat_action, data):
    """Whether a FAILED resource failed in a request (UPDATE), not else."""
    return heat_action == protocol.UPDATE and bool(data.get(REQUESTED_KEY))


def requested(extended_action):
    """The action a request names: extended_action, else a re-apply."""
    return extended_action or protocol.UPDATE


# An ExternalResource runs a request's custom action as Heat's UPDATE; the
# event of its execution's start names it (execution_notices), which is
# where the user's tools read it back (user_side.progress).
_STARTED_FOR = ' for %s'
_REQUESTED_IN = re.compile(r'^Mistral execution \S+ of workflow .*? started '
                           r'for (%s);' % action_names.NAME_PATTERN)


def started_for(action, heat_action):
    """What a start event adds after 'started': ' for BACKUP'.

    Only when the execution runs another action than Heat's (a request's
    custom one): a re-apply is Heat's UPDATE, as the event says.
    """
    return '' if action == heat_action else _STARTED_FOR % action


def requested_in(reason):
    """The custom action an execution's start event names, or None."""
    match = _REQUESTED_IN.match(str(reason or ''))
    return match.group(1) if match else None


def to_deliver(action, handled):
    """The deploy_action that runs `action` with these handled actions.

    Re-applying (UPDATE) runs the UPDATE entry, else the CREATE entry
    (as a changed component without an UPDATE entry does). None: nothing
    handles it.
    """
    if action in handled:
        return action
    if action == protocol.UPDATE and protocol.CREATE in handled:
        return protocol.CREATE
    return None


def reserved_inputs(action_inputs):
    """The names among action_inputs that only Heat sets (deploy_*)."""
    heat_sets = protocol.DERIVED_INPUTS + (protocol.DEPLOY_STATUS_AWARE,
                                           protocol.DEPLOY_RUN_TIMEOUT)
    return sorted(k for k in action_inputs or {} if k in heat_sets)


def with_action_inputs(inputs, action_inputs, make_input):
    """A derived config's inputs with a request's action_inputs applied.

    inputs: Heat's InputConfig items, make_input(**fields) makes one; a
    value of action_inputs replaces the value of the input of its name, or
    is added as a new input.
    """
    extra = dict(action_inputs or {})
    merged = []
    for item in inputs:
        if item.name() in extra:
            fields = item.as_dict()
            fields['value'] = extra.pop(item.name())
            item = make_input(**fields)
        merged.append(item)
    merged.extend(make_input(name=name, value=value)
                  for name, value in sorted(extra.items()))
    return merged


def undefined(resource_name, prop, action, handled, component):
    """The error of a request for an action nothing handles."""
    custom = sorted(a for a in handled if a not in protocol.LIFECYCLE_ACTIONS)
    lifecycle = [a for a in protocol.LIFECYCLE_ACTIONS if a in handled]
    if not component and action not in protocol.LIFECYCLE_ACTIONS:
        return ('Resource %s: property %s: %s is a custom action; custom '
                'actions need an OS::Heat::SoftwareComponent config, whose '
                'configs[].actions define them' % (
                    resource_name, prop, protocol.shown(action)))
    return ('Resource %s: property %s: the %s defines no action %s '
            '(it defines %s)' % (
                resource_name, prop,
                'component' if component else 'config (its actions property)',
                protocol.shown(action),
                ', '.join(lifecycle + custom) or 'no action'))


def no_workflow(resource_name, prop, action, actions):
    """The error of a request for an action without a workflow."""
    return ('Resource %s: property %s: actions has no workflow for %s (it '
            'has %s)' % (resource_name, prop, protocol.shown(action),
                         ', '.join(sorted(actions)) or 'none'))
