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


def mistral_available():
    """Whether this tree has the Mistral server fixture (issue 5's)."""
    try:
        from tests.services import mistral  # noqa: F401
    except ImportError:
        return False
    return True


class Cloud(object):
    def __init__(self, workdir, with_mistral=None):
        self.workdir = workdir
        self.with_mistral = (mistral_available() if with_mistral is None
                             else with_mistral)
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
        if self.with_mistral:
            from tests.services import mistral
            self.mistral = mistral.MistralServer(self._path('mistral'))
            self.mistral.start()
            heat.extra_conf['heat_lifecycle_plugins'] = {
                'mistral_endpoint': self.mistral.url,
                'mistral_auth_type': 'none'}
        self.heat = heat
        heat.start()

    def processes(self):
        """(name, pid) of every process this cloud runs."""
        found = []
        for service in (self.mariadb, self.rabbitmq, self.keystone,
                        self.mistral, self.heat):
            for attr in ('epmd', 'process', 'engine', 'api', 'cfn'):
                proc = getattr(service, attr, None)
                if proc is not None and hasattr(proc, 'pid'):
                    found.append((proc.name, proc.pid))
        return found

    def client_env(self):
        """OS_* variables for `openstack stack ...` as the demo user."""
        return {'OS_AUTH_URL': self.keystone.url,
                'OS_USERNAME': 'demo',
                'OS_PASSWORD': keystone_service.DEMO_PASSWORD,
                'OS_PROJECT_NAME': 'demo',
                'OS_USER_DOMAIN_NAME': 'Default',
                'OS_PROJECT_DOMAIN_NAME': 'Default',
                'OS_REGION_NAME': 'RegionOne',
                'OS_IDENTITY_API_VERSION': '3'}

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
