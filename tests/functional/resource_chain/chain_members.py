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
"""Test-only member types for resource chains, run inside the engine.

Every member writes what happens to it into JOURNAL (in this process, where
the in-process engine runs), under the `group` it is given, so tests can check
the order and overlap of member operations without looking at durations.

A member with `rendezvous: N` completes its creation only after N members of
its group have started creating: N members that are really created
concurrently all complete; members created one after the other never meet and
fail at the deadline.
"""

# heat.tests.common must be imported first: it selects the threading backend.
import heat.tests.common  # noqa: F401  isort:skip

import collections
import threading
import time
import uuid

from heat.common import exception
from heat.engine import attributes
from heat.engine import properties
from heat.engine import resource
from heat.engine import resources

RENDEZVOUS_DEADLINE = 30.0
_lock = threading.Lock()
JOURNAL = collections.defaultdict(list)   # group -> [(event, type, stamp)]


def record(group, event, rtype):
    with _lock:
        JOURNAL[group].append((event, rtype, time.monotonic()))


def events(group, kinds=None):
    with _lock:
        return [(e, t) for e, t, _ in JOURNAL[group]
                if kinds is None or e in kinds]


def most_creating(group):
    """The most members of the group that were creating at one time."""
    in_progress, most = 0, 0
    for event, _t in events(group, ('create-start', 'create-end')):
        in_progress += 1 if event == 'create-start' else -1
        most = max(most, in_progress)
    return most


def started(group):
    with _lock:
        return sum(1 for e, _t, _s in JOURNAL[group] if e == 'create-start')


class ChainMember(resource.Resource):
    PROPERTIES = VALUE, GROUP, RENDEZVOUS = 'value', 'group', 'rendezvous'

    properties_schema = {
        VALUE: properties.Schema(properties.Schema.STRING, 'Any value.',
                                 default='', update_allowed=True),
        GROUP: properties.Schema(properties.Schema.STRING,
                                 'Journal group of this member.',
                                 default='default', update_allowed=True),
        RENDEZVOUS: properties.Schema(properties.Schema.INTEGER,
                                      'Members of the group that must have '
                                      'started creating before this one '
                                      'completes.', default=0,
                                      update_allowed=True),
    }
    attributes_schema = {
        'value': attributes.Schema('The value property.'),
        'kind': attributes.Schema('The resource type of this member.'),
    }

    def _record(self, event):
        record(self.properties[self.GROUP], event, self.type())

    def handle_create(self):
        self._record('create-start')
        self.resource_id_set('%s-%s' % (self.name, uuid.uuid4().hex[:12]))
        return time.monotonic() + RENDEZVOUS_DEADLINE

    def check_create_complete(self, deadline):
        wanted = self.properties[self.RENDEZVOUS]
        group = self.properties[self.GROUP]
        if wanted and started(group) < wanted:
            if time.monotonic() > deadline:
                raise exception.Error('rendezvous failed: %d of %d members '
                                      'started' % (started(group), wanted))
            return False
        self._record('create-end')
        return True

    def handle_update(self, json_snippet, tmpl_diff, prop_diff):
        if prop_diff:
            self.properties = json_snippet.properties(self.properties_schema,
                                                      self.context)
            self._record('update')

    def handle_suspend(self):
        self._record('suspend')

    def handle_resume(self):
        self._record('resume')

    def handle_delete(self):
        self._record('delete')

    def _resolve_attribute(self, name):
        if name == 'value':
            return self.properties[self.VALUE]
        if name == 'kind':
            return self.type()


class FailingMember(ChainMember):
    def handle_create(self):
        self._record('create-start')
        raise exception.Error('member told to fail')


MEMBER_TYPES = {'Test::Chain::%s' % n: ChainMember for n in 'ABCDEXYZ'}
MEMBER_TYPES['Test::Chain::Fail'] = FailingMember


def register():
    env = resources.global_env()
    for name, cls in MEMBER_TYPES.items():
        env.register_class(name, cls)
