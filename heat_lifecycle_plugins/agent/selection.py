"""Which config and which hook a deployment runs.

Group `component` (a SoftwareComponent): the entry of `config.configs` whose
`actions` contain the deployment's `deploy_action`, run as a deployment of
group <tool> with only that entry's options. Any other group runs as is.
"""

import copy
import re

from heat_lifecycle_plugins.agent import deployments

COMPONENT = 'component'
HOOK_NAME = re.compile(r'^[A-Za-z0-9_-]+$')


class NoConfigForAction(deployments.BadDeployment):
    """A component has no config for the action Heat asked for."""


def hook_name(deployment, group):
    if not isinstance(group, str) or not HOOK_NAME.match(group):
        raise deployments.BadDeployment(
            'deployment %s: tool/group %r is not a valid hook name (letters, '
            'digits, - and _ only)' % (deployments.describe(deployment),
                                       group))
    return group


def _entry_options(entry, component_options, tools):
    """An entry's options: its own, or derived from the component's.

    Keys of the component's options named like a tool of the component are
    tool sections: the entry gets its own tool's section and the keys that
    are not sections.
    """
    if isinstance(entry.get('options'), dict):
        return entry['options']
    if not isinstance(component_options, dict):
        return component_options
    return {k: v for k, v in component_options.items()
            if k not in tools or k == entry.get('tool')}


def select(deployment):
    """The deployment to give the hook (a new dict); raises BadDeployment."""
    deployments.check(deployment)
    selected = copy.deepcopy(deployment)
    if deployment['group'] != COMPONENT:
        hook_name(deployment, deployment['group'])
        return selected

    name = deployments.describe(deployment)
    action = deployments.input_values(deployment).get('deploy_action')
    config = deployment.get('config')
    configs = config.get('configs') if isinstance(config, dict) else None
    if not isinstance(configs, list):
        raise deployments.BadDeployment(
            'deployment %s: a component config must be a map with a list '
            '"configs", got %r' % (name, config if not isinstance(config, dict)
                                   else sorted(config)))
    for index, entry in enumerate(configs):
        if not isinstance(entry, dict) or not isinstance(
                entry.get('actions'), list):
            raise deployments.BadDeployment(
                'deployment %s: configs[%d] must be a map with a list '
                '"actions", got %r' % (name, index, entry))
    if not action:
        raise deployments.BadDeployment(
            'deployment %s: component deployment without a deploy_action '
            'input' % name)
    matches = [e for e in configs if action in e['actions']]
    if not matches:
        offered = sorted({a for e in configs for a in e['actions']
                          if isinstance(a, str)})
        raise NoConfigForAction(
            'deployment %s: the component has no config for action %s '
            '(its configs cover %s); nothing was run'
            % (name, action, ', '.join(offered) or 'no action'))
    if len(matches) > 1:
        raise deployments.BadDeployment(
            'deployment %s: %d configs of the component list action %s; '
            'only one may' % (name, len(matches), action))
    entry = matches[0]
    tools = {e.get('tool') for e in configs}
    selected['group'] = hook_name(deployment, entry.get('tool'))
    selected['config'] = copy.deepcopy(entry.get('config'))
    selected['options'] = copy.deepcopy(_entry_options(
        entry, deployment.get('options'), tools))
    return selected
