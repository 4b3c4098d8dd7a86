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
"""The private Heat names the package uses, and their check.

CONTRACT declares each name beyond Heat's plugin API (see heat_internals)
with the signature it must have, the names its code must still use, the
Heat versions the form holds for and who uses it. contract_problems()
checks them on the installed Heat: tests/unit/test_heat_internals.py runs
it on every series and `heat-lifecycle-plugins check` reports it.
"""

import collections
import collections.abc
import importlib
import inspect

from heat_lifecycle_plugins import releases

# One internal name the package uses. target: 'module:Attr.path'.
# params: the signature (without return annotation) a callable must have;
# None: it must only exist. refers_to: names the target's code must still
# use (an override of ours only runs if Heat still calls it). since/until:
# the Heat versions [since, until) this form holds for. used: by whom, why.
Name = collections.namedtuple(
    'Name', 'target params refers_to since until used',
    defaults=(None, (), None, None, ''))

RESOURCE = 'heat.engine.resource:Resource'
STACK = 'heat.engine.stack:Stack'
IN_TREE_SOFTWARE_DEPLOYMENT = (
    'heat.engine.resources.openstack.heat.software_deployment:'
    'SoftwareDeployment')
IN_TREE_SOFTWARE_CONFIG = (
    'heat.engine.resources.openstack.heat.software_config:SoftwareConfig')
SD = IN_TREE_SOFTWARE_DEPLOYMENT + '.'
SC = IN_TREE_SOFTWARE_CONFIG + '.'
SD_USE = 'software_deployment.SoftwareDeployment'
SIGNALS_USE = 'deployment_signals (compare-and-swap of a signal)'
CALLERS_USE = 'signal_callers (who may signal a deployment)'
NOTICES_USE = ('execution_notices (one query for the notices of the checks '
               'waiting in a process)')


def _columns(model, names, used):
    return tuple(Name('heat.db.models:%s.%s' % (model, n), used=used)
                 for n in names)


CONTRACT = (
    # Underscore hooks of Resource that our types override.
    Name(RESOURCE + '._resolve_attribute', '(self, name)', used='every type'),
    Name(RESOURCE + '._resolve_any_attribute', '(self, attr)',
         refers_to=('_resolve_attribute',), used='every type'),
    Name(RESOURCE + '._show_resource', '(self)', used=SD_USE),
    Name(RESOURCE + '._needs_update',
         '(self, after, before, after_props, before_props, prev_resource, '
         'check_init_complete=True)',
         refers_to=('always_replace_on_check_failed', 'needs_replace_failed'),
         used='external_resource.ExternalResource (overridden; repairs a '
              'CHECK_FAILED resource in place); common.StorableErrors '
              '(overridden; its errors a storable ResourceFailure)'),
    Name(RESOURCE + '.update',
         refers_to=('_needs_update', '_prepare_update_props'),
         used='external_resource.ExternalResource; common.StorableErrors'),
    Name(RESOURCE + '._prepare_update_props', '(self, after, before)',
         used='common.StorableErrors (overridden; the new properties\' '
              'validation errors, storable)'),
    # Heat's Constraint calls these on a subclass (common.ProblemConstraint).
    Name('heat.engine.constraints:Constraint.__str__', refers_to=('_str',),
         used='common.ProblemConstraint'),
    Name('heat.engine.constraints:Constraint.__getitem__',
         refers_to=('_constraint',),
         used='common.ProblemConstraint'),

    # The in-tree SoftwareDeployment, which our type extends rather than
    # rewrites on SignalResponder: its module is the same from 24.1.2 to
    # 27.0.1, and a rewrite would still call as many private methods (of
    # SignalResponder) and copy the deploy_* protocol servers rely on.
    Name(IN_TREE_SOFTWARE_DEPLOYMENT, used=SD_USE + ' (base class)'),
    Name(SD + '_handle_action',
         '(self, action, config=None, prev_derived_config=None)',
         used=SD_USE + ' (overridden: what an action delivers)'),
    Name(SD + 'handle_create', '(self)', refers_to=('_handle_action',),
         used=SD_USE),
    Name(SD + 'handle_update', '(self, json_snippet, tmpl_diff, prop_diff)',
         refers_to=('_handle_action', '_build_derived_inputs'),
         used=SD_USE + ' (overridden, then called)'),
    Name(SD + 'handle_delete', '(self)', refers_to=('_handle_action',),
         used=SD_USE),
    Name(SD + 'handle_suspend', '(self)', refers_to=('_handle_action',),
         used=SD_USE),
    Name(SD + 'handle_resume', '(self)', refers_to=('_handle_action',),
         used=SD_USE),
    Name(SD + '_build_derived_inputs', '(self, action, source)',
         refers_to=('DEPLOY_SIGNAL_ID', '_get_ec2_signed_url'),
         used=SD_USE + ' (overridden: adds deploy_status_aware, signs '
                       'CFN_SIGNAL URLs without expiry)'),
    Name('heat.engine.resources.signal_responder:SignalResponder.'
         '_get_ec2_signed_url',
         "(self, signal_type='/signal', never_expire=False)",
         used=SD_USE + ' (CFN_SIGNAL URLs without expiry); '
                       'execution_notices (Mistral\'s webhook URL)'),
    Name('heat.engine.resources.stack_user:StackUser._delete_user',
         '(self)', refers_to=('_delete_keypair',),
         used='execution_notices (the signed URL\'s user goes with an '
              'ExternalResource)'),
    Name('heat.engine.resources.stack_user:StackUser._get_user_id',
         '(self)', used='execution_notices (overridden: no physical id '
                        'taken for a user id)'),
    Name('heat.engine.function:Function',
         used='common.came_at_run_time (a property value a function gives, '
              'known only at run time)'),
    Name('heat.db.api:resource_data_get', '(context, resource_id, key)',
         used='execution_notices (a notice written by another engine '
              'process)'),
    Name('heat.common.context:get_admin_context', '(show_deleted=False)',
         used=NOTICES_USE),
    Name('heat.db.models:ResourceData.key', used=NOTICES_USE),
    Name('heat.db.models:ResourceData.value', used=NOTICES_USE),
    Name('heat.db.models:ResourceData.resource_id', used=NOTICES_USE),
    Name('heat.policies:list_rules', '()',
         used='host_checks.check_policy (the defaults heat-api registers)'),
    Name(SD + 'validate', '(self)', used=SD_USE + ' (overridden, then '
                                                  'called)'),
    Name(SD + 'check_create_complete', '(self, sd)',
         used=SD_USE + ' (overridden: deadlines, then called)'),
    Name(SD + 'check_update_complete', '(self, sd)',
         used=SD_USE + ' (overridden: deadlines, then called)'),
    Name(SD + 'check_suspend_complete', '(self, sd)',
         used=SD_USE + ' (overridden: deadlines, then called)'),
    Name(SD + 'check_resume_complete', '(self, sd)',
         used=SD_USE + ' (overridden: deadlines, then called)'),
    Name(SD + '_build_derived_config_params', '(self, action, source)',
         refers_to=('_build_derived_inputs',), used=SD_USE),
    Name(SD + '_server_exists', '(self, sd)',
         used=SD_USE + ' (overridden, then called)'),
    Name(SD + 'check_delete_complete', '(self, sd=None)',
         refers_to=('_server_exists',), used=SD_USE),
    Name(SD + '_load_config', '(self, config_id=None)',
         used=SD_USE + ' (overridden: ids the database cannot hold, then '
         'called)'),
    Name(SD + '_build_properties', '(self, config_id, action)', used=SD_USE),
    Name(SD + '_create_derived_config', '(self, action, source_config)',
         used=SD_USE),
    Name(SD + '_get_derived_config_id', '(self)', used=SD_USE),
    Name(SD + '_delete_derived_config', '(self, derived_config_id)',
         used=SD_USE),
    Name(SD + '_signal_transport_none', '(self)', used=SD_USE),
    Name(SD + 'get_attribute', '(self, key, *path)', used=SD_USE),

    # Signals run in the engine's RPC call, never in a thread of the
    # stack's ThreadGroup (whose budget Heat 25.0-27.0 never frees):
    # resource_signal starts a thread only for a callable handle_signal;
    # ours has none and handles signals in Resource.signal's
    # _handle_signal, which adds the SIGNAL event as Heat's does.
    Name('heat.engine.service:EngineService.resource_signal',
         refers_to=('handle_signal', 'signal'),
         used=SD_USE + ' (handle_signal None: signals run in the call)'),
    Name(RESOURCE + '.signal', '(self, details=None, need_check=True)',
         refers_to=('_handle_signal',), used=SD_USE),
    Name(RESOURCE + '._handle_signal', '(self, details)',
         used=SD_USE + ' (overridden: how a signal is handled)'),
    Name(RESOURCE + '._add_event', '(self, action, status, reason)',
         used=SD_USE + ' (the SIGNAL event)'),

    # The in-tree SoftwareConfig, which our SoftwareComponent extends.
    Name(IN_TREE_SOFTWARE_CONFIG,
         used='software_component.SoftwareComponent (base class)'),
    Name(SC + 'properties_schema',
         used='software_component (inputs, outputs schemas)'),
    Name(SC + 'handle_create', '(self)',
         used='software_component (overridden)'),
    Name(SC + 'handle_delete', '(self)', used='software_component'),
    Name(SC + '_resolve_attribute', '(self, name)',
         used='software_component (overridden)'),

    # Heat's DB API and models.
    Name('heat.db.api:software_deployment_get', '(context, deployment_id)',
         used=SIGNALS_USE),
    Name('heat.db.api:context_manager', used=SIGNALS_USE),
    Name('heat.common.context:RequestContext.session', used=SIGNALS_USE),
    Name('heat.db.models:SoftwareConfig.config', used=SIGNALS_USE),
) + _columns('SoftwareDeployment',
             ('id', 'action', 'status', 'status_reason', 'config_id',
              'config', 'output_values', 'updated_at'), SIGNALS_USE) + (
    Name('heat.db.api:resource_get_by_physical_resource_id',
         '(context, physical_resource_id)',
         used=SD_USE + ' (does a DeployedServer still exist)'),
) + _columns('Resource', ('action', 'status'), SD_USE) + (
    # heat.objects and the engine's Stack.
    Name('heat.objects.stack:Stack.get_by_id',
         '(context, stack_id, **kwargs)',
         used='external_resource (was the stack operation cancelled)'),
    Name('heat.objects.stack:Stack.fields.status', used='external_resource'),
    Name('heat.objects.stack:Stack.fields.status_reason',
         used='external_resource'),
    Name('heat.objects.stack:Stack.fields.current_traversal',
         used='external_resource'),
    Name(STACK + '.__init__', refers_to=('convergence', 'current_traversal'),
         used='external_resource (stack.convergence, '
              'stack.current_traversal)'),
    # The engine's Stack as a resource sees it (self.stack): not a plugin
    # API class, so every attribute our code reads is declared.
    Name(STACK + '.__init__', refers_to=('strict_validate',),
         used='external_resource (validate: are workflows looked up)'),
    Name(STACK + '.__init__', refers_to=('id', 'name',
                                         'stack_user_project_id'),
         used='every type (names, the stack\'s domain project)'),
    Name(STACK + '.FAILED', used='external_resource (cancelled stack)'),
    Name(STACK + '.time_remaining', '(self)',
         used='external_resource (a told wait ends by the stack\'s timeout)'),
    Name(STACK + '.t', used='every type (the template, its files)'),
    Name(STACK + '.env', used='resource_chain (the nested environment)'),
    Name(STACK + '.resource_by_refid', '(self, refid)',
         used='software_deployment (the server of a deployment)'),

    # Engine service internals.
    Name('heat.common.config:get_client_option', '(client, option)',
         until=(25, 0, 0),
         used='clients (Mistral endpoint type, TLS options)'),
    Name('heat.common.config:get_client_option',
         '(client, option, fallback=True)', since=(25, 0, 0),
         used='clients (Mistral endpoint type, TLS options)'),
    Name('heat.engine.resources:initialise', '()',
         used='cli check (the global environment)'),
    Name('heat.engine.resources:global_env', '()',
         used='cli check (the global environment)'),
    Name('heat.engine.environment:Environment.get_class',
         '(self, resource_type, resource_name=None, files=None)',
         used='cli check (which class wins)'),
    Name('heat.engine.service:ThreadGroup.add_thread',
         '(self, func, *args, **kwargs)', refers_to=('threads', '_lock'),
         since=releases.THREADS_SINCE,
         used='forget_finished_threads (opt-in engine option, benchmarks)'),
    Name('heat.engine.service:ThreadGroup.add_thread',
         refers_to=('threads', 'max_threads'), since=releases.THREADS_SINCE,
         used='threads_spent (benchmarks, tests)'),
    Name('heat.engine.service:ThreadGroupManager.start',
         refers_to=('groups',), used='threads_spent (benchmarks, tests)'),
    Name('heat.common.context:StoredContext._load_keystone_data', '(self)',
         used='stored_context_without_keystone (benchmarks/signals.py)'),

    # Who sent a signal (signal_callers): resource_signal loads the stack
    # with its stored context; the stack's definition keeps the context
    # it was loaded with, the caller's.
    Name(STACK + '.__init__', refers_to=('stored_context', 'defn'),
         used=CALLERS_USE),
    Name('heat.engine.stk_defn:StackDefinition.__init__',
         refers_to=('_context',), used=CALLERS_USE),
    Name('heat.common.context:StoredContext', used=CALLERS_USE),
    Name('heat.engine.resources.stack_user:StackUser._get_user_id', '(self)',
         used=CALLERS_USE + ' (the deployment\'s own stack user)'),
)


def load(target):
    """The object 'module:Attr.path' names.

    A part of the path may be a key of a mapping; raises ImportError or
    AttributeError.
    """
    module, _, path = target.partition(':')
    obj = importlib.import_module(module)
    for part in path.split('.') if path else ():
        if isinstance(obj, collections.abc.Mapping):
            if part not in obj:
                raise AttributeError('no key %r' % part)
            obj = obj[part]
        else:
            obj = getattr(obj, part)
    return obj


def _signature(obj):
    sig = inspect.signature(obj)
    return str(sig.replace(return_annotation=inspect.Signature.empty))


def _referenced_names(obj):
    """Every name the code of a function refers to.

    Attributes and globals, and names spelled as strings
    (getattr(obj, 'name')).
    """
    code = getattr(inspect.unwrap(obj), '__code__', None)
    names, todo = set(), [code] if code else []
    while todo:
        code = todo.pop()
        names.update(code.co_names)
        names.update(c for c in code.co_consts
                     if isinstance(c, str) and c.isidentifier())
        todo.extend(c for c in code.co_consts if inspect.iscode(c))
    return names


def applies(name, version):
    return ((name.since is None or version >= name.since) and
            (name.until is None or version < name.until))


def name_problem(name):
    """What is wrong with one Name on the installed Heat, or None."""
    why = ' (used by %s)' % name.used if name.used else ''
    try:
        obj = load(name.target)
    except (ImportError, AttributeError) as exc:
        return '%s is missing: %s%s' % (name.target, exc, why)
    if name.params is not None:
        try:
            found = _signature(obj)
        except (TypeError, ValueError):
            found = 'no signature'
        if found != name.params:
            return '%s has signature %s, expected %s%s' % (
                name.target, found, name.params, why)
    lost = [n for n in name.refers_to if n not in _referenced_names(obj)]
    if lost:
        return '%s no longer refers to %s%s' % (
            name.target, ', '.join(lost), why)
    return None


def contract_problems(version=None):
    """One line per internal name that does not hold on the installed Heat.

    Empty: the boundary holds.
    """
    if version is None:
        version = releases.installed_heat_version()
    return [problem for problem in map(name_problem, (
        n for n in CONTRACT if applies(n, version))) if problem]


def declared_targets():
    """Every target the contract declares (any release)."""
    return {name.target for name in CONTRACT}
