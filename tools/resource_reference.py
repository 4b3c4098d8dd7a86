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
"""Our resource types from their schemas, as reStructuredText.

For every type of the heat_lifecycle_plugins.resources entry-point group,
as Heat's template guide presents a type: its support status, its
description (the class docstring), required and optional properties (type,
description, default, constraints, whether an update replaces the
resource, nested schemas) and attributes. Read from the classes Heat loads,
so the reference cannot drift from the code (tools/gen_references.py
writes it; a unit test fails when the committed copy is stale).
"""

import contextlib
import inspect
import json
import logging
import warnings

from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import registry

INDENT = '    '


def _text(value):
    return ' '.join(str(value or '').split())


def _literal(value):
    """A default value as a template writes it (JSON), inline literal."""
    try:
        return '``%s``' % json.dumps(value, sort_keys=True)
    except TypeError:
        return '``%s``' % (value,)


def support_line(status):
    """'Available since 2014.1.' plus a non-SUPPORTED status, or ''."""
    if status is None:
        return ''
    parts = []
    if status.version:
        parts.append('Available since %s.' % status.version)
    if status.status != 'SUPPORTED':
        parts.append('%s%s' % (status.status, ': %s' % _text(status.message)
                               if status.message else '.'))
    return ' '.join(parts)


def _keys(schema):
    """(name, schema) of a map's keys, or [] (a list's item is '*')."""
    nested = getattr(schema, 'schema', None)
    return [(name, nested[name]) for name in sorted(nested or ())]


def nested_lines(schema, pad):
    """What a list's items or a map's keys are, under `pad`."""
    keys = _keys(schema)
    if not keys:
        return []
    if keys[0][0] != '*':
        lines = [pad + 'Keys:', '']
        for key, sub in keys:
            lines += property_lines(key, sub, pad + INDENT)
        return lines
    item = keys[0][1]
    if _keys(item):
        return [pad + 'Each item is a %s with these keys:' % item.type,
                ''] + [line for key, sub in _keys(item)
                       for line in property_lines(key, sub, pad + INDENT)]
    described = _text(item.description)
    return [pad + 'Each item is a %s%s' % (
        item.type, ': %s' % described if described else '.'), '']


def property_lines(name, schema, pad=''):
    """A definition-list item for one property (and its nested schema).

    A top-level property (pad '') also says whether an update replaces
    the resource and its support status.
    """
    body = pad + INDENT
    lines = [pad + '``%s``' % name,
             body + (_text(schema.description) or 'No description given.'),
             '']
    fields = [':Type: %s' % schema.type]
    if schema.default is not None:
        fields.append(':Default: %s' % _literal(schema.default))
    if not pad:
        fields.append(':Update: %s' % (
            'can be updated without replacement' if schema.update_allowed
            else 'updating it replaces the resource'))
    if getattr(schema, 'immutable', False):
        fields.append(':Immutable: yes')
    for constraint in schema.constraints or ():
        fields.append(':Constraint: %s' % _text(constraint))
    status = support_line(getattr(schema, 'support_status', None))
    if status and not pad:
        fields.append(':Support: %s' % status)
    lines += [body + field for field in fields] + ['']
    return lines + nested_lines(schema, body)


def attribute_lines(name, schema):
    lines = ['``%s``' % name,
             INDENT + (_text(schema.description) or 'No description given.'),
             '']
    kind = getattr(schema, 'type', None)
    if kind and kind != 'UNKNOWN':
        lines += [INDENT + ':Type: %s' % kind.capitalize(), '']
    return lines


def _section(title, char):
    return [title, char * len(title), '']


def _visible(schemas):
    """Implemented, not hidden: what a template may use."""
    for name in sorted(schemas):
        schema = schemas[name]
        status = getattr(schema, 'support_status', None)
        if getattr(schema, 'implemented', True) and not (
                status is not None and status.status == 'HIDDEN'):
            yield name, schema


def type_lines(type_name, cls):
    """The RST of one resource type."""
    lines = _section(type_name, '-')
    status = support_line(getattr(cls, 'support_status', None))
    if status:
        lines += [status, '']
    lines += ['Implemented by ``%s.%s``.' % (cls.__module__, cls.__name__),
              '']
    lines += (inspect.getdoc(cls) or '').splitlines() + ['']
    properties = list(_visible(cls.properties_schema))
    for title, required in (('Required properties', True),
                            ('Optional properties', False)):
        chosen = [(n, s) for n, s in properties if bool(s.required) is
                  required]
        lines += _section(title, '~')
        if not chosen:
            lines += ['None.', '']
        for name, schema in chosen:
            lines += property_lines(name, schema)
    attributes = dict(cls.base_attributes_schema)
    attributes.update(cls.attributes_schema)
    lines += _section('Attributes', '~')
    for name, schema in _visible(attributes):
        lines += attribute_lines(name, schema)
    return lines


@contextlib.contextmanager
def heat_notices_off():
    """No Heat notices (its deprecated in-tree types) in the build log.

    Nor the deprecation warning of an engine runtime. The build's own
    warnings go through Sphinx's logger and still fail it; an error Heat
    logs still shows.
    """
    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            yield
    finally:
        logging.disable(previous)


def our_types():
    """(type name, class) of every type in the entry-point group."""
    heat_internals.select_engine_runtime()
    return sorted((ep.name, ep.load()) for ep in
                  registry.group_entry_points())
