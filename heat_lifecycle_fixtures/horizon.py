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
"""Horizon with heat-dashboard (and our Lifecycle tab) on 127.0.0.1.

It runs from a dashboard venv (tools/horizon-venv.sh: Horizon,
heat-dashboard and our wheel's [dashboard] extra) against a cloud's
Keystone, as a dashboard host does, and writes nothing into that venv:

- its local_settings.py lives in the work directory, in a `local` package
  found first on PYTHONPATH: openstack_dashboard/settings.py imports
  `local.local_settings` (its own directory is only appended to sys.path);
- the enabled files an operator copies into openstack_dashboard/local/
  enabled/ (heat-dashboard's and ours) are copied into the work
  directory, which local_settings.py adds to the __path__ of
  openstack_dashboard.local.enabled: Horizon's own update_dashboards()
  lists that package's __path__ (pkgutil), so it loads them as if they
  were there;
- collectstatic and compress (COMPRESS_OFFLINE) write into the work
  directory's STATIC_ROOT, once, before gunicorn serves horizon_wsgi.py.

Checked against horizon 25.3.2 and 27.0.0 (openstack_dashboard/settings.py,
utils/settings.py, wsgi.py).
"""

import json
import os
import secrets
import shutil
import urllib.request

from heat_lifecycle_fixtures import process
from heat_lifecycle_fixtures import service

# The packages whose enabled files a dashboard host copies.
ENABLED_PACKAGES = ('heat_dashboard.enabled',
                    'heat_lifecycle_dashboard.enabled')
# Threads of the one gunicorn worker: one process, so that the sessions in
# its local-memory cache are seen by every request.
THREADS = 8

LOCAL_SETTINGS = '''\
# Written by heat_lifecycle_fixtures.horizon for one test session.
import openstack_dashboard.local.enabled

openstack_dashboard.local.enabled.__path__.append(%(enabled)r)

SECRET_KEY = %(secret_key)r
DEBUG = False
ALLOWED_HOSTS = ['127.0.0.1']
OPENSTACK_KEYSTONE_URL = %(keystone_url)r
OPENSTACK_KEYSTONE_DEFAULT_ROLE = 'member'
CACHES = {'default': {
    'BACKEND': 'django.core.cache.backends.locmem.LocMemCache'}}
SESSION_ENGINE = 'django.contrib.sessions.backends.cache'
STATIC_ROOT = %(static_root)r
COMPRESS_OFFLINE = True
LOGGING = {
    'version': 1,
    'disable_existing_loggers': False,
    'handlers': {'console': {'class': 'logging.StreamHandler'}},
    'root': {'handlers': ['console'], 'level': 'WARNING'},
}

# heat-dashboard's orchestration policy, as its install guide has the host
# load it (heat_dashboard/local_settings.d/_1699_orchestration_settings.py
# adds these two entries). Without it Horizon has no 'orchestration'
# enforcer and openstack_auth.policy.check allows every rule: a reader
# would be offered what only a member may do. Absolute paths: os.path.join
# keeps them when openstack_auth joins them to POLICY_FILES_PATH.
import os as _os
import heat_dashboard as _heat_dashboard
from openstack_dashboard import defaults as _defaults
_heat_conf = _os.path.join(_os.path.dirname(_heat_dashboard.__file__), 'conf')
POLICY_FILES = dict(_defaults.POLICY_FILES, orchestration=_os.path.join(
    _heat_conf, 'heat_policy.yaml'))
DEFAULT_POLICY_FILES = dict(
    _defaults.DEFAULT_POLICY_FILES, orchestration=_os.path.join(
        _heat_conf, 'default_policies', 'heat.yaml'))
'''


class Horizon(service.Service):
    """Horizon served from `venv` against `keystone_url` (its /v3)."""

    def __init__(self, workdir, venv, keystone_url, detached=False):
        super(Horizon, self).__init__(workdir, detached)
        self.venv = venv
        self.python = os.path.join(venv, 'bin', 'python')
        self.keystone_url = keystone_url
        self.enabled_files = []  # (package, file name) copied

    @property
    def url(self):
        return 'http://127.0.0.1:%d' % self.port

    def _start(self):
        self.port = process.free_port()
        self.env = self._write_settings()
        for command in (['collectstatic', '--noinput'],
                        ['compress', '--force']):
            process.run([self.python, '-m', 'django'] + command,
                        'Horizon %s' % command[0], timeout=900,
                        env=self.env, cwd=self.workdir)
        self.spawn('horizon', [
            self.python, '-m', 'gunicorn',
            '--bind', '127.0.0.1:%d' % self.port, '--workers', '1',
            '--worker-class', 'gthread', '--threads', str(THREADS),
            '--timeout', '300', '--graceful-timeout', '5',
            '--keep-alive', str(service.KEEP_ALIVE),
            'heat_lifecycle_fixtures.horizon_wsgi:application'],
            env=self.env, cwd=self.workdir).wait_for_port(self.port, 120)
        process.wait_until(self._login_page, 120, 'Horizon login page',
                           interval=0.5, process=self.processes[-1])

    def _write_settings(self):
        local = self.path('local')
        enabled = self.path('enabled')
        for directory in (local, enabled):
            os.makedirs(directory, exist_ok=True)
        open(os.path.join(local, '__init__.py'), 'w').close()
        for package, source in self._enabled_sources():
            shutil.copy(source, enabled)
            self.enabled_files.append((package, os.path.basename(source)))
        with open(os.path.join(local, 'local_settings.py'), 'w') as f:
            f.write(LOCAL_SETTINGS % {
                'enabled': enabled,
                'secret_key': secrets.token_urlsafe(32),
                'keystone_url': self.keystone_url,
                'static_root': self.path('static')})
        env = process.child_env()
        env['PYTHONPATH'] = os.pathsep.join(
            [self.workdir] + env['PYTHONPATH'].split(os.pathsep))
        env['DJANGO_SETTINGS_MODULE'] = 'openstack_dashboard.settings'
        # gunicorn 25+ puts its control socket in $XDG_RUNTIME_DIR, else
        # in ~/.gunicorn/ (older ones have none): a home in the work
        # directory, so nothing is left in the user's and no socket is
        # shared with another Horizon's gunicorn.
        env['HOME'] = self.path('home')
        os.makedirs(env['HOME'], exist_ok=True)
        env.pop('XDG_RUNTIME_DIR', None)
        return env

    def _enabled_sources(self):
        """(package, path) of the enabled files (_*.py) in the venv."""
        code = (
            'import importlib.util, json, sys\n'
            'found = {}\n'
            'for name in sys.argv[1:]:\n'
            '    try:\n'
            '        spec = importlib.util.find_spec(name)\n'
            '    except ImportError:\n'
            '        spec = None\n'
            '    if spec:\n'
            '        found[name] = list(spec.submodule_search_locations)\n'
            'print(json.dumps(found))\n')
        out = process.run([self.python, '-c', code] + list(ENABLED_PACKAGES),
                          'finding the enabled files').stdout
        sources = []
        for package, directories in sorted(json.loads(out).items()):
            for directory in directories:
                sources.extend(
                    (package, os.path.join(directory, name))
                    for name in sorted(os.listdir(directory))
                    if name.startswith('_') and name.endswith('.py')
                    and name != '__init__.py')
        return sources

    def _login_page(self):
        try:
            with urllib.request.urlopen(self.url + '/auth/login/',
                                        timeout=30) as response:
                return response.status == 200
        except OSError:
            return False
