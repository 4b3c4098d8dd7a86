"""An unmodified heat-engine (2 workers), heat-api and heat-api-cfn.

Our types reach heat-engine only through the loader module that
`heat-lifecycle-plugins install-loader` writes into its plugin_dirs. The two
APIs are served threaded by gunicorn; engine and APIs talk over RabbitMQ and
authenticate against a real Keystone (trusts, stack-domain users).
"""

import os
import subprocess
import sys
import time

import heat

from heat_lifecycle_plugins import cli
from tests.services import gunicorn
from tests.services import keystone as ks
from tests.services import procs

ENGINE_WORKERS = 2


def heat_etc_dir():
    """Where pip put heat's api-paste.ini (the prefix heat is installed in)."""
    site = os.path.dirname(os.path.dirname(os.path.abspath(heat.__file__)))
    candidates = [os.path.join(sys.prefix, 'etc', 'heat'),
                  os.path.join(sys.base_prefix, 'etc', 'heat'),
                  os.path.normpath(os.path.join(site, '..', '..', '..',
                                                'etc', 'heat'))]
    for path in candidates:
        if os.path.exists(os.path.join(path, 'api-paste.ini')):
            return path
    raise RuntimeError('heat\'s api-paste.ini not found in %s' % candidates)


class Heat(object):
    def __init__(self, workdir, db_url, transport_url, keystone):
        self.workdir = workdir
        self.db_url = db_url
        self.transport_url = transport_url
        self.keystone = keystone
        self.api_port = procs.free_port()
        self.cfn_port = procs.free_port()
        self.plugin_dir = os.path.join(workdir, 'plugins')
        self.engine = None
        self.api = None
        self.cfn = None
        # {section: {option: value}} appended to heat.conf (our options).
        self.extra_conf = {}

    @property
    def engine_log(self):
        return os.path.join(self.workdir, 'heat-engine.log')

    def _write_conf(self):
        environment_dir = os.path.join(self.workdir, 'environment.d')
        os.makedirs(environment_dir, exist_ok=True)
        cfn_url = 'http://127.0.0.1:%d/v1' % self.cfn_port
        keystone_auth = (
            'auth_type = password\nauth_url = %s\nusername = heat\n'
            'password = %s\nuser_domain_name = Default\n'
            % (self.keystone.url, ks.SERVICE_PASSWORD))
        self.conf = os.path.join(self.workdir, 'heat.conf')
        with open(self.conf, 'w') as f:
            f.write(
                '[DEFAULT]\n'
                'debug = true\n'
                'transport_url = %(transport)s\n'
                'plugin_dirs = %(plugins)s\n'
                'environment_dir = %(envdir)s\n'
                'num_engine_workers = %(workers)d\n'
                'auth_encryption_key = %(key)s\n'
                'region_name_for_services = RegionOne\n'
                'heat_metadata_server_url = http://127.0.0.1:%(cfn_port)d\n'
                'heat_waitcondition_server_url = %(cfn)s/waitcondition\n'
                'stack_user_domain_name = heat\n'
                'stack_domain_admin = heat_domain_admin\n'
                'stack_domain_admin_password = %(domain_pw)s\n'
                'periodic_interval = 5\n'
                '[paste_deploy]\napi_paste_config = %(paste)s\n'
                '[database]\nconnection = %(db)s\n'
                '[oslo_messaging_rabbit]\nheartbeat_timeout_threshold = 0\n'
                '[keystone_authtoken]\nwww_authenticate_uri = %(ks)s\n'
                'project_name = service\nproject_domain_name = Default\n'
                '%(auth)s'
                '[trustee]\n%(auth)s'
                '[clients_keystone]\nauth_uri = %(ks_root)s\n'
                '[ec2authtoken]\nauth_uri = %(ks)s\n'
                'endpoint_override = %(ks_root)s\n'
                'project_name = service\nproject_domain_name = Default\n'
                '%(auth)s'
                % {'transport': self.transport_url, 'plugins': self.plugin_dir,
                   'envdir': environment_dir,
                   'paste': os.path.join(heat_etc_dir(), 'api-paste.ini'),
                   'workers': ENGINE_WORKERS, 'key': 'k' * 32,
                   'cfn_port': self.cfn_port, 'cfn': cfn_url,
                   'domain_pw': ks.DOMAIN_ADMIN_PASSWORD, 'db': self.db_url,
                   'ks': self.keystone.url,
                   'ks_root': self.keystone.unversioned_url,
                   'auth': keystone_auth})
            for section, options in sorted(self.extra_conf.items()):
                f.write('[%s]\n' % section)
                for name, value in sorted(options.items()):
                    f.write('%s = %s\n' % (name, value))

    def _python(self, code, name, log):
        return procs.Process(
            name, [sys.executable, '-c', code, '--config-file', self.conf],
            log, cwd=self.workdir)

    def start(self):
        os.makedirs(self.workdir, exist_ok=True)
        cli.install_loader(self.plugin_dir)
        self._write_conf()
        try:
            self._db_sync()
            self.engine = self._python(
                'import sys; from heat.cmd.engine import main; '
                'sys.exit(main())', 'heat-engine', self.engine_log)
            self.api = gunicorn.serve('heat-api', 'heat-api', self.conf,
                                      self.workdir, self.api_port)
            self.cfn = gunicorn.serve('heat-api-cfn', 'heat-api-cfn',
                                      self.conf, self.workdir, self.cfn_port)
            self._wait_for_engine()
        except Exception:
            self.stop()
            raise
        return self

    def _db_sync(self):
        result = subprocess.run(
            [sys.executable, '-c',
             'import sys; from heat.cmd.manage import main; sys.exit(main())',
             '--config-file', self.conf, 'db_sync'],
            capture_output=True, text=True, timeout=300)
        if result.returncode:
            raise RuntimeError('heat-manage db_sync failed:\n%s' %
                               (result.stdout + result.stderr)[-4000:])

    def _wait_for_engine(self, timeout=120):
        """Until every engine worker has registered its service row."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if not self.engine.running():
                raise RuntimeError('heat-engine exited:\n%s' %
                                   self.engine.log_tail())
            with open(self.engine_log, errors='replace') as f:
                started = f.read().count(' is started')
            if started >= ENGINE_WORKERS:
                return
            time.sleep(0.2)
        raise RuntimeError('heat-engine did not start in %ss:\n%s'
                           % (timeout, self.engine.log_tail()))

    def url(self, project_id):
        return 'http://127.0.0.1:%d/v1/%s' % (self.api_port, project_id)

    def stop(self):
        for attr in ('cfn', 'api', 'engine'):
            proc = getattr(self, attr)
            if proc is not None:
                proc.stop(timeout=40)
                setattr(self, attr, None)
