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
"""OS::Heat::SoftwareComponent: one software component, a config per action.

Replaces Heat's in-tree type of the same name with the same properties and
attribute, and adds what the spec asks for and the in-tree type lacks: action
names are checked (with a "did you mean" for near misses; custom day-two
actions such as BACKUP are upper-case identifiers), every error names
the entry's index and the bad value, and `options` may hold one section per
tool, each config receiving only its own tool's section.
"""

from heat.common.i18n import _
from heat.engine import attributes
from heat.engine import constraints
from heat.engine import properties
from heat.engine import support
from heat.rpc import api as rpc_api
from oslo_serialization import jsonutils

from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.resources import common
from heat_lifecycle_plugins.resources import component_config

SoftwareConfig = heat_internals.in_tree_software_config()


def valid_component_configs():
    """The configs list's own rules, each error naming entry and value."""
    return common.ProblemConstraint(
        constraints.Schema.LIST_TYPE, component_config.first_problem,
        _('Actions are lifecycle actions (%s) or custom upper-case '
          'identifiers, and appear in at most one entry; each entry has a '
          'tool.') % ', '.join(protocol.LIFECYCLE_ACTIONS))


class SoftwareComponent(common.StorableErrors, SoftwareConfig):
    """A software component: one configuration per lifecycle action.

    Like OS::Heat::SoftwareConfig this is a static, immutable store of
    configuration (any change replaces it). Each entry of `configs` names the
    lifecycle actions (CREATE, DELETE, SUSPEND, RESUME, UPDATE) it handles,
    the config and the tool that applies it on the server; an action may
    appear in at most one entry. An entry without `actions` handles CREATE
    and UPDATE. An entry may also handle custom actions (upper-case
    identifiers such as BACKUP), which run only when a deployment's
    `extended_action` is requested.

    `options` is shared by all entries, except that a key named like a tool
    used by an entry is that tool's own section: each entry receives the
    options that are not tool sections plus only its own tool's section.

    The component is stored through Heat's software-config API with group
    `component`, so OS::Heat::SoftwareDeployment delivers the whole set of
    configs to the server and the in-instance agent selects the entry for
    the `deploy_action` input.
    """

    support_status = support.SupportStatus(version='2014.2')

    PROPERTIES = (
        CONFIGS, INPUTS, OUTPUTS, OPTIONS,
    ) = (
        protocol.CONFIGS, SoftwareConfig.INPUTS, SoftwareConfig.OUTPUTS,
        SoftwareConfig.OPTIONS,
    )

    ENTRY_KEYS = (
        ENTRY_ACTIONS, ENTRY_CONFIG, ENTRY_TOOL,
    ) = (
        protocol.ACTIONS, protocol.ENTRY_CONFIG, protocol.TOOL,
    )

    ATTRIBUTES = (
        CONFIGS_ATTR, CONFIG_ATTR,
    ) = (
        protocol.CONFIGS, SoftwareConfig.CONFIG_ATTR,
    )

    # Checked as a whole by valid_component_configs(), so that each error can
    # name the entry's index and the bad value.
    entry_schema = properties.Schema(
        properties.Schema.MAP,
        schema={
            ENTRY_ACTIONS: properties.Schema(
                properties.Schema.LIST,
                _('Actions this entry handles: lifecycle actions (%s) and '
                  'custom actions, upper-case identifiers such as BACKUP '
                  'that a deployment runs when its extended_action is '
                  'requested. A near miss of a lifecycle action (CRAETE, '
                  'create) is refused. An action may appear in at most one '
                  'entry.') % ', '.join(protocol.LIFECYCLE_ACTIONS),
                default=list(component_config.DEFAULT_ACTIONS),
                schema=properties.Schema(properties.Schema.STRING),
            ),
            ENTRY_CONFIG: properties.Schema(
                properties.Schema.ANY,
                _('The configuration the tool applies: a script or manifest '
                  '(string) or a structured config (map).'),
            ),
            ENTRY_TOOL: properties.Schema(
                properties.Schema.STRING,
                _('The configuration tool that applies this entry on the '
                  'server (the in-instance hook name, e.g. script, puppet, '
                  'ansible). Required, not empty.'),
            ),
        })

    properties_schema = {
        CONFIGS: properties.Schema(
            properties.Schema.LIST,
            _('The configurations of the component, one entry per set of '
              'lifecycle actions. At least one entry.'),
            schema=entry_schema,
            required=True,
            constraints=[valid_component_configs()],
        ),
        INPUTS: SoftwareConfig.properties_schema[SoftwareConfig.INPUTS],
        OUTPUTS: SoftwareConfig.properties_schema[SoftwareConfig.OUTPUTS],
        OPTIONS: properties.Schema(
            properties.Schema.MAP,
            _('Options of the configuration tools. A key named like a tool '
              'of an entry is that tool\'s own section (e.g. {chef: {...}, '
              'puppet: {...}}) and reaches only that tool\'s entries; other '
              'keys reach every entry.'),
        ),
    }

    attributes_schema = {
        CONFIGS_ATTR: attributes.Schema(
            _('The stored configs of the component, each with the options '
              'its tool receives.'),
            type=attributes.Schema.LIST,
        ),
        # Declared by the in-tree type (inherited from SoftwareConfig), which
        # always returns null for it.
        CONFIG_ATTR: attributes.Schema(
            _('The component as the software-config API stores it and a '
              'deployment delivers it: the JSON text of {"configs": [...]}, '
              'each entry with its actions, config, tool and options.'),
            type=attributes.Schema.STRING,
        ),
    }

    def validate_template(self):
        """Also check configs when only the template is validated.

        Heat's template-validate skips property values (no constraints run),
        so a typo in an action would pass it; the check here sees the
        values that are known before create and skips unresolved ones.
        """
        super(SoftwareComponent, self).validate_template()
        common.refuse_known_problem(self, self.CONFIGS,
                                    component_config.first_problem)

    def config_as_defined(self):
        """The software config this definition stores (group, config).

        As the RPC API shows one: what a deployment checks a request
        against before the component exists.
        """
        return {rpc_api.SOFTWARE_CONFIG_GROUP: protocol.COMPONENT_GROUP,
                rpc_api.SOFTWARE_CONFIG_CONFIG: {
                    self.CONFIGS: component_config.stored_configs(
                        self.properties[self.CONFIGS],
                        self.properties[self.OPTIONS])}}

    def handle_create(self):
        defined = self.config_as_defined()
        sc = self.rpc_client().create_software_config(
            self.context,
            group=defined[rpc_api.SOFTWARE_CONFIG_GROUP],
            name=self.physical_resource_name(),
            config=defined[rpc_api.SOFTWARE_CONFIG_CONFIG],
            inputs=self.properties[self.INPUTS] or [],
            outputs=self.properties[self.OUTPUTS] or [],
            options=self.properties[self.OPTIONS] or {})
        self.resource_id_set(sc[rpc_api.SOFTWARE_CONFIG_ID])

    def _resolve_attribute(self, name):
        if name not in self.ATTRIBUTES or not self.resource_id:
            return None
        with self.rpc_client().ignore_error_by_name('NotFound'):
            sc = self.rpc_client().show_software_config(
                self.context, self.resource_id)
            stored = sc[rpc_api.SOFTWARE_CONFIG_CONFIG] or {}
            if name == self.CONFIGS_ATTR:
                return stored.get(self.CONFIGS)
            return jsonutils.dumps(stored, sort_keys=True)
