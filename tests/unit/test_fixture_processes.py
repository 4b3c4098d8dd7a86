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
"""Service processes stop by their PID, with the process that started them.

Even when it is SIGKILLed, unless detached; a detached one stops from its
PID alone.
"""

import json
import os
import signal
import subprocess
import sys
import time

from heat_lifecycle_fixtures import process
from heat_lifecycle_fixtures import service

# A starter process: sets up a Sleeper, prints its PIDs, then waits to be
# killed or, with "exit", exits without cleaning up.
STARTER = '''
import json, sys, time
from tests.unit.test_fixture_processes import Sleeper
sleeper = Sleeper(sys.argv[1], detached=sys.argv[2] == 'exit')
sleeper.setUp()
print(json.dumps(sleeper.pids()), flush=True)
if sys.argv[2] != 'exit':
    time.sleep(600)
'''


class Sleeper(service.Service):
    """A shell that runs `sleep` as its own child.

    A process group of two, as gunicorn or heat-engine with its workers.
    """

    def _start(self):
        self.leader = self.spawn('sleeper', [
            'sh', '-c', 'sleep 600 & echo $! > %s; wait'
            % self.path('child.pid')])
        process.wait_until(self.pids, 30, 'the sleeper\'s child',
                           process=self.leader)

    def pids(self):
        """[the shell, its sleep], once the shell wrote the latter."""
        try:
            with open(self.path('child.pid')) as f:
                return [self.leader.pid, int(f.read())]
        except (FileNotFoundError, ValueError):
            return None


def wait_gone(pids, timeout=60):
    deadline = time.monotonic() + timeout
    while any(process.alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return [p for p in pids if process.alive(p)]


def start(workdir, mode):
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    starter = subprocess.Popen(
        [sys.executable, '-c', STARTER, str(workdir), mode], cwd=root,
        stdout=subprocess.PIPE, text=True)
    return starter, json.loads(starter.stdout.readline())


def test_cleanup_stops_the_whole_process_group(tmp_path):
    with Sleeper(str(tmp_path)) as sleeper:
        pids = sleeper.pids()
        assert all(process.alive(p) for p in pids)
    assert [p for p in pids if process.alive(p)] == []
    assert sleeper.processes == []


def test_services_stop_when_their_starter_is_killed(tmp_path):
    starter, pids = start(tmp_path, 'wait')
    assert all(process.alive(p) for p in pids)
    starter.send_signal(signal.SIGKILL)
    starter.wait()
    assert wait_gone(pids) == []


def test_detached_services_outlive_their_starter_until_stopped(tmp_path):
    starter, pids = start(tmp_path, 'exit')
    assert starter.wait(60) == 0
    try:
        time.sleep(1)  # a watcher would act at once
        assert all(process.alive(p) for p in pids)
    finally:
        assert process.stop_groups(pids[:1], timeout=30) == []
    assert wait_gone(pids, 5) == []


def test_a_setup_error_names_the_service_and_shows_its_log(tmp_path):
    class Failing(service.Service):
        def _start(self):
            proc = self.spawn('failing', ['sh', '-c', 'echo no luck; exit 3'])
            proc.wait_for_port(process.free_port(), 30)

    failing = Failing(str(tmp_path))
    try:
        failing.setUp()
    except Exception as exc:
        error = service.setup_error(exc)
    assert isinstance(error, process.ServiceError)
    assert str(error).startswith('failing listening on 127.0.0.1:')
    assert 'failing exited with status 3' in str(error)
    assert str(error).endswith('no luck\n')


class SessionLeaderChild(service.Service):
    """A shell whose child leads a session of its own (as an agent's hook)."""

    def _start(self):
        self.leader = self.spawn('parent', [
            'sh', '-c', 'setsid sleep 600 & echo $! > %s; wait'
            % self.path('child.pid')])
        process.wait_until(self.child, 30, 'the child in its session',
                           process=self.leader)

    def child(self):
        """The child's PID, once it leads its own process group."""
        try:
            with open(self.path('child.pid')) as f:
                pid = int(f.read())
        except (FileNotFoundError, ValueError):
            return None
        found = process._state_and_group(pid)
        return pid if found and found[1] == pid else None


def test_stop_also_stops_children_in_sessions_of_their_own(tmp_path):
    with SessionLeaderChild(str(tmp_path)) as parent:
        child = parent.child()
        assert process.alive(child)
        assert child in process.descendant_groups(parent.leader.pid)
        parent.leader.stop(kill=True)
        assert wait_gone([child]) == []


def test_a_killed_process_respawns_with_its_command(tmp_path):
    with Sleeper(str(tmp_path)) as sleeper:
        first = sleeper.pids()
        os.remove(sleeper.path('child.pid'))
        sleeper.leader.stop(kill=True)
        assert wait_gone(first) == []
        sleeper.leader = sleeper.respawn(sleeper.leader)
        process.wait_until(sleeper.pids, 30, 'the respawned sleeper')
        again = sleeper.pids()
        assert all(process.alive(p) for p in again)
        assert sleeper.leader.argv[0] == 'sh'
        assert not set(again) & set(first)
    assert wait_gone(again) == []
    assert sleeper.processes == []


def test_free_ports_are_distinct_and_below_the_ephemeral_range():
    ports = [process.free_port() for _ in range(50)]
    assert len(set(ports)) == 50
    low = process._ephemeral_low()
    if low - process.FIRST_PORT >= 1000:
        assert all(process.FIRST_PORT <= p < low for p in ports), ports
    for port in ports[:5]:
        assert not process.port_open(port)
