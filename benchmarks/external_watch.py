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
"""What the ExternalResource parts read from outside the engine.

- HeatEvents: Heat's event rows, read from its MariaDB database by one
  query every POLL seconds for all stacks, each stamped with the moment it
  was first read. Heat keeps an event's time in whole seconds (a DATETIME
  column; the API shows the same), too coarse for a 0.3 s target: the
  first read of the CREATE_COMPLETE row is the COMPLETE time (late by
  half a poll on average, alike for both types).
- MistralLog: Mistral's own log (debug, as the loopback cloud runs it):
  the workflow trace line "Workflow 'NAME' [RUNNING -> SUCCESS, ...]
  (execution_id=ID...)", stamped to the millisecond, is the SUCCESS time
  (Mistral keeps updated_at in whole seconds); "Fetch execution [id=ID"
  counts the reads of an execution, a check on the proxy's count.
- EngineThreads: the threads of heat-engine's worker processes, the
  entries of /proc/<pid>/task, sampled every THREAD_EVERY seconds: all of
  them, and those in use, not waiting on a futex (/proc/.../wchan). Heat
  runs a resource's action in an RPC executor thread (futurist's pool,
  which grows to 64 threads and never shrinks: counting threads alone
  would count idle ones); it sleeps in nanosleep between checks, or waits
  on the network; an idle pool thread waits on a futex.
- ApiReads: what a user reading through heat-api sees: per stack, the
  moment heat-api first returned the resource finished, to a client that
  reads it (one GET) as soon as Heat's database shows it finished, again
  every API_EVERY seconds if heat-api does not show it yet: the database
  term plus one read (issue 55).
- attribute(): the proxy's requests, each to the stack whose workflow
  or execution it names.
"""

import collections
import concurrent.futures
import os
import queue
import re
import threading
import time

import sqlalchemy

from heat_lifecycle_fixtures import process
from heat_lifecycle_fixtures import stacks as heat_stacks

POLL = 0.04
# Event ids are given at INSERT and seen at COMMIT, not always in order:
# each query reads again this many ids below the highest seen.
LAG = 30
THREAD_EVERY = 0.5  # reading ~300 wchan files costs ~13 ms
QUERY = sqlalchemy.text(
    'SELECT id, stack_id, resource_name, resource_action, resource_status, '
    'resource_status_reason FROM event WHERE id > :low ORDER BY id')
Event = collections.namedtuple('Event', 'seen name action status reason')


class Sampler(object):
    """A daemon thread that calls sample() every `every` seconds."""

    every = POLL

    def __init__(self):
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self.error = None

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        if self._thread.ident is not None:  # started
            self._thread.join(10)

    def _loop(self):
        while not self._stop.is_set():
            try:
                self.sample()
            except Exception as exc:  # shown by the case that needs it
                self.error = exc
            self._stop.wait(self.every)

    def sample(self):
        raise NotImplementedError


class HeatEvents(Sampler):
    """Heat's events per stack, as first read from its database."""

    def __init__(self, url):
        super(HeatEvents, self).__init__()
        self.engine = sqlalchemy.create_engine(url,
                                               isolation_level='AUTOCOMMIT')
        self.conn = None
        self.low = 0
        self.seen = set()
        self.by_stack = collections.defaultdict(list)
        self.lock = threading.Lock()

    def sample(self):
        if self.conn is None:
            self.conn = self.engine.connect()
        rows = self.conn.execute(QUERY, {'low': self.low}).fetchall()
        now = time.time()
        with self.lock:
            for row in rows:
                if row.id in self.seen:
                    continue
                self.seen.add(row.id)
                self.by_stack[row.stack_id].append(Event(
                    now, row.resource_name, row.resource_action,
                    row.resource_status, row.resource_status_reason or ''))
            if rows:
                self.low = max(self.low, rows[-1].id - LAG)

    def stop(self):
        super(HeatEvents, self).stop()
        if self.conn is not None:
            self.conn.close()
        self.engine.dispose()

    def of(self, stack_id, name=None):
        """The events of a stack (of its resource `name`), oldest first."""
        with self.lock:
            found = list(self.by_stack.get(stack_id, ()))
        return [e for e in found if name is None or e.name == name]

    def first(self, stack_id, name, action, statuses):
        return next((e for e in self.of(stack_id, name)
                     if e.action == action and e.status in statuses), None)


def worker_pids(master):
    """The live child processes of `master` (heat-engine's workers)."""
    found = []
    for entry in os.listdir('/proc'):
        state = process.stat(entry) if entry.isdigit() else None
        if state and state[1] == master and state[0] != 'Z':
            found.append(int(entry))
    return sorted(found)


def waits_on_futex(pid, tid):
    try:
        with open('/proc/%d/task/%s/wchan' % (pid, tid), 'rb') as f:
            return b'futex' in f.read()
    except OSError:  # the thread ended meanwhile
        return True


class EngineThreads(Sampler):
    """(time, threads, threads in use) of the engine workers."""

    every = THREAD_EVERY

    def __init__(self, master_pid):
        super(EngineThreads, self).__init__()
        self.master = master_pid
        self.workers = worker_pids(master_pid)
        self.samples = []

    def sample(self):
        total = busy = 0
        for pid in self.workers:
            try:
                tids = os.listdir('/proc/%d/task' % pid)
            except OSError:  # a worker gone: look for them again
                self.workers = worker_pids(self.master)
                return
            total += len(tids)
            busy += sum(1 for tid in tids if not waits_on_futex(pid, tid))
        self.samples.append((time.time(), total, busy))

    def between(self, start, end, column=2):
        """Threads in use (column 1: all threads) from `start` to `end`."""
        return [row[column] for row in list(self.samples)
                if start <= row[0] <= end]


TRACE = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\.(\d{3}) .*Workflow '([^']*)' "
    r"\[(\w+) -> (\w+),.*execution_id=([0-9a-f-]{36})")
FETCH = re.compile(r'Fetch execution \[id=([0-9a-f-]{36})')
ENDS = ('SUCCESS', 'ERROR', 'CANCELLED')
CFN_SIGNAL = re.compile(
    r'^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\.(\d{3}) .*version_negotiation'
    r' .*Processing request: POST /v1/signal/\S*?:stacks/[^/]+/'
    r'([0-9a-f-]{36})/')


def log_time(stamp, millis):
    """Epoch seconds of an oslo.log time (local time, milliseconds)."""
    return time.mktime(time.strptime(stamp, '%Y-%m-%d %H:%M:%S')) + (
        int(millis) / 1000.0)


class GrowingLog(object):
    """A service's log, read as it grows: each new line to _line()."""

    def __init__(self, path):
        self.path = path
        self.offset = 0
        self.lock = threading.Lock()  # ApiReads reads it too

    def read(self):
        """Take in the lines written since the last read (whole lines)."""
        with self.lock:
            with open(self.path, 'rb') as f:
                f.seek(self.offset)
                data = f.read()
            end = data.rfind(b'\n') + 1
            self.offset += end
            for line in data[:end].decode('utf-8', 'replace').splitlines():
                self._line(line)
        return self

    def _line(self, line):
        raise NotImplementedError


class CfnLog(GrowingLog):
    """When each stack's signals reached heat-api-cfn (its debug log).

    The first line of a request, before the EC2 signature is checked.
    """

    def __init__(self, path):
        super(CfnLog, self).__init__(path)
        self.arrived = collections.defaultdict(list)  # stack id -> [epoch]

    def _line(self, line):
        match = CFN_SIGNAL.match(line)
        if match:
            stamp, millis, stack_id = match.groups()
            self.arrived[stack_id].append(log_time(stamp, millis))


class MistralLog(GrowingLog):
    """The executions Mistral's log shows, read as it grows."""

    def __init__(self, path):
        super(MistralLog, self).__init__(path)
        self.workflow = {}  # execution id -> workflow name
        self.started = {}  # execution id -> epoch seconds it ran
        self.ended = {}  # execution id -> (state, epoch seconds)
        self.fetches = collections.Counter()

    def _line(self, line):
        match = TRACE.match(line)
        if match:
            stamp, millis, workflow, _old, new, execution = match.groups()
            self.workflow[execution] = workflow
            if new == 'RUNNING':
                self.started.setdefault(execution, log_time(stamp, millis))
            if new in ENDS:
                self.ended[execution] = (new, log_time(stamp, millis))
            return
        fetch = FETCH.search(line)
        if fetch:
            self.fetches[fetch.group(1)] += 1

    def executions_of(self, workflows):
        """{workflow name: execution id} of those workflows seen so far."""
        return {name: execution for execution, name in self.workflow.items()
                if name in workflows}


API_EVERY = 0.05  # as the demo's user polled (issue 55)
API_CLIENTS = 4
FINISHED = ('CREATE_COMPLETE', 'CREATE_FAILED')
READ_FROM = 'database'  # when a stack's reads start, kept in the results


class ApiReads(Sampler):
    """When heat-api first returned each stack's resource `ext` finished.

    stacks: dicts with the stack's `name` and id (`stack`); events: the
    part's HeatEvents. A stack is read from when Heat's database first
    shows its CREATE finished (the database term; a user polling all
    along would add the polling's own load to what is measured: 50 stacks
    read every 0.05 s through their ends doubled the told latency on a
    2-core cloud, issue 55), each read one GET of
    /stacks/NAME/ID/resources/ext by one of API_CLIENTS clients,
    authenticated before. seen: {stack id: (epoch the finishing read came
    back, seconds it took)}; reads: {stack id: reads made}.
    """

    every = 0.01  # a look at what `events` has read: no query of its own

    def __init__(self, heat, events, stacks):
        super(ApiReads, self).__init__()
        self.events = events
        self.stacks = stacks
        self.seen, self.reads = {}, collections.Counter()
        self.clients = queue.Queue()
        for _ in range(API_CLIENTS):
            client = heat()
            client.build_info.build_info()  # its token, before it counts
            self.clients.put(client)
        self._pool = concurrent.futures.ThreadPoolExecutor(len(stacks))
        self._followed = set()

    @staticmethod
    def _path(s):
        return '%s/%s' % (s['name'], s['stack'])

    def sample(self):
        for s in self.stacks:
            if (s['stack'] not in self._followed and self.events.first(
                    s['stack'], 'ext', 'CREATE', heat_stacks.TERMINAL)):
                self._followed.add(s['stack'])
                self._pool.submit(self._follow, s)

    def _follow(self, s):
        while not self._stop.is_set():
            client = self.clients.get()
            try:
                sent = time.time()
                status = client.resources.get(self._path(s),
                                              'ext').resource_status
                back = time.time()
            except Exception as exc:  # shown by the case that needs it
                self.error, status = exc, None
            finally:
                self.clients.put(client)
            self.reads[s['stack']] += 1
            if status in FINISHED:
                self.seen[s['stack']] = (back, back - sent)
                return
            self._stop.wait(API_EVERY)

    def done(self):
        return all(s['stack'] in self.seen for s in self.stacks)

    def stop(self):
        super(ApiReads, self).stop()
        self._pool.shutdown(wait=True)


def attribute(requests, owners):
    """({owner: Counter(collection)}, Counter of the calls of nobody).

    owners: {workflow name or execution id: owner}; a request is its
    owner's when one of its words names it.
    """
    mine = collections.defaultdict(collections.Counter)
    nobody = collections.Counter()
    for request in requests:
        owner = next((owners[w] for w in request.words if w in owners),
                     None)
        key = '%s %s' % (request.method, request.collection)
        if owner is None:
            nobody[key] += 1
        else:
            mine[owner][key] += 1
    return mine, nobody
