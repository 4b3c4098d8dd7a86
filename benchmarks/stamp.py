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
"""Where a part's result comes from: commit, Heat, date, machine, load.

A part refuses a busy machine (load average over MAX_LOAD) unless told
--busy; its result then says so. The load average after a part is mostly
the part's own work (its engine, MariaDB, Mistral), so what says that
something else ran meanwhile is `foreign_cores`: the machine's busy CPU
time (/proc/stat) less the CPU time of this process and its descendants,
live or reaped, per second of the part. Over FOREIGN_MAX the result is
marked busy. A cloud's workers outlive their master when it stops first
(Keystone's gunicorn, heat-engine's): this process adopts such orphans
(a child subreaper), so their CPU stays in its count instead of leaving
with init.

Neither says how fast the machine itself ran: a VM's host may lend its
cores elsewhere with no load or steal time showing here (seen: the same
concurrent round 30 % slower an hour later). `speed` times PROBE, a
fixed piece of Python work in a fresh interpreter, before and after.
"""

import ctypes
import ctypes.util
import json
import os
import platform
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The checkout whose git tells the commit: the test tiers run a staged
# copy of it and say where it is.
GIT_ROOT = os.environ.get('HLP_SOURCE_ROOT') or ROOT
MAX_LOAD = 0.7
# The parts' own results: a part run after another in one run finds the
# first one's result written, which leaves the tree as clean as it was.
RESULTS = 'benchmarks/results'
# Kernel threads doing the part's disk writes count as foreign: a quiet
# run measures 0.0-0.1 cores of them.
FOREIGN_MAX = 0.25
# /proc/stat's cpu line: user nice system idle iowait irq softirq steal.
BUSY_FIELDS = (0, 1, 2, 5, 6, 7)
TICK = os.sysconf('SC_CLK_TCK')
PR_SET_CHILD_SUBREAPER = 36
# The interpreter's loop, then a full collection of a 300000-object heap
# (the engine's is about that size): the median of 3 of each, in seconds.
PROBE = """
import gc, json, statistics, time
heap = [{'n': [i, str(i)], 't': (i,)} for i in range(300000)]
def seconds(work):
    began = time.perf_counter()
    work()
    return time.perf_counter() - began
def loop():
    total = 0
    for i in range(2000000):
        total += i * i % 7
print(json.dumps({name: round(statistics.median(
    seconds(work) for _ in range(3)), 3)
    for name, work in (('interpreter', loop), ('gc', gc.collect))}))
"""


def git(*args, cwd=None):
    """git's output in the checkout, stripped ('' when git fails)."""
    proc = subprocess.run(['git'] + list(args), cwd=cwd or GIT_ROOT,
                          text=True, capture_output=True)
    return proc.stdout.strip() if proc.returncode == 0 else ''


def dirty_paths(root=None):
    """Tracked files changed but not committed, the parts' results aside.

    Sorted paths relative to the checkout's root, staged or not.
    """
    found = git('diff', 'HEAD', '--name-only', '--', '.',
                ':(exclude)%s' % RESULTS, cwd=root)
    return sorted(found.splitlines())


def tree_clean(root=None):
    """No uncommitted change to tracked files but the parts' results."""
    return not dirty_paths(root)


def memory_bytes():
    with open('/proc/meminfo') as f:
        for line in f:
            if line.startswith('MemTotal:'):
                return int(line.split()[1]) * 1024
    return None


def heat_version():
    import importlib.metadata
    return importlib.metadata.version('openstack-heat')


def adopt_orphans():
    """Make this process the reaper of its descendants' orphans.

    False where the kernel cannot (not Linux): orphans then go to init.
    """
    try:
        libc = ctypes.CDLL(ctypes.util.find_library('c'), use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def reap_adopted():
    """Reap the adopted orphans that ended (zombies, no longer counted)."""
    me = os.getpid()
    for pid, (ppid, _seconds) in _proc_stats(state='Z').items():
        if ppid == me:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass  # its Popen reaped it meanwhile


def speed():
    """PROBE's seconds now: {'interpreter': s, 'gc': s}; None if it failed."""
    try:
        proc = subprocess.run([sys.executable, '-c', PROBE], text=True,
                              capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0:
        return None
    return json.loads(proc.stdout)


def begin(busy, load_before=None):
    """The stamp of a part about to run.

    load_before: the load average read when the run judged whether the
    machine was quiet enough (load_judged); read now if not given.
    """
    adopted = adopt_orphans()
    dirty = dirty_paths()
    return {
        'commit': git('rev-parse', 'HEAD'),
        'clean_tree': not dirty,
        'dirty': dirty,
        'heat': heat_version(),
        'date': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
        'machine': {'cores': os.cpu_count(), 'memory_bytes': memory_bytes(),
                    'platform': platform.platform(),
                    'python': platform.python_version()},
        'load_before': list(load_before or os.getloadavg()),
        'speed_before': speed(),
        'busy': busy,
        'orphans_adopted': adopted,
        'started': time.monotonic(),
        'cpu_started': cpu_snapshot(),
    }


def end(stamp):
    """The stamp once the part ran: load average after, wall minutes, speed."""
    stamp = dict(stamp)
    stamp['load_after'] = list(os.getloadavg())
    wall = time.monotonic() - stamp.pop('started')
    stamp['minutes'] = round(wall / 60, 1)
    stamp['foreign_cores'] = foreign_cores(
        stamp.pop('cpu_started'), cpu_snapshot(), wall)
    reap_adopted()
    stamp['speed_after'] = speed()
    return stamp


def cpu_ticks():
    """/proc/stat's cpu line: ticks of all cores since boot, per field."""
    with open('/proc/stat') as f:
        return [int(v) for v in f.readline().split()[1:]]


def busy_ticks(fields):
    """The busy ticks of a cpu_ticks() reading."""
    return sum(fields[i] for i in BUSY_FIELDS if i < len(fields))


def machine_busy_seconds():
    """CPU seconds the whole machine spent busy since boot."""
    return busy_ticks(cpu_ticks()) / TICK


def _proc_stats(state=None):
    """{pid: (ppid, own + reaped children's CPU seconds)} of processes.

    Zombies too (their CPU stays readable until reaped); only those in
    `state` (e.g. 'Z') if given.
    """
    stats = {}
    for name in os.listdir('/proc'):
        if not name.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % name) as f:
                # comm may hold spaces: the fields start after its ')'.
                rest = f.read().rsplit(')', 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        if state is not None and rest[0] != state:
            continue
        stats[int(name)] = (int(rest[1]),
                            sum(int(v) for v in rest[11:15]) / TICK)
    return stats


def tree_seconds(root, stats):
    """CPU seconds of root's live descendants (with what they reaped)."""
    children = {}
    for pid, (ppid, _seconds) in stats.items():
        children.setdefault(ppid, []).append(pid)
    total, todo = 0.0, list(children.get(root, ()))
    while todo:
        pid = todo.pop()
        total += stats[pid][1]
        todo.extend(children.get(pid, ()))
    return total


def cpu_snapshot():
    """The machine's busy seconds and ours (this process and below)."""
    own = os.times()
    ours = own.user + own.system + own.children_user + own.children_system
    return {'machine': machine_busy_seconds(),
            'ours': ours + tree_seconds(os.getpid(), _proc_stats())}


def foreign_cores(before, after, wall):
    """Cores used on average by processes not ours between two snapshots."""
    if wall <= 0:
        return 0.0
    foreign = ((after['machine'] - before['machine']) -
               (after['ours'] - before['ours']))
    return round(max(0.0, foreign) / wall, 3)


def load_judged(max_load=MAX_LOAD):
    """(the load averages now, whether the 1-minute one is over max_load).

    The reading a run refuses on is the one its parts' stamps keep as
    load_before.
    """
    load = list(os.getloadavg())
    return load, load[0] > max_load


def measured_busy(stamp, max_load=MAX_LOAD):
    """Whether a part ran on a busy machine.

    Told so, or other processes' CPU over FOREIGN_MAX while it ran. The
    load average before it is the previous part's own work when parts run
    one after another, so it judges only results from before the CPU
    measure (with the load average after, as they were judged then).
    """
    if stamp.get('busy'):
        return True
    if 'foreign_cores' in stamp:
        return stamp['foreign_cores'] > FOREIGN_MAX
    return (stamp['load_before'][0] > max_load or
            stamp.get('load_after', [0])[0] > max_load)


def stale(stamp, paths):
    """The last commit changing `paths` if the result predates it."""
    last = git('log', '-1', '--format=%H', '--', *paths)
    if not last or not stamp.get('commit'):
        return None
    proc = subprocess.run(['git', 'merge-base', '--is-ancestor', last,
                           stamp['commit']], cwd=GIT_ROOT, capture_output=True)
    return None if proc.returncode == 0 else last[:10]


def uncommitted(stamp, paths):
    """Which of `paths` had uncommitted changes when the part began.

    A stamp of before the changed files were recorded only says whether
    the tree was clean: ['the tree'] if it was not.
    """
    if 'dirty' not in stamp:
        return [] if stamp['clean_tree'] else ['the tree']
    return sorted(set(stamp['dirty']) & set(paths))
