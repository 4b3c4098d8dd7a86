"""OS::Mistral::ExternalResource: a resource whose actions are workflows.

A drop-in for Heat's in-tree type of the same name, whose actions are
Mistral workflows.

The class starts and polls executions; what a finished execution means
(outputs, physical id, failure) is decided in execution_results, and the
class applies that Outcome.
"""

import time

from heat.common import exception
from heat.common.i18n import _
from heat.engine import attributes
from heat.engine import constraints
from heat.engine import properties
from heat.engine import resource
from heat.engine import support
from oslo_config import cfg
from oslo_log import log as logging
from oslo_serialization import jsonutils

from heat_lifecycle_plugins import config
from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import mistral_client
from heat_lifecycle_plugins.resources import execution_results as results

LOG = logging.getLogger(__name__)

# Resource data key of the merged outputs (the in-tree type's key, so stacks
# created with it keep their outputs).
OUTPUTS_DATA_KEY = 'outputs'
CHECK_BUDGET = 0.9  # seconds one check_*_complete call may spend polling
# Registered in Heat's heat.constraints entry-point group (setup.cfg).
WORKFLOW_CONSTRAINT = 'heat_lifecycle_plugins.mistral_workflow'


class WorkflowFailed(exception.Error):
    """A Mistral execution ended in ERROR or CANCELLED."""


class BadWorkflowResult(exception.Error):
    """A workflow returned outputs Heat cannot use."""


class ActionCancelled(exception.Error):
    """The stack operation was cancelled while an execution ran."""


FAILURES = {results.WORKFLOW_FAILED: WorkflowFailed,
            results.BAD_RESULT: BadWorkflowResult}


class MistralWorkflowConstraint(object):
    """Heat custom constraint: the value names an existing Mistral workflow.

    Checked by Heat wherever property values are validated (template
    validate, stack create and update), except for values that come from
    resources not created yet.
    """

    message = _('Value must be the name or id of an existing Mistral '
                'workflow')

    def __init__(self):
        self._problem = None

    def validate(self, value, context):
        try:
            client = mistral_client.MistralClient(context)
            if client.workflow_exists(value):
                return True
            self._problem = ('workflow "%s" does not exist in Mistral at %s'
                             % (value, client.endpoint))
        except mistral_client.MistralError as exc:
            self._problem = 'cannot check workflow "%s": %s' % (value, exc)
        return False

    def error(self, value):
        return self._problem or 'workflow "%s" is not valid' % value


class ExternalResource(resource.Resource):
    """A resource managed by user-defined Mistral workflows.

    Each Heat action (CREATE, UPDATE, DELETE, SUSPEND, RESUME) may name a
    workflow; the action starts one execution of it and waits for it. The
    outputs of every successful execution are merged into the resource's
    outputs (attribute ``output``); an output named ``resource_id`` becomes
    the physical id. Every execution after CREATE receives the current
    outputs in its environment as ``heat_extresource_data``; UPDATE also
    receives the previous input as ``heat_extresource_previous_input``.
    """

    support_status = support.SupportStatus(version='9.0.0')

    _ACTION_KEYS = (WORKFLOW, PARAMS) = ('workflow', 'params')

    PROPERTIES = (
        EX_ACTIONS, INPUT, DESCRIPTION, REPLACE_ON_CHANGE, ALWAYS_UPDATE,
    ) = (
        'actions', 'input', 'description', 'replace_on_change_inputs',
        'always_update',
    )

    ATTRIBUTES = (OUTPUT,) = ('output',)

    WORKFLOW_ACTIONS = (resource.Resource.CREATE, resource.Resource.UPDATE,
                        resource.Resource.DELETE, resource.Resource.SUSPEND,
                        resource.Resource.RESUME)

    _action_schema = properties.Schema(
        properties.Schema.MAP,
        _('The workflow to run for this action and its execution params.'),
        schema={
            WORKFLOW: properties.Schema(
                properties.Schema.STRING,
                _('Name or id of the Mistral workflow to execute.'),
                required=True,
                constraints=[constraints.CustomConstraint(
                    WORKFLOW_CONSTRAINT)],
            ),
            PARAMS: properties.Schema(
                properties.Schema.MAP,
                _('Execution params for Mistral (e.g. env, a map; task_name '
                  'for reverse workflows).'),
                default={},
            ),
        },
        update_allowed=True,
    )

    properties_schema = {
        EX_ACTIONS: properties.Schema(
            properties.Schema.MAP,
            _('Resource actions that run a workflow: any of CREATE, '
              'UPDATE, DELETE, SUSPEND and RESUME.'),
            schema=dict(zip(WORKFLOW_ACTIONS,
                            [_action_schema] * len(WORKFLOW_ACTIONS))),
            required=True,
            update_allowed=True,
        ),
        INPUT: properties.Schema(
            properties.Schema.MAP,
            _('Input of the workflows.'),
            default={},
            update_allowed=True,
        ),
        DESCRIPTION: properties.Schema(
            properties.Schema.STRING,
            _('Description of the workflow executions.'),
            default='Heat managed',
            update_allowed=True,
        ),
        REPLACE_ON_CHANGE: properties.Schema(
            properties.Schema.LIST,
            _('Names of inputs whose change replaces the resource (CREATE '
              'on the new one, then DELETE on the old one) instead of '
              'running UPDATE.'),
            default=[],
            update_allowed=True,
        ),
        ALWAYS_UPDATE: properties.Schema(
            properties.Schema.BOOLEAN,
            _('Run the UPDATE workflow on every stack update, even when the '
              'input is unchanged. A FAILED resource is still replaced.'),
            default=False,
            update_allowed=True,
        ),
    }

    attributes_schema = {
        OUTPUT: attributes.Schema(
            _('The merged outputs of the workflow executions, a map.'),
            type=attributes.Schema.MAP,
        ),
    }

    # -- helpers -----------------------------------------------------------

    def _mistral(self):
        return mistral_client.MistralClient(self.context)

    def _outputs(self):
        stored = self.data().get(OUTPUTS_DATA_KEY)
        return jsonutils.loads(stored) if stored else {}

    def _held(self):
        return results.Held(self.resource_id, self._outputs())

    def _path(self, *keys):
        return [self.stack.t.get_section_name('resources'), self.name,
                'properties'] + list(keys)

    def _action_spec(self, action, props=None):
        props = self.properties if props is None else props
        return (props[self.EX_ACTIONS] or {}).get(action)

    def _start(self, action, props=None, extra_env=None):
        """Start the action's execution; its Run, None if no workflow."""
        props = self.properties if props is None else props
        spec = self._action_spec(action, props)
        if not spec:
            return None
        workflow = spec[self.WORKFLOW]
        params = results.execution_params(action, spec[self.PARAMS],
                                          self._outputs(), extra_env)
        client = self._mistral()
        try:
            execution_id = client.start_execution(
                workflow, props[self.INPUT] or {}, props[self.DESCRIPTION],
                params)
        except mistral_client.MistralError as exc:
            if (exc.status is not None and
                    not isinstance(exc, mistral_client.MistralUnreachable)
                    and not client.workflow_exists(workflow)):
                raise exception.Error(
                    'workflow "%s" of actions.%s does not exist in Mistral '
                    'at %s' % (workflow, action, client.endpoint))
            raise
        LOG.info('%(res)s: %(action)s started Mistral execution %(id)s of '
                 'workflow %(wf)s', {'res': self, 'action': action,
                                     'id': execution_id, 'wf': workflow})
        return results.Run(action, workflow, execution_id)

    def _apply(self, outcome):
        """Hold its physical id, store its outputs, raise its failure.

        The outputs take one database write; the physical id is only set in
        memory: the state change that ends the action stores it.
        """
        self.resource_id = outcome.physical_id
        if outcome.outputs is not None:
            self.data_set(OUTPUTS_DATA_KEY, jsonutils.dumps(outcome.outputs))
        if outcome.failure is not None:
            raise FAILURES[outcome.failure.kind](outcome.failure.reason)

    def _check(self, run):
        """Poll the execution for up to CHECK_BUDGET seconds; True if done."""
        if not run:
            return True
        try:
            return self._poll(run)
        except resource.PollDelay:
            raise  # still running
        except Exception:
            # An execution that ran (its result unread: Mistral gone, the
            # stack cancelled) still holds the CREATE id for DELETE.
            self.resource_id = results.held_id(run, self.resource_id)
            raise

    def _poll(self, run):
        self._fail_if_stack_cancelled(run)
        client = self._mistral()
        interval = cfg.CONF[config.GROUP.name].mistral_poll_interval
        give_up = time.monotonic() + CHECK_BUDGET
        while True:
            execution = client.execution(run.execution_id)
            if not results.is_running(execution.state):
                tasks = (self._tasks(client, run)
                         if results.needs_tasks(execution.state) else ())
                self._apply(results.interpret(run, self._held(), execution,
                                              tasks))
                return True
            if interval >= 2:
                raise resource.PollDelay(int(interval))
            if time.monotonic() + interval > give_up:
                return False
            time.sleep(interval)

    def _tasks(self, client, run):
        """The execution's tasks; none if Mistral cannot list them."""
        try:
            return client.tasks(run.execution_id)
        except mistral_client.MistralError as exc:
            LOG.warning('%s: could not read the tasks of execution %s: %s',
                        self, run.execution_id, exc)
            return ()

    def _cancel_execution(self, run, why):
        """Cancel the running execution in Mistral, keep its partial result."""
        if not run:
            return
        client = self._mistral()
        try:
            if client.cancel_execution(run.execution_id, why):
                LOG.info('%(res)s: cancelled Mistral execution %(id)s: '
                         '%(why)s', {'res': self, 'id': run.execution_id,
                                     'why': why})
        except mistral_client.MistralError as exc:
            LOG.error('%(res)s: could not cancel Mistral execution %(id)s: '
                      '%(error)s', {'res': self, 'id': run.execution_id,
                                    'error': exc})
        self._apply(results.partial(run, self._held(),
                                    self._tasks(client, run)))

    def _fail_if_stack_cancelled(self, run):
        """Cancel the execution if the stack operation was cancelled.

        A convergence stack cancel (or a delete) only stops the traversal,
        marking the stack FAILED; the resource is never told. So compare the
        stack's traversal with ours.
        """
        if not self.stack.convergence or not self.stack.current_traversal:
            return
        row = heat_internals.stored_stack(self.context, self.stack.id)
        if (row is None or
                row.current_traversal == self.stack.current_traversal or
                row.status != self.stack.FAILED):
            return
        why = 'Heat stack %s: %s' % (self.stack.name, row.status_reason)
        self._cancel_execution(run, why)
        raise ActionCancelled('Mistral execution %s of workflow %s was '
                              'cancelled: %s' % (run.execution_id,
                                                 run.workflow,
                                                 row.status_reason))

    # -- validation --------------------------------------------------------

    def validate(self):
        super(ExternalResource, self).validate()
        actions = self.properties[self.EX_ACTIONS] or {}
        for action in self.WORKFLOW_ACTIONS:
            params = (actions.get(action) or {}).get(self.PARAMS) or {}
            env = params.get(results.ENV)
            if env is not None and not isinstance(env, dict):
                raise exception.StackValidationFailed(
                    path=self._path(self.EX_ACTIONS, action, self.PARAMS,
                                    results.ENV),
                    message='must be a map of environment variables, not '
                            '%s' % results.clip(jsonutils.dumps(env), 100))

    # -- update decisions --------------------------------------------------

    def _needs_update(self, after, before, after_props, before_props,
                      prev_resource, check_init_complete=True):
        old_input = before_props[self.INPUT] or {}
        new_input = after_props[self.INPUT] or {}
        for name in after_props[self.REPLACE_ON_CHANGE] or []:
            if old_input.get(name) != new_input.get(name):
                LOG.info('%(res)s: input %(name)s changed; replacing',
                         {'res': self, 'name': name})
                raise resource.UpdateReplace(self)
        # Heat's own rules first: a FAILED resource is replaced, never
        # "repaired" by the UPDATE workflow.
        changed = super(ExternalResource, self)._needs_update(
            after, before, after_props, before_props, prev_resource,
            check_init_complete)
        return changed or bool(after_props[self.ALWAYS_UPDATE])

    # -- actions -----------------------------------------------------------

    def handle_create(self):
        return self._start(self.CREATE)

    def check_create_complete(self, run):
        return self._check(run)

    def handle_create_cancel(self, run):
        self._cancel_execution(run, 'Heat cancelled CREATE of %s' % self)

    def handle_update(self, json_snippet, tmpl_diff, prop_diff):
        new_props = json_snippet.properties(self.properties_schema,
                                            self.context)
        if self.INPUT not in prop_diff and not new_props[self.ALWAYS_UPDATE]:
            return None  # only settings changed: nothing to tell Mistral
        return self._start(self.UPDATE, new_props, extra_env={
            results.ENV_PREVIOUS_INPUT: self.properties[self.INPUT] or {}})

    def check_update_complete(self, run):
        return self._check(run)

    def handle_update_cancel(self, run):
        self._cancel_execution(run, 'Heat cancelled UPDATE of %s' % self)

    def handle_suspend(self):
        return self._start(self.SUSPEND)

    def check_suspend_complete(self, run):
        return self._check(run)

    def handle_suspend_cancel(self, run):
        self._cancel_execution(run, 'Heat cancelled SUSPEND of %s' % self)

    def handle_resume(self):
        return self._start(self.RESUME)

    def check_resume_complete(self, run):
        return self._check(run)

    def handle_resume_cancel(self, run):
        self._cancel_execution(run, 'Heat cancelled RESUME of %s' % self)

    def handle_delete(self):
        if not results.runs_delete(bool(self._action_spec(self.CREATE)),
                                   self._held()):
            return None  # the CREATE workflow never ran: nothing to clean
        return self._start(self.DELETE)

    def check_delete_complete(self, run):
        return self._check(run)

    def handle_delete_cancel(self, run):
        self._cancel_execution(run, 'Heat cancelled DELETE of %s' % self)

    def _resolve_attribute(self, name):
        if name == self.OUTPUT:
            return self._outputs()
