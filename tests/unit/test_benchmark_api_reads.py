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


class Log(object):
    """Mistral's log: the executions it shows, and which ended."""

    def __init__(self):
        self.workflow, self.ended = {}, {}

    def read(self):
        return self

    def executions_of(self, workflows):
        return {name: execution for execution, name in self.workflow.items()
                if name in workflows}


def until(check, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not check() and time.monotonic() < deadline:
        time.sleep(0.01)
    return check()


def test_a_stack_is_read_from_its_end_in_mistral_until_heat_api_says_so():
    stacks = [{'name': 'bx-a-0', 'stack': 'id0', 'workflow': 'wf0'},
              {'name': 'bx-a-1', 'stack': 'id1', 'workflow': 'wf1'}]
    heat = Heat({'bx-a-0/id0': ['CREATE_IN_PROGRESS', 'CREATE_IN_PROGRESS',
                                'CREATE_COMPLETE'],
                 'bx-a-1/id1': ['CREATE_IN_PROGRESS']})
    log = Log()
    log.workflow.update(e0='wf0', e1='wf1')
    reads = watch.ApiReads(heat, log, stacks).start()
    try:
        time.sleep(0.2)
        assert not heat.gets  # no execution ended: nothing read
        log.ended['e0'] = ('SUCCESS', time.time())
        assert until(lambda: 'id0' in reads.seen)
        back, took = reads.seen['id0']
        assert took >= 0 and back <= time.time()
        assert reads.reads['id0'] == heat.gets['bx-a-0/id0'] == 3
        assert not reads.done() and 'bx-a-1/id1' not in heat.gets
    finally:
        reads.stop()
