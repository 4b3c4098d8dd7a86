"""The in-instance side of an OS::Heat::DeployedServer, run on this machine.

Reads the server's `os_collect_config` attribute (the credentials Heat made
for it) and starts the real os-collect-config polling Heat with them; its
command is tests/services/refresh_config.py, which hands the deployments to
our heat-lifecycle-agent. The agent runs real scripts and signals back
through Heat. Stopped by its own PID.
"""

import importlib.util
import os
import sys
import time

from tests.services import procs

# A DeployedServer in a stack of its own, for templates that take a server
# id as a parameter (examples/agent.yaml).
SERVER_STACK = """
heat_template_version: 2016-04-08
description: A server whose in-instance side runs heat-lifecycle-agent.
resources:
  server:
    type: OS::Heat::DeployedServer
    properties:
      software_config_transport: POLL_SERVER_HEAT
outputs:
  id:
    value: {get_resource: server}
"""


class DeployedServerAgent(object):
    def __init__(self, workdir, heat_client, stack_id, resource_name,
                 hook_timeout=120):
        self.workdir = workdir
        self.heat_client = heat_client
        self.stack_id = stack_id
        self.resource_name = resource_name
        self.hook_timeout = hook_timeout
        self.process = None

    @property
    def log_path(self):
        return os.path.join(self.workdir, 'os-collect-config.log')

    def credentials(self, timeout=120):
        """The server's os_collect_config['heat'], once Heat has made it."""
        deadline = time.time() + timeout
        while True:
            try:
                res = self.heat_client.resources.get(
                    self.stack_id, self.resource_name,
                    with_attr=['os_collect_config'])
                occ = res.attributes.get('os_collect_config') or {}
                if occ.get('heat', {}).get('password'):
                    return occ['heat']
            except Exception:
                if time.time() > deadline:
                    raise
            if time.time() > deadline:
                raise RuntimeError('%s has no os_collect_config heat '
                                   'credentials after %ss'
                                   % (self.resource_name, timeout))
            time.sleep(0.5)

    def _write_conf(self, heat):
        conf = os.path.join(self.workdir, 'os-collect-config.conf')
        cache = os.path.join(self.workdir, 'cache')
        command = ' '.join([
            sys.executable, '-m', 'tests.services.refresh_config',
            '--hook-timeout', str(self.hook_timeout), '--debug'])
        with open(conf, 'w') as f:
            f.write(
                '[DEFAULT]\ncommand = %(command)s\ncollectors = heat\n'
                'cachedir = %(cache)s\nbackup_cachedir = %(cache)s.bak\n'
                'polling_interval = 1\nmin_polling_interval = 1\n'
                '[keystone]\ncache_dir = %(cache)s-keystone\n'
                '[heat]\nauth_url = %(auth_url)s\nuser_id = %(user_id)s\n'
                'password = %(password)s\nproject_id = %(project_id)s\n'
                'stack_id = %(stack_id)s\nresource_name = %(resource)s\n'
                % dict(command=command, cache=cache,
                       auth_url=heat['auth_url'], user_id=heat['user_id'],
                       password=heat['password'],
                       project_id=heat['project_id'],
                       stack_id=heat['stack_id'],
                       resource=heat['resource_name']))
        return conf

    def start(self):
        if importlib.util.find_spec('heat_lifecycle_plugins.agent') is None:
            raise RuntimeError('heat_lifecycle_plugins.agent (the '
                               'heat-lifecycle-agent command) is not in this '
                               'tree: a DeployedServer cannot be run')
        os.makedirs(self.workdir, exist_ok=True)
        conf = self._write_conf(self.credentials())
        state = os.path.join(self.workdir, 'heat-config')
        env = procs.repo_env(
            HEAT_SHELL_CONFIG=os.path.join(state, 'heat-config'),
            HEAT_CONFIG_DEPLOYED=os.path.join(state, 'deployed'))
        self.process = procs.Process(
            'os-collect-config',
            [sys.executable, '-c',
             'import sys; from os_collect_config.collect import main; '
             'sys.argv[0] = "os-collect-config"; sys.exit(main(sys.argv))',
             '--config-file', conf],
            self.log_path, env=env, cwd=procs.REPO)
        return self

    def log_tail(self, chars=6000):
        return self.process.log_tail(chars) if self.process else ''

    def stop(self):
        if self.process is not None:
            self.process.stop()
            self.process = None
