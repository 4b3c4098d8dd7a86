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
"""What a py-spy recording of the engine says: pure functions.

A recording is py-spy's raw (collapsed) output: one line per distinct
stack, `frame;frame;...;frame COUNT`, root first, each frame
`function (path:line)`. Only samples where a thread held the GIL are
recorded (--gil), so COUNT / rate is seconds of Python work.
"""

import collections
import re

FRAME = re.compile(r'^(?P<function>.*) \((?P<path>[^():]*)(?::\d+)?\)$')
# Whose work a sample is: the first layer, in this order, that one of its
# frames belongs to (a path fragment, or path fragment and function).
LAYERS = (
    ('benchmark poll', (('benchmarks/', None),
                        ('heat_lifecycle_fixtures/', None),
                        ('heat/engine/service.py', 'show_stack'))),
    ('ours', (('heat_lifecycle_plugins/', None),)),
    ('in-tree chain', (('heat/engine/resources/openstack/heat/'
                        'resource_chain.py', None),)),
    ('database', (('sqlalchemy/', None), ('pymysql/', None),
                  ('oslo_db/', None), ('heat/db/', None),
                  ('heat/objects/', None))),
    ('templates and functions', (('heat/engine/hot/', None),
                                 ('heat/engine/cfn/', None),
                                 ('heat/engine/function.py', None),
                                 ('heat/engine/template', None),
                                 ('heat/common/template_format.py', None),
                                 ('yaml/', None))),
    ('messaging', (('oslo_messaging/', None), ('kombu/', None),
                   ('amqp/', None))),
    ('heat, the rest', (('heat/', None),)),
)
OTHER = 'other'
LAYER_NAMES = tuple(name for name, _m in LAYERS) + (OTHER,)


def parse_frame(text):
    """(function, path) of one frame; path '' when py-spy gave none."""
    found = FRAME.match(text.strip())
    if not found:
        return text.strip(), ''
    return found.group('function'), found.group('path')


def read_collapsed(lines):
    """[(frames, count)]: frames (function, path) root first."""
    stacks = []
    for line in lines:
        line = line.rstrip('\n')
        stack, _sep, count = line.rpartition(' ')
        if not stack or not count.isdigit():
            continue
        stacks.append((tuple(parse_frame(f) for f in stack.split(';')),
                       int(count)))
    return stacks


def _matches(frame, marks):
    """Whether a frame is in marks; py-spy names methods Class.method."""
    function, path = frame
    return any(fragment in path and (
        want is None or function == want or function.endswith('.' + want))
        for fragment, want in marks)


def layer_of(frames):
    """The layer a sample is counted to (LAYERS' order decides)."""
    for name, marks in LAYERS:
        if any(_matches(f, marks) for f in frames):
            return name
    return OTHER


def doing(frames, activities):
    """What a sample was doing: the activity of its innermost frame in one.

    activities: (name, marks) as LAYERS; OTHER when no frame is in one.
    """
    for frame in reversed(frames):
        for name, marks in activities:
            if _matches(frame, marks):
                return name
    return OTHER


def layers(stacks):
    """{layer: samples} of a recording, every layer present."""
    found = dict.fromkeys(LAYER_NAMES, 0)
    for frames, count in stacks:
        found[layer_of(frames)] += count
    return found


def on_path(stacks, marks):
    """The stacks with a frame in `marks` (a path fragment, function)."""
    return [(frames, count) for frames, count in stacks
            if any(_matches(f, marks) for f in frames)]


def short_path(path):
    """The path from its package on: .../site-packages/heat/a.py: heat/a.py.

    The standard library's from its top: .../lib/python3.11/threading.py:
    threading.py.
    """
    return re.split(r'site-packages/|lib/python3\.\d+/', path)[-1]


def inclusive(stacks):
    """{'function (path)': samples with it on the stack}, each once."""
    found = collections.Counter()
    for frames, count in stacks:
        for key in {'%s (%s)' % (fn, short_path(p)) for fn, p in frames}:
            found[key] += count
    return found


def grown(ours, theirs, top=12):
    """[(function, ours' samples less theirs)] the most grown first."""
    diff = [(key, ours[key] - theirs.get(key, 0)) for key in ours]
    diff = [d for d in diff if d[1] > 0]
    return sorted(diff, key=lambda d: (-d[1], d[0]))[:top]
