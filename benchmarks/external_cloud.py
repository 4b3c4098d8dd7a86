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
"""The loopback cloud the ExternalResource parts run on.

heat_lifecycle_fixtures.cloud.Cloud: Keystone, MariaDB, RabbitMQ, Mistral
([notifier] type = local, loopback allowed), an unmodified heat-engine
with 2 workers, heat-api and heat-api-cfn, each a process of its own;
the in-tree type is registered beside ours (benchmarks/upstream_types.py);
Keystone caches as deployments run it (KEYSTONE_AS_DEPLOYED).
Around it, in the benchmark's process:

- a CountingProxy in front of Mistral, put in Keystone's catalog as
  `workflowv2` in Mistral's place: both types find Mistral there;
  Mistral's webhooks go to heat-api-cfn directly;
- a DelayServer that the workflows' std.http call waits on;
- the watchers of external_watch (Heat's events from its database,
  Mistral's log, the engine workers' threads).

Parts named together share one cloud (shared()), stopped when the run's
process ends. fallback: a shorter fallback poll period in seconds, for
the smoke run only (a plugin module sets the option in heat-engine);
None keeps the default.
"""

import atexit
import os

from benchmarks import external_servers as servers
from benchmarks import external_watch as watch
from benchmarks import harness
from heat_lifecycle_fixtures.cloud import Cloud

FALLBACK_PLUGIN = '''\
"""Benchmark only: the smoke run's shorter fallback poll period."""
from oslo_config import cfg

from heat_lifecycle_plugins import config

cfg.CONF.set_override('mistral_notified_poll_interval', %d,
                      group=config.GROUP.name)
'''

# Keystone's cache on, as devstack, kolla and openstack-ansible run it.
# In each Keystone process's memory here (no memcached on this machine):
# a lookup costs no round trip to memcached, so this is Keystone's best
# case; its workers do not share what they cache. Pickled, as memcached
# stores them: Keystone 2025.1 changes the credential it gets from the
# cache (pops encrypted_blob), so an unpickled one fails the next
# ec2tokens request for it (KeyError, HTTP 500).
KEYSTONE_AS_DEPLOYED = {'cache': {'enabled': True,
                                  'backend': 'dogpile.cache.memory_pickle'}}


class ExternalCloud(object):
    """The cloud, the proxy, the delay server and the watchers."""

    def __init__(self, workdir, fallback=None):
        self.workdir = workdir
        self.fallback = fallback
        self.cloud = None
        self.parts = []  # what stop() stops, last started first

    def start(self):
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self):
        if not Cloud.available():
            raise harness.BenchmarkError(
                'MariaDB or RabbitMQ is not installed: run '
                'tools/install-system-deps.sh')
        os.makedirs(self.workdir, exist_ok=True)
        cloud = Cloud(os.path.join(self.workdir, 'cloud'),
                      heat_plugins=self._plugins(),
                      keystone_options=KEYSTONE_AS_DEPLOYED)
        cloud.setUp()  # a failed setUp has cleaned up after itself
        self.cloud = cloud
        self.proxy = self._use(servers.CountingProxy(self.cloud.mistral.url))
        self.route_mistral(self.proxy.url)
        self.delays = self._use(servers.DelayServer())
        self.events = self._use(watch.HeatEvents(
            self.cloud.heat.settings['database']['connection']))
        self.threads = self._use(watch.EngineThreads(
            self.cloud.heat.engine.pid))
        self.mistral_log = watch.MistralLog(self.cloud.mistral.log_path)
        self.cfn_log = watch.CfnLog(self.cloud.heat.path('heat-api-cfn.log'))
        self.mistral = self.cloud.mistral_client()

    def _use(self, part):
        self.parts.append(part)
        return part.start()

    def _plugins(self):
        plugins = [harness.UPSTREAM_PLUGIN]
        if self.fallback:
            path = os.path.join(self.workdir, 'hlp_bench_fallback.py')
            with open(path, 'w') as f:
                f.write(FALLBACK_PLUGIN % self.fallback)
            plugins.append(path)
        return plugins

    def route_mistral(self, url):
        """Keystone's `workflowv2` endpoints at `url` (tokens made later)."""
        admin = self.cloud.keystone.admin_client()
        for service in admin.services.list():
            if service.type != 'workflowv2':
                continue
            for endpoint in admin.endpoints.list(service=service):
                admin.endpoints.update(endpoint, url=url)

    def heat(self):
        """python-heatclient as the demo user, a session of its own."""
        return self.cloud.heat_client()

    def cfn(self):
        """heat-api-cfn, as faults.outage stops and starts it."""
        return self.cloud.heat.part('heat-api-cfn')

    def stop(self):
        while self.parts:
            try:
                self.parts.pop().stop()
            except Exception:
                pass  # the rest still goes
        if self.cloud is not None:
            self.cloud.cleanUp()
            self.cloud = None


_SHARED = {}


def shared(workdir, fallback=None, log=None):
    """The run's cloud: started by its first part, kept for the next.

    One of another `fallback` replaces it. Stopped at exit.
    """
    known = _SHARED.get('cloud')
    if known is not None and known.fallback == fallback:
        return known
    stop_shared()
    if log is not None:
        log('  starting the loopback cloud (Keystone, MariaDB, RabbitMQ, '
            'Mistral, heat-engine x2, heat-api, heat-api-cfn)')
    _SHARED['cloud'] = ExternalCloud(workdir, fallback).start()
    return _SHARED['cloud']


def stop_shared():
    known = _SHARED.pop('cloud', None)
    if known is not None:
        known.stop()


atexit.register(stop_shared)
