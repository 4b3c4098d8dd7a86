"""The whole loopback cloud: MariaDB, RabbitMQ, Keystone, Heat (+ Mistral).

Used by the end-to-end tests and by tools/demo.py. Every process is started
on 127.0.0.1 with free ports and stopped by its own PID in stop().
"""

import os
import threading

from heatclient import client as heat_client

from tests.services import heat as heat_service
from tests.services import keystone as keystone_service
from tests.services import mariadb as mariadb_service
from tests.services import rabbitmq as rabbitmq_service


class Cloud(object):
    def __init__(self, workdir):
        self.workdir = workdir
        self.mariadb = None
        self.rabbitmq = None
        self.keystone = None
        self.heat = None
        self.mistral = None

    def _path(self, name):
        return os.path.join(self.workdir, name)

    def start(self):
        os.makedirs(self.workdir, exist_ok=True)
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self):
        # RabbitMQ takes ~7 s to boot: let it do so while Keystone is set up.
        rabbit = rabbitmq_service.RabbitMQ(self._path('rabbitmq'))
        self.rabbitmq = rabbit
        rabbit_error = []

        def boot_rabbit():
            try:
                rabbit.start()
            except BaseException as exc:
                rabbit_error.append(exc)

        booting = threading.Thread(target=boot_rabbit, daemon=True)
        booting.start()
        self.mariadb = mariadb_service.MariaDB(self._path('mariadb')).start()
        self.keystone = keystone_service.Keystone(
            self._path('keystone'), self.mariadb.create_database('keystone'))
        heat = heat_service.Heat(self._path('heat'),
                                 self.mariadb.create_database('heat'),
                                 None, self.keystone)
        self.keystone.start(heat.api_port, heat.cfn_port)
        booting.join()
        if rabbit_error:
            raise rabbit_error[0]
        heat.transport_url = rabbit.transport_url
        self.heat = heat
        heat.start()

    def heat_client(self, session=None):
        """python-heatclient as the demo user (endpoint from the catalog)."""
        return heat_client.Client(
            '1', session=session or self.keystone.demo_session())

    def stop(self):
        for name in ('mistral', 'heat', 'keystone', 'rabbitmq', 'mariadb'):
            service = getattr(self, name)
            if service is not None:
                service.stop()
                setattr(self, name, None)
