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
"""The one place the package touches Heat beyond its plugin API.

Heat's plugin API, which any module of the package may use:

* the public names of the modules in PLUGIN_API_MODULES: Resource and its
  handle_*, check_*_complete, validate* and signal hooks, properties,
  attributes, constraints, support status, StackResource,
  SignalResponder, the software-config I/O schema, client plugins,
  exceptions, i18n and the constants of the engine RPC API;
* what those hand a resource at run time: self.context, self.rpc_client()
  (the engine's versioned RPC API, shared with heat-api),
  self.client_plugin(), and the resource's stack as plugins see it (id,
  name, t, env, identifier(), resource_by_refid(), stack_user_project_id).

Everything else is internal and named in heat_contract.CONTRACT: Heat's
DB API and
models, heat.objects, engine service internals, the in-tree classes two of
our types extend, attributes of the engine's Stack, and every name that
starts with an underscore, even on a plugin-API class (Heat may change
those in any release). Per-release differences are handled here.
`heat_contract.contract_problems()` checks on the installed Heat that each
name exists
with the expected signature (tests/unit/test_heat_internals.py runs it on
every series; `heat-lifecycle-plugins check` reports it).

The loopback-cloud fixtures (heat_lifecycle_fixtures) are outside
this rule: they do not plug into Heat, they run it (heat-engine, heat-api,
db_sync, an in-process EngineService for the functional tier) through its
service entry points, as an operator's deployment tool would.

heat_contract is the lower layer: this module loads the in-tree classes
through it, and it imports nothing of ours but releases
(tests/unit/test_import_graph.py keeps the package free of import circles).

Nothing here imports Heat at module level: tests and commands call
select_engine_runtime() first, as heat-engine does.
"""

import collections

from heat_lifecycle_plugins import heat_contract
from heat_lifecycle_plugins import releases

# Modules of Heat's plugin API (see above): the only heat imports allowed
# outside this module.
PLUGIN_API_MODULES = (
    'heat.common.exception', 'heat.common.i18n', 'heat.engine.attributes',
    'heat.engine.clients', 'heat.engine.constraints',
    'heat.engine.properties', 'heat.engine.resource',
    'heat.engine.resources.signal_responder',
    'heat.engine.resources.stack_resource',
    'heat.engine.software_config_io', 'heat.engine.support', 'heat.rpc.api',
)


def heat_version():
    """The installed openstack-heat version as a tuple of 3 ints."""
    return releases.installed_heat_version()


def engine_uses_eventlet():
    return releases.engine_of(heat_version()) == releases.EVENTLET


def select_engine_runtime():
    """Select the concurrency model heat-engine of this release uses.

    For a process that runs Heat's engine in-process (tests, benchmarks)
    or builds its environment (the check command): heat-engine
    monkey-patches eventlet (up to 24.x) or selects oslo.service's
    threading backend (25.0 on) before importing the rest of Heat.
    Idempotent.
    """
    if engine_uses_eventlet():
        import eventlet
        eventlet.monkey_patch()
    else:
        from oslo_service import backend
        backend.init_backend(backend.BackendType.THREADING)


def in_tree_software_deployment():
    """Heat's in-tree SoftwareDeployment class, which ours extends."""
    return heat_contract.load(heat_contract.IN_TREE_SOFTWARE_DEPLOYMENT)


def in_tree_software_config():
    """Heat's in-tree SoftwareConfig, which SoftwareComponent extends."""
    return heat_contract.load(heat_contract.IN_TREE_SOFTWARE_CONFIG)


# -- DB API, models and objects ----------------------------------------------

DeploymentRow = collections.namedtuple(
    'DeploymentRow', 'id action status config_id config output_values '
                     'status_reason updated_at')

StoredStack = collections.namedtuple(
    'StoredStack', 'status status_reason current_traversal')


def software_deployment_row(context, deployment_id):
    """A deployment as stored, with its config's stored `config` map.

    Raises heat.common.exception.NotFound if there is none.
    """
    from heat.db import api as db_api
    sd = db_api.software_deployment_get(context, deployment_id)
    return DeploymentRow(sd.id, sd.action, sd.status, sd.config_id,
                         sd.config.config or {}, dict(sd.output_values or {}),
                         sd.status_reason, sd.updated_at)


def update_software_deployment_where(context, deployment_id, expected,
                                     values):
    """Compare-and-swap one deployment; rows changed, 0 or 1.

    UPDATE the deployment SET values WHERE each column of `expected` still
    holds its value.
    """
    from heat.db import api as db_api
    from heat.db import models
    with db_api.context_manager.writer.using(context):
        return context.session.query(models.SoftwareDeployment).filter_by(
            id=deployment_id, **expected).update(
                values, synchronize_session=False)


def resource_state_by_physical_id(context, physical_id):
    """(action, status) of the resource with that physical id, or None."""
    from heat.db import api as db_api
    row = db_api.resource_get_by_physical_resource_id(context, physical_id)
    return None if row is None else (row.action, row.status)


def is_function(value):
    """Whether a raw property value is an unresolved template function."""
    from heat.engine import function
    return isinstance(value, function.Function)


def resource_data_value(resource, key):
    """The resource's data `key` as stored now, or None.

    Resource.data() keeps what it read first; a signal handled in another
    engine process writes the database only.
    """
    from heat.common import exception
    from heat.db import api as db_api
    try:
        return db_api.resource_data_get(resource.context, resource.id, key)
    except exception.NotFound:
        return None


def resource_data_values(key, resource_ids):
    """{resource id: its data `key`} of those of `resource_ids` that have it.

    One query, as an admin (the notices of the checks of every tenant
    waiting in this process). For data written unredacted.
    """
    from heat.common import context
    from heat.db import api as db_api
    from heat.db import models
    admin = context.get_admin_context()
    data = models.ResourceData
    with db_api.context_manager.reader.using(admin):
        rows = admin.session.query(data.resource_id, data.value).filter(
            data.key == key, data.resource_id.in_(resource_ids)).all()
    return {resource_id: value for resource_id, value in rows}


def stored_stack(context, stack_id):
    """The stack's row as stored now (StoredStack), or None."""
    from heat.objects import stack as stack_object
    row = stack_object.Stack.get_by_id(context, stack_id)
    if row is None:
        return None
    return StoredStack(row.status, row.status_reason, row.current_traversal)


# -- who sent a signal --------------------------------------------------------

def signal_caller(resource):
    """The request context of the signal `resource` is handling, or None.

    EngineService.resource_signal loads the stack with its stored context
    (the stack owner's credentials), so resource.context is not the
    caller's; the stack's definition keeps the context the stack was
    loaded with, the request's. oslo.context's current context is no
    witness: Heat 24.x makes the stored context current.
    """
    from heat.common import context as heat_context
    caller = resource.stack.defn._context
    if isinstance(caller, heat_context.StoredContext):
        return None
    return caller


def stack_user_id(resource):
    """The id of the resource's own stack user (Keystone), or None."""
    return resource._get_user_id()


# -- engine service internals ------------------------------------------------

def global_environment(config_file=None):
    """Heat's global resource environment, built as heat-engine builds it.

    From plugin_dirs and environment_dir of config_file, or of Heat's default
    configuration files.
    """
    from heat.common import config as heat_config  # noqa: F401 (options)
    from heat.engine import resources
    from oslo_config import cfg
    args = ['--config-file', config_file] if config_file else []
    cfg.CONF(args, project='heat', prog='heat-engine')
    resources.initialise()
    return resources.global_env()


def policy_defaults():
    """The policy rules heat-api registers as its defaults."""
    from heat import policies
    return policies.list_rules()


def client_option(client, option):
    """A [clients_<client>] option of heat.conf, [clients] as fallback."""
    from heat.common import config as heat_config
    return heat_config.get_client_option(client, option)


def stored_context_without_keystone():
    """Stored contexts answer their roles and domains without Keystone.

    For an in-process engine with no Keystone (benchmarks): Heat loads a
    stack's stored context's roles and domains from Keystone when the
    context is serialized, e.g. for the RPC call of the in-tree
    deployment's asynchronous signal. Heat's FakeKeystoneClient stands in
    for every other Keystone call of such an engine.
    """
    from heat.common import context

    def load_keystone_data(self):
        self._keystone_loaded = True
        self.roles = []
        self.user_domain_id = self.project_domain_id = 'default'
    context.StoredContext._load_keystone_data = load_keystone_data


def forget_finished_threads():
    """Make heat-engine's per-stack thread groups drop finished threads.

    They drop them before adding one (Heat 25.0 on). Heat's ThreadGroup
    keeps every thread it started and refuses a new one at 1000 per stack;
    this changes engine behaviour for every stack of the process, so only
    the opt-in option [heat_lifecycle_plugins] forget_finished_threads and
    the benchmarks call it. Returns True if the engine forgets finished
    threads now; False for 24.x, whose eventlet groups are pools that free
    their slots anyway.
    """
    if heat_version() < releases.THREADS_SINCE:
        return False
    from heat.engine import service
    original = service.ThreadGroup.add_thread
    if getattr(original, 'forgets_finished', False):
        return True

    def add_thread(self, func, *args, **kwargs):
        with self._lock:
            self.threads = [t for t in self.threads if t.is_alive()]
        return original(self, func, *args, **kwargs)
    add_thread.forgets_finished = True
    service.ThreadGroup.add_thread = add_thread
    return True


def has_thread_budget():
    """Whether heat-engine gives each stack a thread budget (25.0 on)."""
    return heat_version() >= releases.THREADS_SINCE


def threads_spent(engine_service):
    """{stack id: (threads spent, thread budget)} in this engine.

    Heat 25.0 on: each stack's ThreadGroup keeps every thread it started
    and refuses one past its budget, so an operation of a stack that spent
    it waits forever. Empty on 24.x (eventlet pools free their threads).
    """
    if not has_thread_budget():
        return {}
    groups = dict(engine_service.thread_group_mgr.groups)
    return {stack_id: (len(group.threads), group.max_threads)
            for stack_id, group in groups.items()}


def spent_thread_budgets(engine_service):
    """Ids of the stacks that have no thread left in this engine."""
    return [stack_id for stack_id, (spent, budget) in
            threads_spent(engine_service).items() if spent >= budget]
