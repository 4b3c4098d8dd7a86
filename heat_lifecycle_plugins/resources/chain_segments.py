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
"""Long chains in segments: members spread over nested stacks of bounded size.

Heat 25-27 gives each stack id at most 1000 threads in one engine worker's
lifetime and every resource event takes one (engine-facts.md), so a nested
stack of N members survives about 1000 / (2N + 7) operations (measured:
chain_shape). A chain created longer than chain_shape's flat size keeps its
members in segments instead (chain_shape decides when): its nested stack
holds one chain per segment (the same resource type, so a segment is a chain
like any other), each holding a contiguous run of the list. The segments run
in list order (sequential) or in lanes between two gates (concurrent), as
members do.

Decided here, without Heat: which segment each member lives in, and the
nested template of a segmented chain. A member never moves to another
segment (that would re-create it): new entries join a neighbouring segment
that has room or a new segment; a member whose segment would no longer be a
contiguous run (a reorder across segments) is re-created where it is now.

A flat chain that grows past the flat size (Heat 25-27, chain_shape) keeps
its members where they are, in the chain's own nested stack, as direct
members, and its new entries go into segments beside them: moving a member
into a segment would re-create it (another stack, another resource). The
layout stores each member's segment, DIRECT (null) for a direct member;
the nested stack holds direct members and segments as items in list order
(sequential: each on the one before; concurrent: in lanes between the
gates), so the first new segment after the last direct member depends on
it. A direct member stays direct and a segment member in its segment for
as long as the member lives; new entries never become direct members once
a chain has segments. See chain_shape for what this costs in threads.
"""

import itertools
import math

from heat_lifecycle_plugins.resources import chain_plan

SEGMENT_PREFIX = 's'
# The segment of a member of the chain's own nested stack (stored as null).
DIRECT = None
# A new entry's segment before it is placed.
_NEW = object()


def _segment_number(name):
    digits = name[len(SEGMENT_PREFIX):]
    return int(digits) if digits.isdigit() else -1


def _fresh_numbers(names):
    numbers = [int(n) for n in names if str(n).isdigit()]
    return itertools.count(max(numbers, default=-1) + 1)


def split_evenly(count, size, first_number=0):
    """Segment names for `count` new members: runs of at most `size`."""
    parts = max(1, math.ceil(count / size)) if count else 0
    names = []
    for k in range(parts):
        length = count // parts + (1 if k < count % parts else 0)
        names += ['%s%d' % (SEGMENT_PREFIX, first_number + k)] * length
    return names


def initial_segments(count, size, flat=None):
    """Segment of each member of a new chain; None: one nested stack.

    A chain of more than `flat` members (default: `size`) is split into
    segments of at most `size`; size 0 never splits.
    """
    if not size or count <= (size if flat is None else flat):
        return None
    return split_evenly(count, size)


def _keep_contiguous(segments):
    """Positions whose member must move, so that every segment is one run.

    Among the members kept by the update (new entries are _NEW), a
    segment keeps its longest run; members of its other runs are
    re-created. A direct member breaks a segment's run and never moves.
    """
    runs = []
    for pos, seg in enumerate(segments):
        if seg is _NEW:
            continue
        if runs and runs[-1][0] == seg:
            runs[-1][1].append(pos)
        else:
            runs.append((seg, [pos]))
    longest = {}
    for seg, positions in runs:
        if len(positions) > len(longest.get(seg, ())):
            longest[seg] = positions
    return [pos for seg, positions in runs
            if seg is not DIRECT and positions is not longest[seg]
            for pos in positions]


def _segments_for_run(segments, pos, end, sizes, left, size, next_segment):
    """(segments of the new entries segments[pos:end], next new number).

    The segment around them, else the one before or after if it has room
    (and lost no member in this update: it would keep that member's
    place), else new segments numbered from next_segment.
    """
    count = end - pos
    before = segments[pos - 1] if pos else None
    after = segments[end] if end < len(segments) else None

    def fits(seg):
        return (seg is not DIRECT and seg not in left and
                sizes[seg] + count <= size)
    if (before is not DIRECT and before == after) or fits(before):
        return [before] * count, next_segment
    if fits(after):
        return [after] * count, next_segment
    run = split_evenly(count, size, next_segment)
    return run, next_segment + len(set(run))


def plan_segments(old_names, old_segments, new_names, size):
    """(names, segments) of the new list of a segmented chain.

    new_names: the member names chain_plan.plan_member_names gave the new
    list (a kept member has its old name). Each kept member stays in its
    segment; a run of new entries joins the segment around it, else the one
    before or after it if that has room, else new segments of at most
    `size`. A member that has to move gets a fresh name (it is re-created).

    old_segments: DIRECT for a member of the chain's own nested stack (all
    DIRECT: a flat chain growing into segments); such a member stays where
    it is, and no new entry becomes one.
    """
    home = dict(zip(old_names, old_segments))
    names = list(new_names)
    segments = [home.get(name, _NEW) for name in names]
    moved = _keep_contiguous(segments)
    fresh = _fresh_numbers(list(old_names) + names)
    left = set()
    for pos in moved:
        left.add(segments[pos])
        segments[pos] = _NEW
        names[pos] = str(next(fresh))
    sizes = {}
    for seg in segments:
        if seg is not _NEW and seg is not DIRECT:
            sizes[seg] = sizes.get(seg, 0) + 1
    next_segment = max((_segment_number(s) for s in old_segments
                        if s is not DIRECT), default=-1) + 1
    pos = 0
    while pos < len(segments):
        if segments[pos] is not _NEW:
            pos += 1
            continue
        end = pos
        while end < len(segments) and segments[end] is _NEW:
            end += 1
        run, next_segment = _segments_for_run(segments, pos, end, sizes,
                                              left, size, next_segment)
        for seg in run:
            sizes[seg] = sizes.get(seg, 0) + 1
        segments[pos:end] = run
        pos = end
    return names, segments


def segment_order(segments):
    """The segments in list order (direct members are none)."""
    return [seg for seg in dict.fromkeys(segments) if seg is not DIRECT]


def member_locations(segments, names=None):
    """(segment, index in its segment) of each member, in list order.

    A direct member's location is (DIRECT, its name in the nested stack).
    """
    seen = {}
    locations = []
    for pos, seg in enumerate(segments):
        if seg is DIRECT:
            locations.append((DIRECT, names[pos]))
            continue
        locations.append((seg, seen.get(seg, 0)))
        seen[seg] = seen.get(seg, 0) + 1
    return locations


def _member_key(index):
    return '%s%d' % (chain_plan.MEMBER_KEY_PREFIX, index)


def member_ref(location):
    """Template function: a member's reference, through its segment."""
    seg, index = location
    if seg is DIRECT:
        return {'get_resource': index}
    return {'get_attr': [seg, _member_key(index)]}


def member_attr(location, *attr_path):
    """Template function: a member's attribute, through its segment."""
    seg, index = location
    if seg is DIRECT:
        return {'get_attr': [index] + list(attr_path)}
    return {'get_attr': [seg, _member_key(index)] + list(attr_path)}


def segment_limit(segment_count, limit):
    """Each segment's concurrency_limit: the chain stays within `limit`.

    0: no limit.
    """
    if not limit:
        return 0
    return max(1, limit // min(limit, segment_count))


def segmented_template(chain_type, types, segments, member_properties,
                       concurrent, limit, referenced_attrs=(), names=None):
    """The nested template of a segmented chain: one chain per segment.

    Direct members (segment DIRECT, named by `names`) are items of their
    own, in list order among the segments; they share the lanes, so each
    segment's limit is reckoned over every item.
    """
    item_count = len(segment_order(segments)) + sum(
        1 for seg in segments if seg is DIRECT)
    seg_limit = segment_limit(item_count, limit)
    items = []
    for pos, seg in enumerate(segments):
        if seg is DIRECT:
            items.append((names[pos], chain_plan.member_definition(
                types[pos], member_properties)))
            continue
        if items and items[-1][0] == seg:
            continue
        props = {
            'resources': [t for t, s in zip(types, segments) if s == seg],
            'concurrent': concurrent,
            'concurrency_limit': seg_limit,
        }
        if member_properties:
            props['resource_properties'] = member_properties
        items.append((seg, {'type': chain_type, 'properties': props}))
    outputs = chain_plan.attribute_outputs(
        member_locations(segments, names), referenced_attrs, member_ref,
        member_attr)
    return chain_plan.items_template(items, concurrent, limit, outputs)
