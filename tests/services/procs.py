"""Starting and stopping test service processes by their own PID."""

import os
import signal
import socket
import subprocess
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def repo_env(base=None, **extra):
    """An environment (os.environ or `base`, plus `extra`) whose PYTHONPATH
    starts with the repository, so a child can import tests.services."""
    env = dict(os.environ if base is None else base, **extra)
    env['PYTHONPATH'] = os.pathsep.join(
        [REPO] + [p for p in [env.get('PYTHONPATH')] if p])
    return env


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def wait_for_port(port, timeout=60, proc=None, what='service'):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc is not None and not proc.running():
            raise RuntimeError('%s exited with %s before listening on %s:\n%s'
                               % (what, proc.popen.returncode, port,
                                  proc.log_tail()))
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            if s.connect_ex(('127.0.0.1', port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError('%s did not listen on 127.0.0.1:%s in %ss'
                       % (what, port, timeout))


class Process(object):
    """A child process with its log file, stopped by its own PID."""

    def __init__(self, name, argv, log_path, env=None, cwd=None):
        self.name = name
        self.log_path = log_path
        self._log = open(log_path, 'ab')
        self.popen = subprocess.Popen(
            argv, stdout=self._log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, env=env, cwd=cwd,
            start_new_session=True)
        self.pid = self.popen.pid

    def running(self):
        return self.popen.poll() is None

    def log_tail(self, chars=4000):
        with open(self.log_path, 'rb') as f:
            return f.read()[-chars:].decode('utf-8', 'replace')

    def stop(self, timeout=30):
        """SIGTERM our PID (and its session's children), then SIGKILL."""
        if self.running():
            self._signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                self.popen.wait(10)
        self._log.close()

    def _signal(self, sig):
        try:
            os.killpg(self.pid, sig)  # the session this PID leads
        except ProcessLookupError:
            pass


def exit_with_parent(parent_pid, interval=1.0):
    """In a service process: exit at once when parent_pid is no longer our
    parent (the test run died without stopping us), so nothing leaks."""
    import threading

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(interval)
        os._exit(0)
    threading.Thread(target=watch, daemon=True).start()
