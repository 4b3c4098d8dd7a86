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
"""Builders of the HOT snippets the tiers and the benchmarks repeat.

A DeployedServer the fixtures' agent polls, a script config, a deployment
of a config to the server: a test writes only what makes it different,
e.g.::

    hot.template(hot.with_server(
        config=hot.script_config('#!/bin/sh\\nexit 0\\n'),
        deployment=hot.deployment('config')))

template() returns the YAML text heat-api is given, as a user's file.
"""

import yaml

VERSION = '2016-04-08'
THING_VERSION = '2016-10-14'  # the ExternalResource tests' templates
SERVER = 'server'


class _Dumper(yaml.SafeDumper):
    """Scripts (multi-line strings) written as `|` blocks, as by hand."""


_Dumper.add_representer(str, lambda dumper, text: dumper.represent_scalar(
    'tag:yaml.org,2002:str', text, style='|' if '\n' in text else None))


def template(resources, parameters=None, outputs=None, version=VERSION):
    """The HOT text of these sections (those that are None left out)."""
    sections = {'heat_template_version': version, 'parameters': parameters,
                'resources': resources, 'outputs': outputs}
    return yaml.dump({k: v for k, v in sections.items() if v is not None},
                     Dumper=_Dumper, sort_keys=False)


def with_server(**resources):
    """`server`, a DeployedServer, then `resources` (name: resource).

    DeployedServerAgent (stacks.StackDriver's servers) runs its agent.
    """
    return dict({SERVER: {
        'type': 'OS::Heat::DeployedServer',
        'properties': {'software_config_transport': 'POLL_SERVER_HEAT'}}},
        **resources)


def script_config(script, inputs=(), outputs=(),
                  kind='OS::Heat::SoftwareConfig'):
    """A config of group `script`, with these input and output names."""
    properties = {'group': 'script'}
    if inputs:
        properties['inputs'] = [{'name': name} for name in inputs]
    if outputs:
        properties['outputs'] = [{'name': name} for name in outputs]
    properties['config'] = script
    return {'type': kind, 'properties': properties}


def deployment(config, transport='HEAT_SIGNAL',
               kind='OS::Heat::SoftwareDeployment', **properties):
    """A deployment of the resource `config` to `server`.

    properties: the others (input_values, start_timeout...).
    """
    return {'type': kind, 'properties': dict(
        {'config': {'get_resource': config},
         'server': {'get_resource': SERVER}, 'signal_transport': transport},
        **properties)}


def params(**kinds):
    """The parameters section: name=type, or name={'type': ..., ...}."""
    return {name: kind if isinstance(kind, dict) else {'type': kind}
            for name, kind in kinds.items()}


def from_params(*names):
    """input_values that pass each parameter on: {name: get_param}."""
    return {name: {'get_param': name} for name in names}


def attr_outputs(resource, *attributes):
    """Outputs named as the attributes of `resource` they show."""
    return {name: {'value': {'get_attr': [resource, name]}}
            for name in attributes}


def external_resource(actions, **properties):
    """An OS::Mistral::ExternalResource; `properties` beside its actions.

    actions: {ACTION: a workflow's name, or the action's own dict}.
    """
    return {'type': 'OS::Mistral::ExternalResource', 'properties': dict(
        {'actions': {action: {'workflow': how} if isinstance(how, str)
                     else how for action, how in actions.items()}},
        **properties)}


def one_thing(actions, parameters=None, outputs=None, **properties):
    """The text of a template of one ExternalResource, `thing`."""
    return template({'thing': external_resource(actions, **properties)},
                    parameters, outputs, version=THING_VERSION)
