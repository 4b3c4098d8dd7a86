"""A real Heat engine in this process, loading our types through plugin_dirs.

heat.engine.service.EngineService (convergence on, as in production) runs on
oslo.messaging's fake:// transport with a private MariaDB database (Heat's
convergence engine loses track of updates on sqlite); tests drive it through
Heat's own
RPC client, EngineClient, exactly as heat-api does. Nothing of the engine,
its RPC client or its database is mocked. Keystone is the one external
service replaced (by Heat's own FakeKeystoneClient) because stack
domain users are otherwise unavailable without a Keystone server.
"""

# heat.tests.common must be imported first: it selects the threading backend.
import heat.tests.common  # noqa: F401  isort:skip

import os
import time
import uuid

import yaml
from oslo_config import cfg

from heat.common import exception
from heat.common import messaging
from heat.db import api as db_api
from heat.db import models
from heat.engine.clients.os.keystone import KeystoneClientPlugin
from heat.engine import service
from heat.rpc import api as rpc_api
from heat.rpc import client as rpc_client
from heat.engine.clients.os.keystone import fake_keystoneclient
from heat.tests import utils

from heat_lifecycle_plugins import cli

TERMINAL = ('COMPLETE', 'FAILED')


class StackFailed(AssertionError):
    """A stack ended in another state than the one a test waited for."""


class InProcessEngine(object):
    """One engine for a whole test session (Heat's resource registry is
    global to the process, so it is built once)."""

    def __init__(self, workdir, db_url):
        self.workdir = workdir
        self.db_url = db_url
        self.plugin_dir = os.path.join(workdir, 'plugins')
        self.service = None
        self.client = None
        self.ctx = None

    def start(self):
        cli.install_loader(self.plugin_dir)
        empty_dir = os.path.join(self.workdir, 'empty')
        os.makedirs(empty_dir, exist_ok=True)
        cfg.CONF([], project='heat')
        overrides = {
            'plugin_dirs': [self.plugin_dir],
            'deferred_auth_method': 'password',
            'auth_encryption_key': 'a' * 32,
            'convergence_engine': True,
            'environment_dir': empty_dir,
            'template_dir': empty_dir,
            'error_wait_time': None,
            'periodic_interval': 3600,
        }
        for name, value in overrides.items():
            cfg.CONF.set_override(name, value)
        cfg.CONF.set_override('connection', self.db_url, group='database')
        models.BASE.metadata.create_all(db_api.get_engine())
        messaging.setup('fake://')
        KeystoneClientPlugin._create = (
            lambda plugin, version=None: fake_keystoneclient.FakeKeystoneClient(
                context=plugin.context))
        self.service = service.EngineService('inprocess-engine',
                                             rpc_api.ENGINE_TOPIC)
        self.service.start()
        self.client = rpc_client.EngineClient()
        self.ctx = utils.dummy_context(password='secret', user_id='test_user')
        return self

    def stop(self):
        if self.service is not None:
            self.service.stop()
            self.service = None

    # -- stacks -------------------------------------------------------------

    @staticmethod
    def _parse(template):
        return yaml.safe_load(template) if isinstance(template, str) \
            else template

    def create(self, template, name=None, params=None, files=None,
               environment=None, timeout_mins=None, wait=True,
               expect='COMPLETE'):
        args = {rpc_api.PARAM_TIMEOUT: timeout_mins} if timeout_mins else {}
        env = dict(environment or {})
        env.setdefault('parameters', {}).update(params or {})
        ident = self.client.create_stack(
            self.ctx, name or 'st-%s' % uuid.uuid4().hex[:8],
            self._parse(template), env, files or {}, args)
        if wait:
            self.wait(ident, 'CREATE', expect)
        return ident

    def update(self, ident, template, params=None, files=None,
               environment=None, wait=True, expect='COMPLETE', args=None):
        env = dict(environment or {})
        env.setdefault('parameters', {}).update(params or {})
        self.client.update_stack(self.ctx, ident, self._parse(template),
                                 env, files or {}, dict(args or {}))
        if wait:
            self.wait(ident, 'UPDATE', expect)
        return ident

    def suspend(self, ident, wait=True, expect='COMPLETE'):
        self.client.stack_suspend(self.ctx, ident)
        return self.wait(ident, 'SUSPEND', expect) if wait else None

    def resume(self, ident, wait=True, expect='COMPLETE'):
        self.client.stack_resume(self.ctx, ident)
        return self.wait(ident, 'RESUME', expect) if wait else None

    def check(self, ident, wait=True, expect='COMPLETE'):
        self.client.stack_check(self.ctx, ident)
        return self.wait(ident, 'CHECK', expect) if wait else None

    def cancel_update(self, ident):
        self.client.stack_cancel_update(self.ctx, ident,
                                        cancel_with_rollback=False)

    def delete(self, ident, wait=True, expect='COMPLETE'):
        self.client.delete_stack(self.ctx, ident, cast=False)
        return self.wait(ident, 'DELETE', expect) if wait else None

    def show(self, ident, resolve_outputs=True):
        return self.client.show_stack(self.ctx, ident,
                                      resolve_outputs=resolve_outputs)[0]

    def wait(self, ident, action, expect='COMPLETE', timeout=120):
        """Wait until the stack's `action` ends; assert it ended `expect`."""
        deadline = time.time() + timeout
        while True:
            try:
                stack = self.show(ident, resolve_outputs=False)
            except exception.EntityNotFound:
                if action == 'DELETE':
                    return {'stack_action': 'DELETE',
                            'stack_status': 'COMPLETE'}
                raise
            done = (stack['stack_action'] == action and
                    stack['stack_status'] in TERMINAL)
            if done:
                if expect and stack['stack_status'] != expect:
                    raise StackFailed('%s %s: %s' % (
                        action, stack['stack_status'],
                        stack['stack_status_reason']))
                return stack
            if time.time() > deadline:
                raise StackFailed('%s did not end in %ss: %s %s' % (
                    action, timeout, stack['stack_action'],
                    stack['stack_status']))
            time.sleep(0.1)

    def validate(self, template, params=None, files=None, environment=None):
        """Heat's validate_template; the error message, or None if valid."""
        env = dict(environment or {})
        env.setdefault('parameters', {}).update(params or {})
        try:
            result = self.client.validate_template(
                self.ctx, self._parse(template), env, files=files or {})
        except Exception as exc:
            return str(exc)
        return result.get('Error') if isinstance(result, dict) else None

    def outputs(self, ident):
        return {o['output_key']: o.get('output_value')
                for o in self.show(ident).get('outputs') or []}

    # -- resources and events -----------------------------------------------

    def resources(self, ident, nested_depth=0):
        return self.client.list_stack_resources(self.ctx, ident,
                                                nested_depth=nested_depth)

    def resource(self, ident, name, with_attr=None):
        return self.client.describe_stack_resource(self.ctx, ident, name,
                                                   with_attr=with_attr)

    def physical_ids(self, ident, nested_depth=0):
        return {r['resource_name']: r['physical_resource_id']
                for r in self.resources(ident, nested_depth)}

    def events(self, ident, resource_name=None, nested_depth=None):
        filters = {'resource_name': resource_name} if resource_name else None
        return self.client.list_events(self.ctx, ident, filters=filters,
                                       sort_keys=['created_at'],
                                       sort_dir='asc',
                                       nested_depth=nested_depth)

    def signal(self, ident, resource_name, details, sync=True):
        return self.client.resource_signal(self.ctx, ident, resource_name,
                                           details, sync_call=sync)
