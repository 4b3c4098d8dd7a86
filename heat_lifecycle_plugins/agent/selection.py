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
"""What a deployment's hook is given: which config, for which tool.

Group `component` (a SoftwareComponent): the entry of `config.configs` whose
`actions` contain the deployment's `deploy_action`, run as a deployment of
group <tool> with that entry's options as heat-agents' hooks read them:
the shared keys with the tool's own section merged in at the top level.
Any other group runs as is.
"""

import copy
import json
import re

from heat_lifecycle_plugins.agent import deployments
from heat_lifecycle_plugins import protocol

HOOK_NAME = re.compile(r'[A-Za-z0-9_-]+')


class NoConfigForAction(deployments.BadDeployment):
    """A component has no config for the action Heat asked for."""


def hook_name(deployment, group):
    # fullmatch: `$` would let a trailing newline in.
    if not isinstance(group, str) or not HOOK_NAME.fullmatch(group):
        raise deployments.BadDeployment(
            'deployment %s: tool/group %r is not a valid hook name (letters, '
            'digits, - and _ only)' % (deployment.name, group))
    return group


def _entry_options(entry, component_options, tools):
    """An entry's options: its own, or its tool's share of the component's.

    An engine of ours stores each entry with its options; an in-tree
    engine stores one shared map.
    """
    if isinstance(entry.get(protocol.ENTRY_OPTIONS), dict):
        return entry[protocol.ENTRY_OPTIONS]
    return protocol.tool_options(component_options,
                                 entry.get(protocol.TOOL), tools)


def hook_options(options, tool):
    """`options` as a hook of `tool` reads them: flat, its section merged.

    heat-agents' hooks read their options at the top level (hook-ansible's
    `tags`, hook-puppet's `modulepath`): the tool's section, a map under
    the tool's name, is merged in and its keys win over shared ones.
    """
    if not isinstance(options, dict) or not isinstance(
            options.get(tool), dict):
        return options
    merged = {k: v for k, v in options.items() if k != tool}
    merged.update(options[tool])
    return merged


def _component_entry(deployment):
    """The entry of a component for the deployment's action."""
    name, action = deployment.name, deployment.action
    config = deployment.raw.get(protocol.CONFIG)
    configs = (config.get(protocol.CONFIGS) if isinstance(config, dict)
               else None)
    if not isinstance(configs, list):
        raise deployments.BadDeployment(
            'deployment %s: a component config must be a map with a list '
            '"%s", got %r' % (name, protocol.CONFIGS,
                              config if not isinstance(config, dict)
                              else sorted(config)))
    for index, entry in enumerate(configs):
        if not isinstance(entry, dict) or not isinstance(
                entry.get(protocol.ACTIONS), list):
            raise deployments.BadDeployment(
                'deployment %s: configs[%d] must be a map with a list '
                '"%s", got %r' % (name, index, protocol.ACTIONS, entry))
    if not action:
        raise deployments.BadDeployment(
            'deployment %s: component deployment without a %s input'
            % (name, protocol.DEPLOY_ACTION))
    matches = [e for e in configs if action in e[protocol.ACTIONS]]
    if not matches:
        offered = sorted({a for e in configs for a in e[protocol.ACTIONS]
                          if isinstance(a, str)})
        raise NoConfigForAction(
            'deployment %s: the component has no config for action %s '
            '(its configs cover %s); nothing was run'
            % (name, action, ', '.join(offered) or 'no action'))
    if len(matches) > 1:
        raise deployments.BadDeployment(
            'deployment %s: %d configs of the component list action %s; '
            'only one may' % (name, len(matches), action))
    # Tools name options sections: only strings can (a tool of another
    # type is refused once its entry is selected).
    return matches[0], {e.get(protocol.TOOL) for e in configs
                        if isinstance(e.get(protocol.TOOL), str)}


def _as_string(value):
    if value is None:
        return ''
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def _stringify_string_inputs(payload):
    """Give String-typed inputs string values, as hooks expect.

    heat-agents hooks put inputs into the environment and fail on anything
    but a string.
    """
    for item in payload.get(protocol.INPUTS) or []:
        if (item.get(protocol.IO_TYPE) == protocol.STRING_TYPE and
                protocol.IO_VALUE in item and
                not isinstance(item[protocol.IO_VALUE], str)):
            item[protocol.IO_VALUE] = _as_string(item[protocol.IO_VALUE])


def select(deployment):
    """The deployment to give the hook (a new dict); raises BadDeployment."""
    if deployment.problem:
        raise deployments.BadDeployment(deployment.problem)
    payload = copy.deepcopy(deployment.raw)
    group = payload[protocol.GROUP]
    if group != protocol.COMPONENT_GROUP:
        hook_name(deployment, group)
    else:
        entry, tools = _component_entry(deployment)
        payload[protocol.GROUP] = hook_name(deployment,
                                            entry.get(protocol.TOOL))
        payload[protocol.CONFIG] = copy.deepcopy(
            entry.get(protocol.ENTRY_CONFIG))
        payload[protocol.OPTIONS] = copy.deepcopy(hook_options(
            _entry_options(entry, deployment.raw.get(protocol.OPTIONS),
                           tools), payload[protocol.GROUP]))
    _stringify_string_inputs(payload)
    return payload
