"""A real Keystone (fernet tokens, MariaDB) served by gunicorn on 127.0.0.1.

After start() it holds what Heat needs: the heat service user, the
heat_stack_owner / heat_stack_user roles, the `heat` stack-user domain with
its admin, and a `demo` project whose `demo` user owns the stacks.
"""

import os
import subprocess
import sys

from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3
from keystoneclient.v3 import client as ks_client

from tests.services import gunicorn
from tests.services import procs

ADMIN_PASSWORD = 'admin-secret'
SERVICE_PASSWORD = 'heat-secret'
DOMAIN_ADMIN_PASSWORD = 'heat-domain-secret'
DEMO_PASSWORD = 'demo-secret'


class Keystone(object):
    def __init__(self, workdir, db_url):
        self.workdir = workdir
        self.db_url = db_url
        self.port = None
        self.process = None
        self.heat_domain_id = None

    @property
    def url(self):
        return 'http://127.0.0.1:%d/v3' % self.port

    @property
    def unversioned_url(self):
        return 'http://127.0.0.1:%d' % self.port

    def _write_conf(self):
        keys = os.path.join(self.workdir, 'fernet-keys')
        creds = os.path.join(self.workdir, 'credential-keys')
        for d in (keys, creds):
            os.makedirs(d, exist_ok=True)
        self.conf = os.path.join(self.workdir, 'keystone.conf')
        with open(self.conf, 'w') as f:
            f.write(
                '[DEFAULT]\nlog_file = %(log)s\n'
                '[database]\nconnection = %(db)s\n'
                '[token]\nprovider = fernet\n'
                '[fernet_tokens]\nkey_repository = %(keys)s\n'
                '[fernet_receipts]\nkey_repository = %(keys)s\n'
                '[credential]\nkey_repository = %(creds)s\n'
                # Fast hashing: these passwords only live for one test run.
                '[identity]\npassword_hash_rounds = 4\n'
                'max_password_length = 72\n'
                % {'log': os.path.join(self.workdir, 'keystone-app.log'),
                   'db': self.db_url, 'keys': keys, 'creds': creds})

    def _manage(self, *args):
        result = subprocess.run(
            [sys.executable, '-c',
             'import sys; from keystone.cmd.manage import main; '
             'sys.argv[0] = "keystone-manage"; sys.exit(main())',
             '--config-file', self.conf] + list(args),
            capture_output=True, text=True, timeout=300)
        if result.returncode:
            raise RuntimeError('keystone-manage %s failed:\n%s%s' % (
                ' '.join(args), result.stdout[-3000:], result.stderr[-3000:]))

    def start(self, heat_api_port, heat_cfn_port):
        os.makedirs(self.workdir, exist_ok=True)
        self.port = procs.free_port()
        self._write_conf()
        owner = ['--keystone-user', 'root', '--keystone-group', 'root']
        self._manage('fernet_setup', *owner)
        self._manage('credential_setup', *owner)
        self._manage('db_sync')
        self._manage('bootstrap', '--bootstrap-password', ADMIN_PASSWORD,
                     '--bootstrap-admin-url', self.url,
                     '--bootstrap-internal-url', self.url,
                     '--bootstrap-public-url', self.url,
                     '--bootstrap-region-id', 'RegionOne')
        self.process = gunicorn.serve('keystone', 'keystone', self.conf,
                                      self.workdir, self.port)
        try:
            self._create_heat_data(heat_api_port, heat_cfn_port)
        except Exception:
            self.stop()
            raise
        return self

    def session(self, username, password, project_name=None,
                domain_name=None):
        kwargs = dict(auth_url=self.url, username=username, password=password,
                      user_domain_name='Default')
        if project_name:
            kwargs.update(project_name=project_name,
                          project_domain_name='Default')
        if domain_name:
            kwargs.update(domain_name=domain_name)
        return ks_session.Session(auth=v3.Password(**kwargs))

    def admin_client(self):
        return ks_client.Client(session=self.session('admin', ADMIN_PASSWORD,
                                                     project_name='admin'))

    def demo_session(self):
        return self.session('demo', DEMO_PASSWORD, project_name='demo')

    def _create_heat_data(self, heat_api_port, heat_cfn_port):
        ks = self.admin_client()
        roles = {r.name: r for r in ks.roles.list()}
        for name in ('heat_stack_owner', 'heat_stack_user'):
            if name not in roles:
                roles[name] = ks.roles.create(name)
        default = ks.domains.get('default')
        service = ks.projects.create('service', default)
        heat = ks.users.create('heat', domain=default,
                               password=SERVICE_PASSWORD,
                               default_project=service)
        ks.roles.grant(roles['admin'], user=heat, project=service)
        for stype, name, url in (
                ('orchestration', 'heat',
                 'http://127.0.0.1:%d/v1/%%(tenant_id)s' % heat_api_port),
                ('cloudformation', 'heat-cfn',
                 'http://127.0.0.1:%d/v1' % heat_cfn_port)):
            svc = ks.services.create(name, type=stype)
            for interface in ('public', 'internal', 'admin'):
                ks.endpoints.create(svc, url, interface=interface,
                                    region='RegionOne')
        domain = ks.domains.create('heat', description='Heat stack users')
        self.heat_domain_id = domain.id
        domain_admin = ks.users.create('heat_domain_admin', domain=domain,
                                       password=DOMAIN_ADMIN_PASSWORD)
        ks.roles.grant(roles['admin'], user=domain_admin, domain=domain)
        demo_project = ks.projects.create('demo', default)
        demo = ks.users.create('demo', domain=default, password=DEMO_PASSWORD,
                               default_project=demo_project)
        for role in ('member', 'heat_stack_owner'):
            ks.roles.grant(roles[role], user=demo, project=demo_project)
        self.demo_project_id = demo_project.id

    def stop(self):
        if self.process is not None:
            self.process.stop()
            self.process = None
