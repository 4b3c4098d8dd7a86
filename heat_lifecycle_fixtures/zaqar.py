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
"""A real Zaqar (messaging) behind Keystone, on Redis, on 127.0.0.1.

    with Zaqar(workdir, keystone) as zaqar:
        zaqar.url            # http://127.0.0.1:PORT, `messaging` in the
                             # catalog: Heat and os-collect-config find it

Zaqar's WSGI app is served by gunicorn (wsgi_app.py) with keystonemiddleware,
as a cloud serves it. Its message and management stores are a private
redis-server (Debian's), on a free port, with its files in `workdir` and no
snapshots; both processes are stopped by their PIDs at cleanUp.

os-collect-config before 14.0.1 (2025.1's) polls Zaqar's API v1.1, which
Zaqar 20 serves only when enabled (enable_deprecated_api_versions) and 21
removed: where the installed Zaqar has it, it is enabled.
"""

import importlib.util
import shutil

from heat_lifecycle_fixtures import conf
from heat_lifecycle_fixtures import process
from heat_lifecycle_fixtures import service

SERVICE_USER = 'zaqar'
SERVICE_PASSWORD = 'zaqar-secret'
REDIS = '/usr/bin/redis-server'


class Zaqar(service.Service):

    def __init__(self, workdir, keystone, detached=False):
        super(Zaqar, self).__init__(workdir, detached)
        self.keystone = keystone
        self.port = process.free_port()
        self.redis_port = process.free_port()

    @staticmethod
    def available():
        return shutil.which(REDIS) is not None

    @property
    def url(self):
        return 'http://127.0.0.1:%d' % self.port

    def _start(self):
        # No config file: nothing is saved, nothing is written outside
        # `workdir`, and only loopback is listened on.
        self.redis = self.spawn('redis-server', [
            REDIS, '--bind', '127.0.0.1', '--port', str(self.redis_port),
            '--dir', self.workdir, '--save', '', '--appendonly', 'no',
            '--daemonize', 'no', '--logfile', ''], support_path=False)
        self.redis.wait_for_port(self.redis_port, 30)
        self.keystone.add_service_user(SERVICE_USER, SERVICE_PASSWORD)
        self.keystone.add_services({'messaging': ('zaqar', self.url)})
        config = conf.write_ini(self.path('zaqar.conf'), self._settings())
        self.server = self.serve_wsgi('zaqar', 'zaqar', config, self.port)
        process.wait_until(
            lambda: process.api_answers(self.url + '/v2/queues'), 60,
            'zaqar at %s' % self.url, process=self.server)

    def _settings(self):
        store = {'uri': 'redis://127.0.0.1:%d' % self.redis_port}
        default = {'auth_strategy': 'keystone',
                   'log_file': self.path('zaqar-api.log')}
        if importlib.util.find_spec('zaqar.transport.wsgi.v1_1'):
            default['enable_deprecated_api_versions'] = '1.1'
        return {
            'DEFAULT': default,
            'drivers': {'transport': 'wsgi', 'message_store': 'redis',
                        'management_store': 'redis'},
            'drivers:message_store:redis': store,
            'drivers:management_store:redis': store,
            'keystone_authtoken': self.keystone.authtoken(
                SERVICE_USER, SERVICE_PASSWORD),
        }
