"""A real Mistral server (engine + API in one process) on 127.0.0.1.

    server = MistralServer(workdir).start()
    server.url          # http://127.0.0.1:PORT/v2
    server.client()     # python-mistralclient, no auth
    server.stop()       # by its own PID

The process is tests/services/mistral_server.py run with this interpreter:
fake:// transport, sqlite, auth disabled, local executor. Nothing in it is
specific to an in-process Heat engine, so a separately started heat-engine
can use it through `url` as well.
"""

import os
import sys
import time

from tests.services import procs

CONFIG = """\
[DEFAULT]
transport_url = fake://
debug = {debug}
log_file = {log_file}

[api]
host = 127.0.0.1
port = {port}

[pecan]
auth_enable = False

[database]
connection = sqlite:///{db_path}

[executor]
type = local

[notifier]
type = local

[cron_trigger]
enabled = False

# No heartbeat checks: actions run in this very process.
[action_heartbeat]
max_missed_heartbeats = 0
check_interval = 0

# Test workflows call services on loopback with std.http, which Mistral
# blocks by default (SSRF protection): allow 127.0.0.1 only.
[action_std_http]
allowed_hosts = 127.0.0.1
denied_cidrs = 169.254.0.0/16,fe80::/10

[oslo_policy]
enforce_scope = False
enforce_new_defaults = False
"""


class MistralServer(object):
    def __init__(self, workdir, debug=False):
        self.workdir = workdir
        self.debug = debug
        self.port = None
        self.process = None

    @property
    def url(self):
        return 'http://127.0.0.1:%d/v2' % self.port

    def start(self, timeout=60):
        os.makedirs(self.workdir, exist_ok=True)
        self.port = procs.free_port()
        config_file = os.path.join(self.workdir, 'mistral.conf')
        db_path = os.path.join(self.workdir, 'mistral.sqlite')
        if os.path.exists(db_path):
            os.remove(db_path)  # every start is a fresh, empty Mistral
        with open(config_file, 'w') as f:
            f.write(CONFIG.format(
                port=self.port, debug=self.debug,
                log_file=os.path.join(self.workdir, 'mistral.log'),
                db_path=db_path))
        env = procs.repo_env()
        self.process = procs.Process(
            'mistral',
            [sys.executable, '-m', 'tests.services.mistral_server',
             config_file, str(os.getpid())],
            os.path.join(self.workdir, 'mistral-stdout.log'), env=env)
        try:
            procs.wait_for_port(self.port, timeout, self.process, 'mistral')
            self._wait_for_api(timeout)
        except Exception:
            self.stop()
            raise
        return self

    def _wait_for_api(self, timeout):
        deadline = time.time() + timeout
        while True:
            try:
                self.client().workflows.list(limit=1)
                return
            except Exception as exc:
                if time.time() > deadline or not self.process.running():
                    raise RuntimeError('mistral API at %s did not answer: '
                                       '%s\n%s' % (self.url, exc,
                                                   self.log_tail()))
            time.sleep(0.1)

    def client(self):
        from keystoneauth1 import session
        from mistralclient.api import client
        return client.client(mistral_url=self.url,
                             session=session.Session())

    def running(self):
        return self.process is not None and self.process.running()

    def log_tail(self, chars=4000):
        path = os.path.join(self.workdir, 'mistral.log')
        if not os.path.exists(path):
            return self.process.log_tail(chars) if self.process else ''
        with open(path, 'rb') as f:
            return f.read()[-chars:].decode('utf-8', 'replace')

    def stop(self):
        if self.process is not None:
            self.process.stop()
            self.process = None
