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
"""Our types are drop-in replacements of the in-tree ones on this Heat.

Every property and attribute of the in-tree type exists in ours, with the
same type, never required, immutable or frozen where the in-tree one is
not, and the same default and allowed values (or more).
"""

import pytest

from heat.engine import attributes
from heat.engine import constraints
from heat.engine import properties
from heat.engine.resources.openstack.heat import resource_chain
from heat.engine.resources.openstack.heat import software_component
from heat.engine.resources.openstack.heat import software_deployment
from heat.engine.resources.openstack.mistral import external_resource

from heat_lifecycle_plugins.resources import external_resource as our_er
from heat_lifecycle_plugins.resources import resource_chain as our_rc
from heat_lifecycle_plugins.resources import software_component as our_sc
from heat_lifecycle_plugins.resources import software_deployment as our_sd

PAIRS = {
    'OS::Heat::SoftwareComponent': (software_component.SoftwareComponent,
                                    our_sc.SoftwareComponent),
    'OS::Heat::SoftwareDeployment': (software_deployment.SoftwareDeployment,
                                     our_sd.SoftwareDeployment),
    'OS::Heat::ResourceChain': (resource_chain.ResourceChain,
                                our_rc.ResourceChain),
    'OS::Mistral::ExternalResource': (
        external_resource.MistralExternalResource, our_er.ExternalResource),
}

# Where ours takes a wider type on purpose; it still takes every value the
# in-tree type takes (tests/unit/test_component_config.py: an integer or
# boolean config is stored as its text, as the in-tree string property does).
WIDENED = {
    ('OS::Heat::SoftwareComponent', 'configs.*.config'): (
        properties.Schema.STRING, properties.Schema.ANY),
}


# Maps whose keyed schema ours opens to more keys; a constraint of ours
# checks what the keyed schema checked (tests/unit/test_action_constraints).
OPENED = {
    ('OS::Mistral::ExternalResource', 'actions'): 'custom action names',
}


def allowed_values(schema):
    found = [c for c in schema.constraints
             if isinstance(c, constraints.AllowedValues)]
    return set(found[0].allowed) if found else None


def schema_differences(type_name, path, theirs, ours):
    """Why property schema `ours` is not a drop-in for `theirs`."""
    if ours is None:
        yield '%s: missing' % path
        return
    if (theirs.type != ours.type and
            WIDENED.get((type_name, path)) != (theirs.type, ours.type)):
        yield '%s: type %s, in-tree %s' % (path, ours.type, theirs.type)
    if ours.required and not theirs.required:
        yield '%s: required, optional in-tree' % path
    if theirs.update_allowed and not ours.update_allowed:
        yield '%s: replaces on update, updated in place in-tree' % path
    if ours.immutable and not theirs.immutable:
        yield '%s: immutable, mutable in-tree' % path
    if theirs.default != ours.default:
        yield '%s: default %r, in-tree %r' % (path, ours.default,
                                              theirs.default)
    allowed = allowed_values(ours)
    if allowed is not None and not allowed >= (allowed_values(theirs) or
                                               {object()}):
        yield '%s: allows %s, in-tree %s' % (path, sorted(allowed),
                                             allowed_values(theirs))
    if isinstance(theirs.schema, properties.Schema):
        yield from schema_differences(type_name, path + '.*', theirs.schema,
                                      ours.schema)
    elif theirs.schema and (type_name, path) not in OPENED:
        yield from map_differences(type_name, path + '.', theirs.schema,
                                   ours.schema or {})


def map_differences(type_name, prefix, theirs, ours):
    for key, schema in sorted(theirs.items()):
        yield from schema_differences(type_name, prefix + key, schema,
                                      ours.get(key))


@pytest.mark.parametrize('type_name', sorted(PAIRS))
def test_properties_are_a_superset_of_the_in_tree_ones(type_name):
    theirs, ours = PAIRS[type_name]
    differences = list(map_differences(
        type_name, '', properties.schemata(theirs.properties_schema),
        properties.schemata(ours.properties_schema)))
    assert not differences, '%s: %s' % (type_name, differences)


@pytest.mark.parametrize('type_name', sorted(PAIRS))
def test_attributes_are_a_superset_of_the_in_tree_ones(type_name):
    theirs, ours = (attributes.schemata(cls.attributes_schema)
                    for cls in PAIRS[type_name])
    differences = ['%s: %s' % (name, 'missing' if name not in ours else
                               'type %s, in-tree %s' % (ours[name].type,
                                                        schema.type))
                   for name, schema in sorted(theirs.items())
                   if name not in ours or ours[name].type != schema.type]
    assert not differences, '%s: %s' % (type_name, differences)


def test_the_comparison_sees_a_missing_or_stricter_property():
    """The check itself: a copy of the in-tree schema made stricter."""
    theirs = properties.schemata(
        software_deployment.SoftwareDeployment.properties_schema)
    ours = dict(theirs)
    del ours['name']
    ours['config'] = properties.Schema(properties.Schema.STRING,
                                       required=True)
    assert sorted(map_differences('X', '', theirs, ours)) == [
        'config: replaces on update, updated in place in-tree',
        'config: required, optional in-tree',
        'name: missing',
    ]
