"""The stored form of a software component, shared by component and deployment.

A component is stored through Heat's software-config API with group
`component` and config {"configs": [{"actions", "config", "tool",
"options"}, ...]}; this module checks the template's entries, builds that
form and reads the actions back from it.
"""

import difflib

GROUP = 'component'

ACTIONS, CONFIG, TOOL, OPTIONS = 'actions', 'config', 'tool', 'options'
CONFIGS = 'configs'

LIFECYCLE_ACTIONS = ('CREATE', 'DELETE', 'SUSPEND', 'RESUME', 'UPDATE')
# A config that is an integer or a boolean is stored as its text, as the
# in-tree type's string property does.
SCALAR_CONFIGS = (bool, int)
DEFAULT_ACTIONS = ('CREATE', 'UPDATE')


def _did_you_mean(value):
    text = str(value)
    if text.upper() in LIFECYCLE_ACTIONS:
        return text.upper()
    close = difflib.get_close_matches(text.upper(), LIFECYCLE_ACTIONS, n=1,
                                      cutoff=0.6)
    return close[0] if close else None


def _action_problem(where, value):
    hint = _did_you_mean(value)
    message = '%s.%s: %r is not a lifecycle action' % (where, ACTIONS, value)
    if hint:
        message += '; did you mean %r?' % hint
    return message + ' (allowed: %s)' % ', '.join(LIFECYCLE_ACTIONS)


def _entry_problems(index, entry, owner_of):
    """Problems of configs[index]; owner_of maps action -> first index."""
    where = 'configs[%d]' % index
    if not isinstance(entry, dict):
        yield '%s must be a map with actions, config and tool, not %r' % (
            where, entry)
        return
    tool = entry.get(TOOL)
    if tool is None or not str(tool).strip():
        yield '%s.%s is required and must not be empty (got %r)' % (
            where, TOOL, tool)
    config = entry.get(CONFIG)
    if config is not None and not isinstance(config, (str, dict) +
                                             SCALAR_CONFIGS):
        yield '%s.%s must be a string or a map, not %r' % (
            where, CONFIG, config)
    actions = entry.get(ACTIONS)
    if actions is None:
        actions = DEFAULT_ACTIONS
    if not actions:
        yield '%s.%s is empty: list at least one of %s' % (
            where, ACTIONS, ', '.join(LIFECYCLE_ACTIONS))
    for action in actions:
        if action is None:
            continue  # not resolved yet (validation before create)
        if action not in LIFECYCLE_ACTIONS:
            yield _action_problem(where, action)
        elif action in owner_of:
            yield ('%s.%s: action %r is already handled by configs[%d]; an '
                   'action may appear in at most one entry (an entry without '
                   'actions handles %s)' % (
                       where, ACTIONS, action, owner_of[action],
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


def tool_sections(configs, options):
    """Keys of options that are the section of a tool used by an entry."""
    tools = {entry.get(TOOL) for entry in configs}
    return {key for key in (options or {}) if key in tools}


def entry_options(tool, options, sections):
    """The options one entry's tool receives: shared keys + its section."""
    chosen = {k: v for k, v in (options or {}).items() if k not in sections}
    if tool in sections:
        chosen[tool] = options[tool]
    return chosen


def stored_configs(configs, options):
    """The `configs` list as stored: each entry with its own options."""
    sections = tool_sections(configs, options)
    stored = []
    for entry in configs:
        actions = entry.get(ACTIONS)
        config = entry.get(CONFIG)
        stored.append({
            ACTIONS: list(DEFAULT_ACTIONS if actions is None else actions),
            CONFIG: (str(config) if isinstance(config, SCALAR_CONFIGS)
                     else config),
            TOOL: entry.get(TOOL),
            OPTIONS: entry_options(entry.get(TOOL), options, sections),
        })
    return stored


def is_component(software_config):
    """Whether a software config (as the RPC API shows it) is a component."""
    return software_config.get('group') == GROUP


def handled_actions(software_config):
    """The lifecycle actions a stored component has an entry for."""
    stored = software_config.get('config') or {}
    actions = set()
    for entry in stored.get(CONFIGS) or []:
        actions.update(entry.get(ACTIONS) or ())
    return actions
