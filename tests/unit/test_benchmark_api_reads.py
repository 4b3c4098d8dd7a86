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
"""ApiReads: when heat-api first returned each resource finished."""

import collections
import time

from benchmarks import external_watch as watch

Resource = collections.namedtuple('Resource', 'resource_status')


class Heat(object):
    """heat-api as ApiReads' clients see it: statuses in turn per stack."""

    def __init__(self, statuses):
        self.statuses = statuses  # path -> [status, ...]; the last stays
        self.gets = collections.Counter()
        self.resources = self
        self.build_info = self

    def __call__(self):  # a client
        return self

    def build_info(self):
        return {}

    def get(self, path, name):
        self.gets[path] += 1
        left = self.statuses[path]
        return Resource(left.pop(0) if len(left) > 1 else left[0])


class Events(object):
    """HeatEvents as ApiReads reads it: the finished events it has seen."""

    def __init__(self):
        self.finished = {}  # stack id -> (action, status)

    def first(self, stack_id, name, action, statuses):
        found = self.finished.get(stack_id)
        if found and name == 'ext' and found[0] == action and \
                found[1] in statuses:
            return found
        return None


def until(check, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not check() and time.monotonic() < deadline:
        time.sleep(0.01)
    return check()


def test_a_stack_is_read_from_its_end_in_the_database_until_heat_api_says_so():
    stacks = [{'name': 'bx-a-0', 'stack': 'id0'},
              {'name': 'bx-a-1', 'stack': 'id1'},
              {'name': 'bx-a-2', 'stack': 'id2'}]
    heat = Heat({'bx-a-0/id0': ['CREATE_IN_PROGRESS', 'CREATE_IN_PROGRESS',
                                'CREATE_COMPLETE'],
                 'bx-a-1/id1': ['CREATE_IN_PROGRESS'],
                 'bx-a-2/id2': ['CREATE_FAILED']})
    events = Events()
    events.finished['id1'] = ('SIGNAL', 'COMPLETE')  # not its CREATE
    reads = watch.ApiReads(heat, events, stacks).start()
    try:
        time.sleep(0.2)
        assert not heat.gets  # no CREATE finished in the database
        events.finished['id0'] = ('CREATE', 'COMPLETE')
        events.finished['id2'] = ('CREATE', 'FAILED')
        assert until(lambda: 'id0' in reads.seen and 'id2' in reads.seen)
        back, took = reads.seen['id0']
        assert took >= 0 and back <= time.time()
        assert reads.reads['id0'] == heat.gets['bx-a-0/id0'] == 3
        assert reads.reads['id2'] == 1
        assert not reads.done() and 'bx-a-1/id1' not in heat.gets
    finally:
        reads.stop()
