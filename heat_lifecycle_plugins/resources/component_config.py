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
"""The stored form of a software component, shared by component and deployment.

A component is stored through Heat's software-config API with group
`component` and config {"configs": [{"actions", "config", "tool",
"options"}, ...]} (the names are heat_lifecycle_plugins.protocol's); this
module checks the template's entries, builds that form and reads the
actions back from it.
"""

from heat_lifecycle_plugins import action_names
from heat_lifecycle_plugins import protocol

# What an entry without `actions` handles.
DEFAULT_ACTIONS = (protocol.CREATE, protocol.UPDATE)
# A config that is an integer or a boolean is stored as its text, as the
# in-tree type's string property does.
SCALAR_CONFIGS = (bool, int)
# The naming rule, as error messages state it.
RULE = ('actions are %s or custom upper-case identifiers such as BACKUP '
        '(%s)' % (', '.join(protocol.LIFECYCLE_ACTIONS),
                  action_names.NAME_PATTERN))


def action_problem(where, value):
    """Why `value` cannot be an action, as an error naming `where`."""
    found = action_names.problem(value)
    if found is None:
        return None
    return '%s: %s (%s)' % (where, found, RULE)


def _entry_problems(index, entry, owner_of):
    """Problems of configs[index]; owner_of maps action -> first index."""
    where = 'configs[%d]' % index
    if not isinstance(entry, dict):
        yield '%s must be a map with actions, config and tool, not %s' % (
            where, protocol.shown(entry))
        return
    tool = entry.get(protocol.TOOL)
    if tool is None or not str(tool).strip():
        yield '%s.%s is required and must not be empty (got %s)' % (
            where, protocol.TOOL, protocol.shown(tool))
    config = entry.get(protocol.ENTRY_CONFIG)
    if config is not None and not isinstance(config, (str, dict) +
                                             SCALAR_CONFIGS):
        yield '%s.%s must be a string or a map, not %s' % (
            where, protocol.ENTRY_CONFIG, protocol.shown(config))
    actions = entry.get(protocol.ACTIONS)
    if actions is None:
        actions = DEFAULT_ACTIONS
    if not actions:
        yield '%s.%s is empty: list at least one action (%s)' % (
            where, protocol.ACTIONS, RULE)
    for action in actions:
        if action is None:
            continue  # not resolved yet (validation before create)
        bad = action_problem('%s.%s' % (where, protocol.ACTIONS), action)
        if bad:
            yield bad
        elif action in owner_of:
            yield ('%s.%s: action %s is already handled by configs[%d]; an '
                   'action may appear in at most one entry (an entry without '
                   'actions handles %s)' % (
                       where, protocol.ACTIONS, protocol.shown(action),
                       owner_of[action],
                       ' and '.join(DEFAULT_ACTIONS)))
        else:
            owner_of[action] = index


def problems(configs):
    """Every problem of a component's configs list, as readable strings."""
    if configs is None:
        return []
    if not configs:
        return ['configs is empty: give at least one entry']
    found, owner_of = [], {}
    for index, entry in enumerate(configs):
        found.extend(_entry_problems(index, entry, owner_of))
    return found


def first_problem(configs):
    found = problems(configs)
    return found[0] if found else None


def stored_configs(configs, options):
    """The `configs` list as stored: each entry with its tool's options."""
    tools = {entry.get(protocol.TOOL) for entry in configs}
    stored = []
    for entry in configs:
        actions = entry.get(protocol.ACTIONS)
        tool = entry.get(protocol.TOOL)
        config = entry.get(protocol.ENTRY_CONFIG)
        stored.append({
            protocol.ACTIONS: list(DEFAULT_ACTIONS if actions is None
                                   else actions),
            protocol.ENTRY_CONFIG: (str(config) if isinstance(
                config, SCALAR_CONFIGS) else config),
            protocol.TOOL: tool,
            protocol.ENTRY_OPTIONS: protocol.tool_options(options or {},
                                                          tool, tools),
        })
    return stored


def is_component(software_config):
    """Whether a software config (as the RPC API shows it) is a component."""
    return software_config.get(protocol.GROUP) == protocol.COMPONENT_GROUP


def handled_actions(software_config):
    """The actions, lifecycle and custom, a stored component handles."""
    stored = software_config.get(protocol.CONFIG) or {}
    actions = set()
    for entry in stored.get(protocol.CONFIGS) or []:
        actions.update(entry.get(protocol.ACTIONS) or ())
    return actions
