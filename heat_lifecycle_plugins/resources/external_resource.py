"""OS::Mistral::ExternalResource: a resource whose actions are Mistral
workflows (drop-in for Heat's in-tree type of the same name)."""

import time

from heat.common import exception
from heat.common.i18n import _
from heat.engine import attributes
from heat.engine import constraints
from heat.engine import properties
from heat.engine import resource
from heat.engine import support
from heat.objects import stack as stack_object
from oslo_config import cfg
from oslo_log import log as logging
from oslo_serialization import jsonutils

from heat_lifecycle_plugins import config
from heat_lifecycle_plugins import mistral_client

LOG = logging.getLogger(__name__)

# Keys of the Mistral environment an execution receives.
ENV_DATA = 'heat_extresource_data'
ENV_PREVIOUS_INPUT = 'heat_extresource_previous_input'
# Resource data key of the merged outputs (the in-tree type's key, so stacks
# created with it keep their outputs).
OUTPUTS_DATA_KEY = 'outputs'
MAX_PHYSICAL_ID = 255  # Heat's physical_resource_id column
MAX_REASON_PART = 600  # Mistral's state_info can hold whole tracebacks
CHECK_BUDGET = 0.9  # seconds one check_*_complete call may spend polling
# Registered in Heat's heat.constraints entry-point group (setup.cfg).
WORKFLOW_CONSTRAINT = 'heat_lifecycle_plugins.mistral_workflow'


class WorkflowFailed(exception.Error):
    """A Mistral execution ended in ERROR or CANCELLED."""


class BadWorkflowResult(exception.Error):
    """A workflow returned outputs Heat cannot use."""


class ActionCancelled(exception.Error):
    """The stack operation was cancelled while an execution ran."""


def _clip(text, limit=MAX_REASON_PART):
    text = str(text).strip()
    return text if len(text) <= limit else text[:limit] + '...'


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

    def _path(self, *keys):
        return [self.stack.t.get_section_name('resources'), self.name,
                'properties'] + list(keys)

    def _action_spec(self, action, props=None):
        props = self.properties if props is None else props
        return (props[self.EX_ACTIONS] or {}).get(action)

    def _start(self, action, props=None, extra_env=None):
        """Start the action's execution; handler data, None if no workflow."""
        props = self.properties if props is None else props
        spec = self._action_spec(action, props)
        if not spec:
            return None
        workflow = spec[self.WORKFLOW]
        params = dict(spec[self.PARAMS] or {})
        if action != self.CREATE:
            env = dict(params.get('env') or {})
            env[ENV_DATA] = self._outputs()
            env.update(extra_env or {})
            params['env'] = env
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
        return {'action': action, 'workflow': workflow, 'id': execution_id}

    def _check(self, handle):
        """Poll the execution for up to CHECK_BUDGET seconds; True if done."""
        if not handle:
            return True
        try:
            return self._poll(handle)
        except resource.PollDelay:
            raise  # still running
        except Exception:
            self._remember_execution(handle)
            raise

    def _remember_execution(self, handle):
        """A CREATE execution that ran is the physical id until a workflow
        returns a resource_id, failed or not, so DELETE can clean up."""
        if handle['action'] == self.CREATE and self.resource_id is None:
            self.resource_id = handle['id']

    def _poll(self, handle):
        self._fail_if_stack_cancelled(handle)
        client = self._mistral()
        interval = cfg.CONF[config.GROUP.name].mistral_poll_interval
        give_up = time.monotonic() + CHECK_BUDGET
        while True:
            state, state_info, output = client.execution(handle['id'])
            if state == mistral_client.SUCCESS:
                self._store_result(handle, output)
                return True
            if state in mistral_client.FAILED_STATES:
                self._fail(client, handle, state, state_info)
            if state not in mistral_client.RUNNING_STATES:
                raise WorkflowFailed(
                    'Mistral execution %s of workflow %s is in unknown '
                    'state %s' % (handle['id'], handle['workflow'], state))
            if interval >= 2:
                raise resource.PollDelay(int(interval))
            if time.monotonic() + interval > give_up:
                return False
            time.sleep(interval)

    def _physical_id_from(self, output, handle):
        value = output.get('resource_id')
        if value is None or value == '':
            return None
        if isinstance(value, (dict, list, bool)):
            raise BadWorkflowResult(
                'workflow %s returned resource_id %s: it must be a string '
                'or a number' % (handle['workflow'],
                                 _clip(jsonutils.dumps(value), 100)))
        value = str(value)
        if len(value) > MAX_PHYSICAL_ID:
            raise BadWorkflowResult(
                'workflow %s returned a resource_id of %d characters; Heat '
                'keeps at most %d: %s' % (handle['workflow'], len(value),
                                          MAX_PHYSICAL_ID, _clip(value, 60)))
        return value

    def _store_result(self, handle, output):
        """Merge an execution's outputs: one database write.

        The physical id is only set in memory here; the state change that
        ends the action stores it with the resource.
        """
        if not isinstance(output, dict):
            raise BadWorkflowResult(
                'workflow %s returned %s instead of a map of outputs'
                % (handle['workflow'], _clip(jsonutils.dumps(output), 100)))
        bad_id = None
        try:
            new_id = self._physical_id_from(output, handle)
        except BadWorkflowResult as exc:
            new_id, bad_id = None, exc  # keep the outputs, then fail
        outputs = self._outputs()
        outputs.update(output)
        if new_id is not None:
            self.resource_id = new_id
        self._remember_execution(handle)
        self.data_set(OUTPUTS_DATA_KEY, jsonutils.dumps(outputs))
        if bad_id is not None:
            raise bad_id

    def _keep_partial_result(self, client, handle):
        """After a failed or cancelled execution keep what it published.

        Returns [(task, error)] of its failed tasks.
        """
        published, errors = {}, []
        try:
            for name, state, state_info, task_published in client.tasks(
                    handle['id']):
                if state == 'SUCCESS' and isinstance(task_published, dict):
                    published.update(task_published)
                elif state == 'ERROR':
                    errors.append((name, state_info))
        except mistral_client.MistralError as exc:
            LOG.warning('%s: could not read the tasks of execution %s: %s',
                        self, handle['id'], exc)
        try:
            new_id = self._physical_id_from(published, handle)
        except BadWorkflowResult:
            new_id = None
        if new_id is not None:
            self.resource_id = new_id
        self._remember_execution(handle)
        if published:
            outputs = self._outputs()
            outputs.update(published)
            self.data_set(OUTPUTS_DATA_KEY, jsonutils.dumps(outputs))
        return errors

    def _fail(self, client, handle, state, state_info):
        errors = self._keep_partial_result(client, handle)
        # The failed tasks' own errors first: Heat cuts an event's reason at
        # 255 characters, and Mistral's state_info repeats them verbosely.
        cause = '; '.join('task %s failed: %s' % (task, _clip(error))
                          for task, error in errors)
        reason = 'Mistral workflow %s ended %s: %s (execution %s)' % (
            handle['workflow'], state,
            cause or _clip(state_info or '(no state_info)'), handle['id'])
        raise WorkflowFailed(reason)

    def _cancel_execution(self, handle, why):
        """Cancel the running execution in Mistral, keep its partial result."""
        if not handle:
            return
        client = self._mistral()
        try:
            if client.cancel_execution(handle['id'], why):
                LOG.info('%(res)s: cancelled Mistral execution %(id)s: '
                         '%(why)s', {'res': self, 'id': handle['id'],
                                     'why': why})
        except mistral_client.MistralError as exc:
            LOG.error('%(res)s: could not cancel Mistral execution %(id)s: '
                      '%(error)s', {'res': self, 'id': handle['id'],
                                    'error': exc})
        self._keep_partial_result(client, handle)

    def _fail_if_stack_cancelled(self, handle):
        """Cancel the execution if the stack operation was cancelled.

        A convergence stack cancel (or a delete) only stops the traversal,
        marking the stack FAILED; the resource is never told. So compare the
        stack's traversal with ours.
        """
        if not self.stack.convergence or not self.stack.current_traversal:
            return
        row = stack_object.Stack.get_by_id(self.context, self.stack.id)
        if (row is None or
                row.current_traversal == self.stack.current_traversal or
                row.status != self.stack.FAILED):
            return
        why = 'Heat stack %s: %s' % (self.stack.name, row.status_reason)
        self._cancel_execution(handle, why)
        raise ActionCancelled('Mistral execution %s of workflow %s was '
                              'cancelled: %s' % (handle['id'],
                                                 handle['workflow'],
                                                 row.status_reason))

    # -- validation --------------------------------------------------------

    def validate(self):
        super(ExternalResource, self).validate()
        actions = self.properties[self.EX_ACTIONS] or {}
        for action in self.WORKFLOW_ACTIONS:
            params = (actions.get(action) or {}).get(self.PARAMS) or {}
            env = params.get('env')
            if env is not None and not isinstance(env, dict):
                raise exception.StackValidationFailed(
                    path=self._path(self.EX_ACTIONS, action, self.PARAMS,
                                    'env'),
                    message='must be a map of environment variables, not '
                            '%s' % _clip(jsonutils.dumps(env), 100))

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

    def check_create_complete(self, handle):
        return self._check(handle)

    def handle_create_cancel(self, handle):
        self._cancel_execution(handle, 'Heat cancelled CREATE of %s' % self)

    def handle_update(self, json_snippet, tmpl_diff, prop_diff):
        new_props = json_snippet.properties(self.properties_schema,
                                            self.context)
        if self.INPUT not in prop_diff and not new_props[self.ALWAYS_UPDATE]:
            return None  # only settings changed: nothing to tell Mistral
        return self._start(self.UPDATE, new_props, extra_env={
            ENV_PREVIOUS_INPUT: self.properties[self.INPUT] or {}})

    def check_update_complete(self, handle):
        return self._check(handle)

    def handle_update_cancel(self, handle):
        self._cancel_execution(handle, 'Heat cancelled UPDATE of %s' % self)

    def handle_suspend(self):
        return self._start(self.SUSPEND)

    def check_suspend_complete(self, handle):
        return self._check(handle)

    def handle_suspend_cancel(self, handle):
        self._cancel_execution(handle, 'Heat cancelled SUSPEND of %s' % self)

    def handle_resume(self):
        return self._start(self.RESUME)

    def check_resume_complete(self, handle):
        return self._check(handle)

    def handle_resume_cancel(self, handle):
        self._cancel_execution(handle, 'Heat cancelled RESUME of %s' % self)

    def handle_delete(self):
        if (self.resource_id is None and self._action_spec(self.CREATE) and
                not self._outputs()):
            # The CREATE workflow never ran: nothing to clean up.
            return None
        return self._start(self.DELETE)

    def check_delete_complete(self, handle):
        return self._check(handle)

    def handle_delete_cancel(self, handle):
        self._cancel_execution(handle, 'Heat cancelled DELETE of %s' % self)

    def _resolve_attribute(self, name):
        if name == self.OUTPUT:
            return self._outputs()
