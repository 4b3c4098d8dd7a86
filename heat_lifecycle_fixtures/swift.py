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
"""A real Swift on 127.0.0.1, behind a keystone.Keystone.

    with Swift(workdir, keystone) as swift:
        swift.url            # http://127.0.0.1:PORT/v1/AUTH_%(project_id)s

Four processes of the swift package in this interpreter: the proxy
(keystonemiddleware's authtoken, Swift's keystoneauth and tempurl, as a
cloud's proxy-server.conf has them) and an account, a container and an
object server, each on a free port, in one process (workers = 0). The
rings (one device, one replica) are built at start; the device is a
directory of the work directory, whose file system must keep extended
attributes (the object server stores its metadata there). The proxy is
listed in the catalog as `object-store`, where Heat's swift client finds
it. Members (`member`, and `admin`) own their project's account; a reader
is given nothing, as Swift's keystoneauth does by default
(project_reader_roles empty).
"""

import os
import sys

from heat_lifecycle_fixtures import conf
from heat_lifecycle_fixtures import process
from heat_lifecycle_fixtures import service

SERVICE_USER = 'swift'
SERVICE_PASSWORD = 'swift-secret'
SERVERS = ('account', 'container', 'object')
DEVICE = 'disk0'
# The roles whose users own their project's account (keystoneauth).
OPERATOR_ROLES = 'admin, member'


class Swift(service.Service):

    def __init__(self, workdir, keystone, detached=False):
        super(Swift, self).__init__(workdir, detached)
        self.keystone = keystone
        self.port = process.free_port()
        self.ports = {name: process.free_port() for name in SERVERS}

    @property
    def url(self):
        """The catalog's URL (Keystone puts the project's id in)."""
        return 'http://127.0.0.1:%d/v1/AUTH_%%(project_id)s' % self.port

    def _start(self):
        devices = self.path('devices')
        os.makedirs(os.path.join(devices, DEVICE), exist_ok=True)
        _require_xattrs(os.path.join(devices, DEVICE))
        conf.write_ini(self.path('swift.conf'), {
            'swift-hash': {'swift_hash_path_suffix': 'hlp-e2e',
                           'swift_hash_path_prefix': 'hlp'},
            'storage-policy:0': {'name': 'one-copy', 'default': 'yes'}})
        for name in SERVERS:
            self._build_ring(name)
        self.keystone.add_service_user(SERVICE_USER, SERVICE_PASSWORD)
        for name in SERVERS:
            self._serve(name, self.ports[name], {
                'pipeline:main': {'pipeline': '%s-server' % name},
                'app:%s-server' % name: {'use': 'egg:swift#%s' % name}},
                devices=devices, mount_check='false')
        self._serve('proxy', self.port, self._proxy_settings())
        process.wait_until(self._answers, 60, 'swift proxy at %s' % self.url,
                           process=self.server)
        self.keystone.add_services({'object-store': ('swift', self.url)})

    def _build_ring(self, name):
        from swift.common.ring import RingBuilder
        builder = RingBuilder(part_power=4, replicas=1, min_part_hours=0)
        builder.add_dev({'id': 0, 'region': 1, 'zone': 1,
                         'ip': '127.0.0.1', 'port': self.ports[name],
                         'device': DEVICE, 'weight': 100})
        builder.rebalance()
        builder.get_ring().save(self.path('%s.ring.gz' % name))

    def _serve(self, name, port, sections, **defaults):
        settings = {'DEFAULT': dict(
            defaults, bind_ip='127.0.0.1', bind_port=port, workers=0,
            swift_dir=self.workdir, log_name='swift-' + name)}
        settings.update(sections)
        config = conf.write_ini(self.path('%s-server.conf' % name), settings)
        module = 'swift.obj.server' if name == 'object' else (
            'swift.%s.server' % name)
        # --verbose: its log on stderr (the process's log), not syslog.
        self.server = self.spawn('swift-%s-server' % name, [
            sys.executable, '-m', module, config, '--verbose'])
        self.server.wait_for_port(port, 60)

    def _proxy_settings(self):
        keystone = self.keystone
        return {
            'pipeline:main': {'pipeline': 'catch_errors tempurl authtoken '
                                          'keystoneauth proxy-server'},
            'filter:catch_errors': {'use': 'egg:swift#catch_errors'},
            'filter:tempurl': {'use': 'egg:swift#tempurl'},
            'filter:authtoken': dict(
                keystone.authtoken(SERVICE_USER, SERVICE_PASSWORD), **{
                    'paste.filter_factory':
                        'keystonemiddleware.auth_token:filter_factory',
                    # tempurl's anonymous requests reach keystoneauth.
                    'delay_auth_decision': 'true'}),
            'filter:keystoneauth': {'use': 'egg:swift#keystoneauth',
                                    'operator_roles': OPERATOR_ROLES},
            'app:proxy-server': {'use': 'egg:swift#proxy',
                                 'account_autocreate': 'true'},
        }

    def _answers(self):
        """Whether the proxy answers (/info needs no token)."""
        import urllib.request
        try:
            urllib.request.urlopen('http://127.0.0.1:%d/info' % self.port,
                                   timeout=5).close()
        except Exception:
            return False
        return True


def _require_xattrs(directory):
    """Fail setUp, naming the directory, where extended attributes fail."""
    probe = os.path.join(directory, '.xattr-probe')
    open(probe, 'w').close()
    try:
        os.setxattr(probe, 'user.swift.probe', b'1')
    except OSError as exc:
        raise process.ServiceError(
            'swift: the file system of %s keeps no extended attributes (%s); '
            'run the tests with a --basetemp on one that does (ext4, xfs, '
            'tmpfs from Linux 6.6)' % (directory, exc)) from None
    finally:
        os.remove(probe)
