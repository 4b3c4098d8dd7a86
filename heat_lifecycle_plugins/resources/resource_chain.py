"""OS::Heat::ResourceChain: a nested stack of one member per listed type.

Drop-in replacement for Heat's in-tree type (same properties and attributes)
that keeps member identity across updates, updates `concurrent` and
`resource_properties` in place and creates concurrent members really
concurrently on a single engine.

Member names are stable: a chain is created with the in-tree names "0" ..
"n-1"; on update, entries are matched to the previous entries of the same
type (the k-th entry of a type keeps the member of the previous k-th entry of
that type), so inserting, removing or reordering entries only creates or
deletes the members whose entry appeared or went away. New members get names
never used by the chain before. The ordered (type, name) list is kept in the
resource's data; `resource.<index>` and every other attribute go through it,
so indices always follow the current list position.
"""

import collections
import itertools

from oslo_log import log as logging
from oslo_serialization import jsonutils

from heat.common import exception
from heat.common.i18n import _
from heat.engine import attributes
from heat.engine import constraints
from heat.engine import properties
from heat.engine.resources import stack_resource
from heat.engine import support

LOG = logging.getLogger(__name__)

MEMBERS_DATA_KEY = 'chain_members'
TEMPLATE_SUFFIXES = ('.yaml', '.template')
# Convergence pauses one second after starting each resource that has no
# dependencies (stack.converge_stack), so N independent members start N
# seconds apart. A concurrent chain therefore hangs its members between two
# no-op gates: creation has a single leaf (the start gate) and deletion has a
# single leaf (the end gate); everything in between is started by dependency
# propagation, which does not pause.
START_GATE = 'chain_start'
END_GATE = 'chain_end'
GATE_TYPE = 'OS::Heat::None'
DEFAULT_CONCURRENCY_LIMIT = 10


def plan_member_names(old_types, old_names, new_types):
    """Names for new_types, keeping the members of matching old entries.

    The k-th occurrence of a type in new_types gets the name of the k-th
    occurrence of that type in old_types; entries without a match get fresh
    names, numbers above every name in old_names.
    """
    available = collections.defaultdict(collections.deque)
    for rtype, name in zip(old_types, old_names):
        available[rtype].append(name)
    used_numbers = [int(n) for n in old_names if str(n).isdigit()]
    fresh = itertools.count(max(used_numbers, default=-1) + 1)
    names = []
    for rtype in new_types:
        if available[rtype]:
            names.append(available[rtype].popleft())
        else:
            names.append(str(next(fresh)))
    return names


class ResourceChain(stack_resource.StackResource):
    """Creates one resource per type listed in ``resources``.

    Every member gets the same ``resource_properties``. By default each member
    depends on the one before it, so a failing member stops the chain; with
    ``concurrent`` true the members are created concurrently, at most
    ``concurrency_limit`` (default 10, 0 for no limit) at a time.

    Members keep their identity across updates: inserting, removing or
    reordering entries of ``resources`` only creates or deletes the members
    whose entry appeared or went away. ``concurrent``,
    ``resource_properties`` and ``concurrency_limit`` change in place.
    """

    support_status = support.SupportStatus(version='6.0.0')

    PROPERTIES = (
        RESOURCES, CONCURRENT, RESOURCE_PROPERTIES, CONCURRENCY_LIMIT,
    ) = (
        'resources', 'concurrent', 'resource_properties', 'concurrency_limit',
    )

    ATTRIBUTES = (
        REFS, ATTR_ATTRIBUTES,
    ) = (
        'refs', 'attributes',
    )

    properties_schema = {
        RESOURCES: properties.Schema(
            properties.Schema.LIST,
            _('The resource types of the chain\'s members, in order. Each '
              'entry is a type name, an alias of the resource registry or '
              'the name of a template file in the stack\'s files. Changing '
              'the list only creates or deletes the members whose entry '
              'was added or removed.'),
            required=True,
            update_allowed=True,
        ),
        CONCURRENT: properties.Schema(
            properties.Schema.BOOLEAN,
            _('If true, the members are created concurrently. If false, each '
              'member depends on the one before it. Changes in place.'),
            default=False,
            update_allowed=True,
        ),
        RESOURCE_PROPERTIES: properties.Schema(
            properties.Schema.MAP,
            _('Properties given to every member of the chain. Changes in '
              'place: members are updated, not the chain replaced.'),
            update_allowed=True,
        ),
        CONCURRENCY_LIMIT: properties.Schema(
            properties.Schema.INTEGER,
            _('With concurrent true, the largest number of members created '
              'at the same time: the members are dealt into this many lanes '
              'that each run in order. 0 means no limit. Convergence slows '
              'down when many resources finish at once (its sync points '
              'retry with random backoff), hence the default of 10.'),
            default=DEFAULT_CONCURRENCY_LIMIT,
            constraints=[constraints.Range(min=0)],
            update_allowed=True,
            support_status=support.SupportStatus(
                support.SUPPORTED,
                _('Added by heat-lifecycle-plugins.')),
        ),
    }

    attributes_schema = {
        REFS: attributes.Schema(
            _('The physical ids of the members, in list order.'),
            type=attributes.Schema.LIST
        ),
        ATTR_ATTRIBUTES: attributes.Schema(
            _('With an attribute name: a map of member index ("0", "1", ...) '
              'to the value of that attribute of the member.'),
            type=attributes.Schema.MAP
        ),
    }

    # -- members -------------------------------------------------------------

    def _types(self):
        return list(self.properties[self.RESOURCES] or [])

    def _stored_members(self):
        """(types, names) stored by the last create or update, or None."""
        raw = self.data().get(MEMBERS_DATA_KEY)
        if not raw:
            return None
        stored = jsonutils.loads(raw)
        return stored['types'], stored['names']

    def _store_members(self, types, names):
        self.data_set(MEMBERS_DATA_KEY,
                      jsonutils.dumps({'types': types, 'names': names}))

    def _member_names(self, types=None):
        """Member names for `types` (default: the current property)."""
        if types is None:
            types = self._types()
        stored = self._stored_members()
        if stored is None:
            # New chain, or one created by the in-tree type: index names.
            return [str(i) for i in range(len(types))]
        return plan_member_names(stored[0], stored[1], types)

    # -- validation ----------------------------------------------------------

    def _entry_error(self, index, rtype, reason):
        return exception.StackValidationFailed(
            message=_('Resource "%(res)s": property "%(prop)s"[%(index)d] '
                      '%(value)s %(reason)s') % {
                'res': self.name, 'prop': self.RESOURCES, 'index': index,
                'value': jsonutils.dumps(rtype), 'reason': reason})

    def _validate_member_types(self):
        files = self.stack.t.files
        checked = set()
        for index, rtype in enumerate(self._types()):
            if not isinstance(rtype, str) or not rtype.strip():
                raise self._entry_error(index, rtype,
                                        _('is not a resource type name'))
            if rtype in checked:
                continue
            try:
                info = self.stack.env.get_resource_info(rtype)
            except exception.EntityNotFound:
                raise self._entry_error(
                    index, rtype,
                    _('is not a known resource type (neither a plugin, nor '
                      'mapped in the resource_registry, nor a template file '
                      'of the stack)'))
            template_name = getattr(info, 'template_name', None)
            if (template_name and template_name not in files and
                    '://' not in template_name):
                raise self._entry_error(index, rtype,
                                        self._missing_file_reason(
                                            rtype, template_name))
            checked.add(rtype)

    @staticmethod
    def _missing_file_reason(rtype, template_name):
        if rtype == template_name:
            return _('is a template file that is not in the stack\'s files; '
                     'map a type name to it in the environment\'s '
                     'resource_registry and list that name, so that the '
                     'client uploads the file')
        return _('is mapped to the template file "%s", which is not in the '
                 'stack\'s files') % template_name

    def validate_template(self):
        result = super(ResourceChain, self).validate_template()
        # Template validation (the validate_template API) resolves no
        # property values in general; check the members when it can.
        try:
            self._types()
        except Exception as exc:
            LOG.debug('%s: member types not resolvable yet: %s',
                      self.name, exc)
        else:
            self._validate_member_types()
        return result

    def validate_nested_stack(self):
        self._validate_member_types()
        super(ResourceChain, self).validate_nested_stack()

    # -- nested template -----------------------------------------------------

    def child_template(self):
        return self._chain_template(self._types(), self._member_names())

    def child_params(self):
        return {}

    def _lanes(self, names):
        return self.properties[self.CONCURRENCY_LIMIT] or len(names)

    def _use_gates(self, names):
        return self.properties[self.CONCURRENT] and len(names) > 1

    def _member_dependencies(self, names):
        """{member name: [names it depends on]}."""
        if not self.properties[self.CONCURRENT]:
            return {name: names[i - 1:i] for i, name in enumerate(names)}
        lanes = self._lanes(names)
        gate = [START_GATE] if self._use_gates(names) else []
        return {name: gate if i < lanes else [names[i - lanes]]
                for i, name in enumerate(names)}

    def _chain_template(self, types, names):
        member_props = self.properties[self.RESOURCE_PROPERTIES]
        deps = self._member_dependencies(names)
        resources = {}
        for rtype, name in zip(types, names):
            defn = {'type': rtype}
            if member_props:
                defn['properties'] = member_props
            if deps[name]:
                defn['depends_on'] = deps[name]
            resources[name] = defn
        if self._use_gates(names):
            # The end gate waits for the last member of each lane: the
            # others are done before those.
            resources[START_GATE] = {'type': GATE_TYPE}
            resources[END_GATE] = {'type': GATE_TYPE,
                                   'depends_on': names[-self._lanes(names):]}
        return {
            'heat_template_version': '2015-04-30',
            'resources': resources,
            'outputs': self._attribute_outputs(names),
        }

    # -- attributes ----------------------------------------------------------

    @staticmethod
    def _output_name(key, *path):
        return ', '.join(str(p) for p in (key,) + tuple(path))

    def _attribute_outputs(self, names):
        """Nested outputs for the attributes the parent stack references."""
        outputs = {}
        for attr in self.referenced_attrs():
            key, path = (attr, []) if isinstance(attr, str) else (
                attr[0], list(attr[1:]))
            value = self._output_value(names, key, path)
            if value is not None:
                outputs[self._output_name(key, *path)] = {'value': value}
        return outputs

    def _output_value(self, names, key, path):
        if key.startswith('resource.'):
            index, attr_path = self._parse_member_key(key)
            if index is None or index >= len(names):
                return None
            name = names[index]
            if attr_path or path:
                return {'get_attr': [name] + attr_path + path}
            return {'get_resource': name}
        if key == self.REFS:
            return [{'get_resource': n} for n in names]
        if key == self.ATTR_ATTRIBUTES:
            if not path:
                return None
            return {str(i): {'get_attr': [n] + path}
                    for i, n in enumerate(names)}
        return [{'get_attr': [n, key] + path} for n in names]

    @staticmethod
    def _parse_member_key(key):
        """'resource.<index>[.<attr>]' -> (index or None, [attr])."""
        parts = key.split('.', 2)
        index = int(parts[1]) if parts[1].isdigit() else None
        return index, parts[2:]

    def get_attribute(self, key, *path):
        if key == self.ATTR_ATTRIBUTES and not path:
            raise exception.InvalidTemplateAttribute(resource=self.name,
                                                     key=key)
        names = self._current_names()
        if key.startswith('resource.'):
            index, _attr = self._parse_member_key(key)
            if index is None or index >= len(names):
                raise exception.NotFound(
                    _('Member "%(key)s" not found in resource chain '
                      '"%(chain)s", which has %(n)d members.') % {
                        'key': key, 'chain': self.name, 'n': len(names)})
        try:
            value = self.get_output(self._output_name(key, *path))
        except (exception.NotFound, exception.TemplateOutputError) as err:
            LOG.debug('%s: attribute %s not in nested outputs (%s); '
                      'reading the members', self.name, key, err)
            return self._attribute_from_members(names, key, list(path))
        if key == self.REFS:
            return attributes.select_from_attribute(value, path)
        return value

    def _resolve_attribute(self, name):
        # Attributes asked for by name (resource show with_attr) take the
        # same path as get_attr.
        return self.get_attribute(name)

    def _current_names(self):
        stored = self._stored_members()
        if stored is not None:
            return stored[1]
        return self._member_names()

    def _attribute_from_members(self, names, key, path):
        """Slow path: resolve an attribute on the loaded nested stack."""
        nested = self.nested()

        def member(name):
            return nested[name] if nested is not None and name in nested \
                else None

        def ref(name):
            rsrc = member(name)
            return rsrc.FnGetRefId() if rsrc is not None else None

        def attr(name, *attr_path):
            rsrc = member(name)
            return rsrc.FnGetAtt(*attr_path) if rsrc is not None else None

        if key.startswith('resource.'):
            index, attr_path = self._parse_member_key(key)
            if attr_path or path:
                return attr(names[index], *(attr_path + path))
            return ref(names[index])
        if key == self.REFS:
            return attributes.select_from_attribute(
                [ref(n) for n in names], path)
        if key == self.ATTR_ATTRIBUTES:
            return {str(i): attr(n, *path) for i, n in enumerate(names)}
        return [attr(n, key, *path) for n in names]

    # -- lifecycle -----------------------------------------------------------

    def handle_create(self):
        types = self._types()
        names = [str(i) for i in range(len(types))]
        self._store_members(types, names)
        return self.create_with_template(self._chain_template(types, names))

    def handle_update(self, json_snippet, tmpl_diff, prop_diff):
        if self._stored_members() is None:
            # Created by the in-tree type: its names are the list indices.
            old_types = self._types()
            self._store_members(old_types,
                                [str(i) for i in range(len(old_types))])
        self.properties = json_snippet.properties(self.properties_schema,
                                                  self.context)
        types = self._types()
        names = self._member_names(types)
        self._store_members(types, names)
        return self.update_with_template(self._chain_template(types, names))
