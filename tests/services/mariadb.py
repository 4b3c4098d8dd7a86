"""A private MariaDB server on 127.0.0.1 with its own data directory."""

import os
import shutil
import subprocess
import uuid

from tests.services import procs


class MariaDB(object):
    def __init__(self, workdir):
        self.workdir = workdir
        self.datadir = os.path.join(workdir, 'data')
        self.socket = os.path.join(workdir, 'mysqld.sock')
        self.port = None
        self.process = None

    @staticmethod
    def available():
        return bool(shutil.which('mariadbd') and
                    shutil.which('mariadb-install-db'))

    def start(self):
        os.makedirs(self.workdir, exist_ok=True)
        subprocess.run(
            ['mariadb-install-db', '--no-defaults',
             '--datadir=%s' % self.datadir, '--user=root',
             '--auth-root-authentication-method=normal', '--skip-test-db'],
            check=True, capture_output=True, timeout=120)
        self.port = procs.free_port()
        self.process = procs.Process(
            'mariadb',
            ['mariadbd', '--no-defaults', '--datadir=%s' % self.datadir,
             '--socket=%s' % self.socket, '--port=%d' % self.port,
             '--bind-address=127.0.0.1', '--user=root',
             '--skip-name-resolve', '--innodb-buffer-pool-size=64M',
             '--innodb-flush-log-at-trx-commit=0', '--max-connections=500'],
            os.path.join(self.workdir, 'mariadb.log'))
        try:
            procs.wait_for_port(self.port, 60, self.process, 'mariadb')
        except Exception:
            self.stop()
            raise
        return self

    def create_database(self, prefix='heat'):
        """A new empty database; its SQLAlchemy URL (PyMySQL)."""
        name = '%s_%s' % (prefix, uuid.uuid4().hex[:8])
        subprocess.run(
            ['mariadb', '--no-defaults', '-S', self.socket, '-uroot',
             '-e', 'CREATE DATABASE %s CHARACTER SET utf8mb4' % name],
            check=True, capture_output=True, timeout=60)
        return 'mysql+pymysql://root@127.0.0.1:%d/%s' % (self.port, name)

    def stop(self):
        if self.process is not None:
            self.process.stop()
            self.process = None
