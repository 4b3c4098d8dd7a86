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
--busy; its result then says so.
"""

import os
import platform
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The checkout whose git tells the commit: the test tiers run a staged
# copy of it and say where it is.
GIT_ROOT = os.environ.get('HLP_SOURCE_ROOT') or ROOT
MAX_LOAD = 0.7


def git(*args):
    """git's output in the checkout, stripped ('' when git fails)."""
    proc = subprocess.run(['git'] + list(args), cwd=GIT_ROOT, text=True,
                          capture_output=True)
    return proc.stdout.strip() if proc.returncode == 0 else ''


def memory_bytes():
    with open('/proc/meminfo') as f:
        for line in f:
            if line.startswith('MemTotal:'):
                return int(line.split()[1]) * 1024
    return None


def heat_version():
    import importlib.metadata
    return importlib.metadata.version('openstack-heat')


def begin(busy):
    """The stamp of a part about to run (load average before it)."""
    return {
        'commit': git('rev-parse', 'HEAD'),
        'clean_tree': git('status', '--porcelain', '--untracked-files=no')
        == '',
        'heat': heat_version(),
        'date': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
        'machine': {'cores': os.cpu_count(), 'memory_bytes': memory_bytes(),
                    'platform': platform.platform(),
                    'python': platform.python_version()},
        'load_before': list(os.getloadavg()),
        'busy': busy,
        'started': time.monotonic(),
    }


def end(stamp):
    """The stamp once the part ran: load average after, wall minutes."""
    stamp = dict(stamp)
    stamp['load_after'] = list(os.getloadavg())
    stamp['minutes'] = round((time.monotonic() - stamp.pop('started')) / 60,
                             1)
    return stamp


def too_busy(max_load=MAX_LOAD):
    """The 1-minute load average if it is over max_load, else None."""
    load = os.getloadavg()[0]
    return load if load > max_load else None


def measured_busy(stamp, max_load=MAX_LOAD):
    """Whether a part ran on a busy machine (told so, or load after)."""
    return bool(stamp.get('busy')) or max(
        stamp['load_before'][0], stamp.get('load_after', [0])[0]) > max_load


def stale(stamp, paths):
    """The last commit changing `paths` if the result predates it."""
    last = git('log', '-1', '--format=%H', '--', *paths)
    if not last or not stamp.get('commit'):
        return None
    proc = subprocess.run(['git', 'merge-base', '--is-ancestor', last,
                           stamp['commit']], cwd=GIT_ROOT, capture_output=True)
    return None if proc.returncode == 0 else last[:10]
