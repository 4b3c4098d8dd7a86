"""A private RabbitMQ node on 127.0.0.1, with its own epmd, both stopped by PID.

Runs /usr/lib/rabbitmq/bin/rabbitmq-server directly (the /usr/sbin wrapper
switches user) with every path and port of its own, so it never meets a
system-wide node.
"""

import os
import shutil
import subprocess
import time
import uuid

from tests.services import procs

SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server'
CTL = '/usr/lib/rabbitmq/bin/rabbitmqctl'


class RabbitMQ(object):
    def __init__(self, workdir):
        self.workdir = workdir
        self.node = 'hlp%s@localhost' % uuid.uuid4().hex[:8]
        self.port = None
        self.epmd = None
        self.process = None
        self.env = None

    @staticmethod
    def available():
        return os.access(SERVER, os.X_OK) and bool(shutil.which('epmd'))

    @property
    def transport_url(self):
        return 'rabbit://guest:guest@127.0.0.1:%d/' % self.port

    def start(self):
        os.makedirs(self.workdir, exist_ok=True)
        self.port = procs.free_port()
        epmd_port = procs.free_port()
        conf = os.path.join(self.workdir, 'rabbitmq.conf')
        with open(conf, 'w') as f:
            # guest may log in from loopback only, which is all we use.
            f.write('listeners.tcp.1 = 127.0.0.1:%d\n'
                    'loopback_users = none\n' % self.port)
        self.env = dict(
            os.environ, HOME=self.workdir, RABBITMQ_NODENAME=self.node,
            RABBITMQ_NODE_IP_ADDRESS='127.0.0.1',
            RABBITMQ_NODE_PORT=str(self.port),
            RABBITMQ_DIST_PORT=str(procs.free_port()),
            ERL_EPMD_ADDRESS='127.0.0.1', ERL_EPMD_PORT=str(epmd_port),
            RABBITMQ_CONFIG_FILE=conf[:-len('.conf')],
            RABBITMQ_MNESIA_BASE=os.path.join(self.workdir, 'mnesia'),
            RABBITMQ_LOG_BASE=os.path.join(self.workdir, 'log'),
            RABBITMQ_CONF_ENV_FILE='/dev/null',
            RABBITMQ_ENABLED_PLUGINS_FILE=os.path.join(self.workdir,
                                                       'enabled_plugins'),
            RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS=(
                '-kernel inet_dist_use_interface {127,0,0,1}'))
        with open(self.env['RABBITMQ_ENABLED_PLUGINS_FILE'], 'w') as f:
            f.write('[].\n')
        self.epmd = procs.Process(
            'epmd', ['epmd', '-address', '127.0.0.1', '-port', str(epmd_port)],
            os.path.join(self.workdir, 'epmd.log'), env=self.env)
        try:
            procs.wait_for_port(epmd_port, 30, self.epmd, 'epmd')
            self.process = procs.Process(
                'rabbitmq', [SERVER],
                os.path.join(self.workdir, 'rabbitmq.log'), env=self.env)
            procs.wait_for_port(self.port, 90, self.process, 'rabbitmq')
            self._await_startup()
        except Exception:
            self.stop()
            raise
        return self

    def _await_startup(self, timeout=60):
        # rabbitmqctl answers 69 (unavailable) until the node registers.
        deadline = time.time() + timeout
        while True:
            result = subprocess.run(
                [CTL, '-n', self.node, 'await_startup', '--timeout', '30'],
                env=self.env, capture_output=True, text=True, timeout=60)
            if result.returncode == 0:
                return
            if time.time() > deadline or not self.process.running():
                raise RuntimeError('rabbitmq did not start: %s\n%s' % (
                    result.stderr, self.process.log_tail()))
            time.sleep(0.5)

    def stop(self):
        if self.process is not None:
            self.process.stop(timeout=30)
            self.process = None
        if self.epmd is not None:
            self.epmd.stop()
            self.epmd = None
