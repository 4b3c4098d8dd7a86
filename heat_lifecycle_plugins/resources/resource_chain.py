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
"""OS::Heat::ResourceChain: a nested stack of one member per listed type.

Drop-in replacement for Heat's in-tree type (same properties and attributes)
that keeps member identity across updates, updates `concurrent` and
`resource_properties` in place and creates concurrent members really
concurrently on a single engine.

Member names are stable: a chain is created with the in-tree names "0" ..
"n-1"; on update, entries are matched to the previous entries in order (the
longest runs of equal types), so inserting or removing entries only creates
or deletes the members whose entry appeared or went away, and a reorder
re-creates the entries that moved (kept members never change order: Heat's
convergence would keep both orders, a dependency cycle). New members get
names never used by the chain before. The ordered (type, name) list is kept
in the resource's data; `resource.<index>` and every other attribute go
through it, so indices always follow the current list position.

What the nested stack looks like (names, dependencies, template, what an
attribute is made of) is planned in chain_plan, without Heat; this class
keeps the member list, validates the types and drives the nested stack.
Its shape (chain_shape) is decided at create: one nested stack, as
in-tree's, unless Heat 25-27's thread budget needs segments
(chain_segments). Updates never move a member, so that none is re-created
for a change of shape: a segmented chain keeps its segments (chains
created before an upgrade too); a flat one that grows past the flat size
on Heat 25-27 keeps its members as direct members of its nested stack and
puts the new ones in segments beside them.
"""

from oslo_config import cfg
from oslo_log import log as logging
from oslo_serialization import jsonutils

from heat.common import exception
from heat.common.i18n import _
from heat.engine import attributes
from heat.engine import constraints
from heat.engine import properties
from heat.engine.resources import stack_resource
from heat.engine import support

from heat_lifecycle_plugins import config
from heat_lifecycle_plugins.resources import chain_plan
from heat_lifecycle_plugins.resources import chain_segments
from heat_lifecycle_plugins.resources import chain_shape
from heat_lifecycle_plugins.resources import common
from heat_lifecycle_plugins.resources import nested_completion

LOG = logging.getLogger(__name__)

MEMBERS_DATA_KEY = 'chain_members'


def _polled(check_name):
    """StackResource's check `check_name`, polled within one call."""
    def check(self, cookie=None):
        stack_resource_check = getattr(super(ResourceChain, self),
                                       check_name)
        return nested_completion.poll_until(
            lambda: stack_resource_check(cookie),
            budget=common.wait_budget(self.stack),
            moved=nested_completion.traversal_moved(self))
    check.__name__ = check_name
    return check


class ResourceChain(common.StorableErrors,
                    stack_resource.StackResource):
    """Creates one resource per type listed in ``resources``.

    Every member gets the same ``resource_properties``. By default each member
    depends on the one before it, so a failing member stops the chain; with
    ``concurrent`` true the members are created concurrently, at most
    ``concurrency_limit`` (default 10, 0 for no limit) at a time.

    Members keep their identity across updates: inserting or removing
    entries of ``resources`` only creates or deletes the members whose entry
    appeared or went away; a reorder re-creates the entries that moved.
    ``concurrent``, ``resource_properties`` and ``concurrency_limit`` change
    in place.
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
        chain_plan.REFS, chain_plan.ATTRIBUTES,
    )

    properties_schema = {
        RESOURCES: common.updatable(
            properties.Schema.LIST,
            _('The resource types of the chain\'s members, in order. Each '
              'entry is a type name, an alias of the resource registry or '
              'the name of a template file in the stack\'s files. Changing '
              'the list only creates or deletes the members whose entry '
              'was added or removed.'),
            required=True,
        ),
        CONCURRENT: common.updatable(
            properties.Schema.BOOLEAN,
            _('If true, the members are created concurrently. If false, each '
              'member depends on the one before it. Changes in place.'),
            default=False,
        ),
        RESOURCE_PROPERTIES: common.updatable(
            properties.Schema.MAP,
            _('Properties given to every member of the chain. Changes in '
              'place: members are updated, not the chain replaced.'),
        ),
        CONCURRENCY_LIMIT: common.added_schema(
            properties.Schema.INTEGER,
            _('With concurrent true, the largest number of members created '
              'at the same time: the members are dealt into this many lanes '
              'that each run in order. 0 means no limit. Convergence slows '
              'down when many resources finish at once (its sync points '
              'retry with random backoff), hence the default of 10.'),
            default=chain_plan.DEFAULT_CONCURRENCY_LIMIT,
            constraints=[constraints.Range(min=0)],
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
        """The layout stored by the last create or update, or None.

        {'types': [...], 'names': [...]} and, for a segmented chain,
        'segments': the segment of each member (null: a direct member of
        the nested stack, one a flat chain had before it grew).
        """
        raw = self.data().get(MEMBERS_DATA_KEY)
        return jsonutils.loads(raw) if raw else None

    def _store_members(self, types, names, segments=None):
        layout = {'types': types, 'names': names}
        if segments is not None:
            layout['segments'] = segments
        self.data_set(MEMBERS_DATA_KEY, jsonutils.dumps(layout))

    @staticmethod
    def _shape_limits():
        """(largest flat chain, segment size) for a new chain here."""
        return chain_shape.limits(
            cfg.CONF[config.GROUP.name].chain_segment_size)

    def _plan(self, types):
        """(names, segments) for `types`; segments None: not segmented."""
        stored = self._stored_members()
        if stored is None:
            # A new chain (validated before its create: the layout the
            # create makes, whose validation stays linear in its length),
            # or one created by the in-tree type: index names, one stack.
            segments = None
            if self.resource_id is None:
                flat, size = self._shape_limits()
                segments = chain_segments.initial_segments(len(types), size,
                                                           flat)
            return chain_plan.index_names(types), segments
        # A segment member's name only says which member stays in which
        # segment (each segment names its own members): fresh names there.
        old_segments = stored.get('segments')
        if old_segments is None and chain_shape.is_segmented(
                len(types), cfg.CONF[config.GROUP.name].chain_segment_size):
            # Flat, grown to a length a new chain would have in segments:
            # its members stay direct.
            old_segments = [chain_segments.DIRECT] * len(stored['names'])
        names = chain_plan.plan_member_names(
            stored['types'], stored['names'], types,
            by_position=old_segments is None)
        if old_segments is None:
            return names, None
        # Created segmented (perhaps under another setting or release) or
        # grown: new members join segments of the size a new chain has.
        names, segments = chain_segments.plan_segments(
            stored['names'], old_segments, names,
            self._shape_limits()[1] or chain_shape.SEGMENT_SIZE)
        if stored.get('segments') is None and all(
                seg is chain_segments.DIRECT for seg in segments):
            return names, None  # no new member: it stays flat as it is
        return names, segments

    def _current_layout(self):
        """(names, segments) of the members as the chain has them now."""
        stored = self._stored_members()
        if stored is not None:
            return stored['names'], stored.get('segments')
        return self._plan(self._types())

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
        return self._chain_template(self._types(),
                                    *self._plan(self._types()))

    def child_params(self):
        return {}

    def _chain_template(self, types, names, segments):
        props = self.properties
        if segments is not None:
            return chain_segments.segmented_template(
                self.type(), types, segments,
                props[self.RESOURCE_PROPERTIES], props[self.CONCURRENT],
                props[self.CONCURRENCY_LIMIT], self.referenced_attrs(),
                names)
        return chain_plan.chain_template(
            types, names, props[self.RESOURCE_PROPERTIES],
            props[self.CONCURRENT], props[self.CONCURRENCY_LIMIT],
            self.referenced_attrs())

    # -- attributes ----------------------------------------------------------

    def get_attribute(self, key, *path):
        if key == self.ATTR_ATTRIBUTES and not path:
            raise exception.InvalidTemplateAttribute(resource=self.name,
                                                     key=key)
        names, segments = self._current_layout()
        if not chain_plan.names_a_member(names, key):
            raise exception.NotFound(
                _('Member "%(key)s" not found in resource chain '
                  '"%(chain)s", which has %(n)d members.') % {
                    'key': key, 'chain': self.name, 'n': len(names)})
        try:
            value = self.get_output(chain_plan.output_name(key, *path))
        except (exception.NotFound, exception.TemplateOutputError) as err:
            # Attributes the parent stack does not reference have no nested
            # output: read the members themselves.
            LOG.debug('%s: attribute %s not in nested outputs (%s); '
                      'reading the members', self.name, key, err)
            if segments is None:
                value = chain_plan.attribute_value(
                    names, key, path, self._member_ref, self._member_attr)
            else:
                value = chain_plan.attribute_value(
                    chain_segments.member_locations(segments, names), key,
                    path,
                    self._segment_member_ref, self._segment_member_attr)
        if key == self.REFS:
            return attributes.select_from_attribute(value, path)
        return value

    def _resolve_attribute(self, name):
        # Attributes asked for by name (resource show with_attr) take the
        # same path as get_attr.
        return self.get_attribute(name)

    def _member(self, name):
        """A member (or segment) of the loaded nested stack, or None.

        None also when listed in our data but not in the nested stack: an
        update that failed before the nested stack took the new template.
        """
        nested = self.nested()
        return nested.get(name) if nested is not None else None

    def _member_ref(self, name):
        member = self._member(name)
        return member.FnGetRefId() if member is not None else None

    def _member_attr(self, name, *attr_path):
        member = self._member(name)
        return member.FnGetAtt(*attr_path) if member is not None else None

    def _segment_member_ref(self, location):
        segment, index = location
        if segment is chain_segments.DIRECT:
            return self._member_ref(index)
        return self._member_attr(segment, '%s%d' % (
            chain_plan.MEMBER_KEY_PREFIX, index))

    def _segment_member_attr(self, location, *attr_path):
        segment, index = location
        if segment is chain_segments.DIRECT:
            return self._member_attr(index, *attr_path)
        return self._member_attr(segment, '%s%d' % (
            chain_plan.MEMBER_KEY_PREFIX, index), *attr_path)

    # -- lifecycle -----------------------------------------------------------

    def handle_create(self):
        types = self._types()
        names, segments = self._plan(types)
        self._store_members(types, names, segments)
        return self.create_with_template(
            self._chain_template(types, names, segments))

    def handle_update(self, json_snippet, tmpl_diff, prop_diff):
        if self._stored_members() is None:
            # Created by the in-tree type: its names are the list indices.
            old_types = self._types()
            self._store_members(old_types, chain_plan.index_names(old_types))
        self.properties = json_snippet.properties(self.properties_schema,
                                                  self.context)
        types = self._types()
        names, segments = self._plan(types)
        self._store_members(types, names, segments)
        return self.update_with_template(
            self._chain_template(types, names, segments))

    # -- completion: noticed within one check, not a second later -----------

    check_create_complete = _polled('check_create_complete')
    check_update_complete = _polled('check_update_complete')
    check_delete_complete = _polled('check_delete_complete')
    check_suspend_complete = _polled('check_suspend_complete')
    check_resume_complete = _polled('check_resume_complete')
    check_check_complete = _polled('check_check_complete')
