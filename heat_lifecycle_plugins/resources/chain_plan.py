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
"""What a resource chain's nested stack looks like, decided without Heat.

A list of member types becomes a nested template: every member gets a name
(plan_member_names keeps the members of the entries that stay and names
the others by position where it can), its
dependencies (member_dependencies: each on the one before, or in lanes
between two gates when concurrent) and the outputs the parent stack's
references to the chain's attributes need. attribute_value is the one place
that says what an attribute is made of; it builds the nested outputs from
template functions and, for attributes without an output, the value itself
from the members.
"""

import difflib
import itertools

REFS, ATTRIBUTES = 'refs', 'attributes'
MEMBER_KEY_PREFIX = 'resource.'
TEMPLATE_VERSION = '2015-04-30'
DEFAULT_CONCURRENCY_LIMIT = 10
# Convergence pauses one second after starting each resource that has no
# dependencies (stack.converge_stack), so N independent members start N
# seconds apart. A concurrent chain therefore hangs its members between two
# no-op gates: creation has a single leaf (the start gate) and deletion has a
# single leaf (the end gate); everything in between is started by dependency
# propagation, which does not pause.
START_GATE = 'chain_start'
END_GATE = 'chain_end'
GATE_TYPE = 'OS::Heat::None'


def index_names(types):
    """The in-tree type's member names: the list indices "0" .. "n-1"."""
    return [str(i) for i in range(len(types))]


def plan_member_names(old_types, old_names, new_types, by_position=True):
    """Names for new_types, keeping the members of matching old entries.

    Old and new entries are matched in order (the longest runs of equal
    types first, as difflib does), so kept members keep their order: Heat's
    convergence keeps an unchanged member's old dependencies, and two kept
    members whose order flipped would depend on each other, a cycle that
    fails the chain's next delete.

    An entry without a match, a moved one included, is named by its
    position (as the in-tree type names every member) when by_position and
    that name is free: no kept member holds it, and the old member that
    held it, if any, is of another type (Heat then replaces it, as for the
    in-tree type; one of the same type Heat would keep in place, against
    the order above). Otherwise it gets a fresh name: a number above every
    name in old_names and every name given here.
    """
    old_types, new_types = list(old_types), list(new_types)
    names = [None] * len(new_types)
    for old_at, new_at, size in _matching_runs(old_types, new_types):
        names[new_at:new_at + size] = old_names[old_at:old_at + size]
    if by_position:
        names = _position_names(old_types, old_names, new_types, names)
    used_numbers = [int(n) for n in list(old_names) + names
                    if n is not None and str(n).isdigit()]
    fresh = itertools.count(max(used_numbers, default=-1) + 1)
    return [name if name is not None else str(next(fresh))
            for name in names]


def _position_names(old_types, old_names, new_types, names):
    """names, with each unnamed entry named by its position where free."""
    kept = set(name for name in names if name is not None)
    old_type_of = dict(zip(old_names, old_types))
    named = list(names)
    for pos, rtype in enumerate(new_types):
        candidate = str(pos)
        if (named[pos] is None and candidate not in kept and
                old_type_of.get(candidate) != rtype):
            named[pos] = candidate
    return named


def _matching_runs(old, new):
    """(old index, new index, length) of order-preserving equal runs.

    The common head and tail are matched first: an edit of a long chain
    leaves difflib only its middle to search.
    """
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while (tail < min(len(old), len(new)) - head and
           old[-1 - tail] == new[-1 - tail]):
        tail += 1
    runs = [(0, 0, head)]
    matcher = difflib.SequenceMatcher(None, old[head:len(old) - tail],
                                      new[head:len(new) - tail],
                                      autojunk=False)
    runs += [(head + a, head + b, size)
             for a, b, size in matcher.get_matching_blocks() if size]
    runs.append((len(old) - tail, len(new) - tail, tail))
    return runs


def _uses_gates(names, concurrent):
    return bool(concurrent) and len(names) > 1


def _lane_count(names, limit):
    """Concurrent members run in this many lanes (limit 0: no limit)."""
    return limit or len(names)


def member_dependencies(names, concurrent, limit):
    """{member name: [names it depends on]}.

    Sequential: each member on the one before it. Concurrent: the members
    are dealt into `limit` lanes; the first of each lane waits for the start
    gate, every other one for the member one lane-width before it.
    """
    if not concurrent:
        return {name: names[i - 1:i] for i, name in enumerate(names)}
    lanes = _lane_count(names, limit)
    gate = [START_GATE] if _uses_gates(names, concurrent) else []
    return {name: gate if i < lanes else [names[i - lanes]]
            for i, name in enumerate(names)}


def chain_template(types, names, member_properties, concurrent, limit,
                   referenced_attrs=()):
    """The nested stack's template: one member per (type, name).

    referenced_attrs: the chain's attributes the parent stack references
    (Heat's referenced_attrs(): names or (name, path...) tuples); each gets
    a nested output.
    """
    items = [(name, member_definition(rtype, member_properties))
             for rtype, name in zip(types, names)]
    return items_template(items, concurrent, limit,
                          attribute_outputs(names, referenced_attrs))


def member_definition(rtype, member_properties):
    defn = {'type': rtype}
    if member_properties:
        defn['properties'] = member_properties
    return defn


def items_template(items, concurrent, limit, outputs,
                   version=TEMPLATE_VERSION):
    """A nested template of (name, definition) items in list order.

    Sequential: each item depends on the one before; concurrent: in
    `limit` lanes between the two gates.
    """
    names = [name for name, _defn in items]
    deps = member_dependencies(names, concurrent, limit)
    resources = {}
    for name, defn in items:
        if deps[name]:
            defn = dict(defn, depends_on=deps[name])
        resources[name] = defn
    if _uses_gates(names, concurrent):
        # The end gate waits for the last item of each lane: the others
        # are done before those.
        resources[START_GATE] = {'type': GATE_TYPE}
        resources[END_GATE] = {'type': GATE_TYPE,
                               'depends_on': names[-_lane_count(names,
                                                                limit):]}
    return {
        'heat_template_version': version,
        'resources': resources,
        'outputs': outputs,
    }


# -- attributes ---------------------------------------------------------------

def output_name(key, *path):
    """The nested output that holds attribute (key, *path)."""
    return ', '.join(str(p) for p in (key,) + tuple(path))


def parse_member_key(key):
    """'resource.<index>[.<attr>]' -> (index or None, [attr])."""
    parts = key.split('.', 2)
    index = int(parts[1]) if parts[1].isdigit() else None
    return index, parts[2:]


def is_member_key(key):
    return key.startswith(MEMBER_KEY_PREFIX)


def names_a_member(names, key):
    """False if `key` is 'resource.<x>' and <x> is no index of `names`."""
    if not is_member_key(key):
        return True
    index = parse_member_key(key)[0]
    return index is not None and index < len(names)


def has_value(names, key, path):
    """Whether attribute (key, *path) has a value for these members.

    Not for a member index beyond the list, nor for `attributes` without
    the name of the members' attribute.
    """
    if key == ATTRIBUTES and not path:
        return False
    return names_a_member(names, key)


def attribute_value(names, key, path, ref, attr):
    """Attribute (key, *path) of a chain whose members are `names`.

    ref(name) is a member's reference, attr(name, *attr_path) one of its
    attributes: template functions when building nested outputs, the
    members' values when reading them directly. `refs` is the whole list;
    the path selects from it afterwards, as for any list attribute. Call
    only when has_value() is true.
    """
    path = list(path)
    if is_member_key(key):
        index, attr_path = parse_member_key(key)
        name = names[index]
        if attr_path or path:
            return attr(name, *(attr_path + path))
        return ref(name)
    if key == REFS:
        return [ref(name) for name in names]
    if key == ATTRIBUTES:
        return {str(i): attr(name, *path) for i, name in enumerate(names)}
    return [attr(name, key, *path) for name in names]


def _get_resource(name):
    return {'get_resource': name}


def _get_attr(name, *attr_path):
    return {'get_attr': [name] + list(attr_path)}


def attribute_outputs(names, referenced_attrs, ref=_get_resource,
                      attr=_get_attr):
    """Nested outputs for the attributes the parent stack references.

    ref and attr make a member's reference and attribute (see
    attribute_value); by default the members are resources of the nested
    stack itself.
    """
    outputs = {}
    for referenced in referenced_attrs:
        key, path = (referenced, ()) if isinstance(referenced, str) else (
            referenced[0], tuple(referenced[1:]))
        if has_value(names, key, path):
            outputs[output_name(key, *path)] = {'value': attribute_value(
                names, key, path, ref, attr)}
    return outputs
