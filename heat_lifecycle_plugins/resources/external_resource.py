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
"""OS::Mistral::ExternalResource: a resource whose actions are workflows.

A drop-in for Heat's in-tree type of the same name, whose actions are
Mistral workflows.

The class holds the schema, validation and actions; WorkflowRuns
(workflow_runs.py) starts, polls and applies the executions,
UpdateDecisions (update_decisions.py) decides whether an update replaces
the resource. Mistral is reached through Heat's client plugin
`lifecycle_mistral` (clients/mistral_plugin.py).
"""

from heat.common import exception
from heat.common.i18n import _
from heat.engine import attributes
from heat.engine import constraints
from heat.engine import properties
from heat.engine import resource
from heat.engine.resources import signal_responder
from heat.engine import support
from oslo_log import log as logging
from oslo_serialization import jsonutils

from heat_lifecycle_plugins import action_requests
from heat_lifecycle_plugins.clients import mistral_plugin
from heat_lifecycle_plugins.resources import action_constraints
from heat_lifecycle_plugins.resources import common
from heat_lifecycle_plugins.resources import execution_notices
from heat_lifecycle_plugins.resources import execution_results as results
from heat_lifecycle_plugins.resources import signal_callers
from heat_lifecycle_plugins.resources import update_decisions
from heat_lifecycle_plugins.resources import workflow_runs

LOG = logging.getLogger(__name__)

# Registered in Heat's heat.constraints entry-point group (setup.cfg).
WORKFLOW_CONSTRAINT = 'heat_lifecycle_plugins.mistral_workflow'


class ExternalResource(common.StorableErrors, signal_callers.SignalCallers,
                       execution_notices.ExecutionNotices,
                       workflow_runs.WorkflowRuns,
                       update_decisions.UpdateDecisions,
                       signal_responder.SignalResponder):
    """A resource managed by user-defined Mistral workflows.

    Each Heat action (CREATE, UPDATE, DELETE, SUSPEND, RESUME, CHECK) may
    name a workflow; the action starts one execution of it and waits for
    it. The outputs of every successful execution (but CHECK's) are merged
    into the resource's outputs (attribute ``output``); an output named
    ``resource_id`` becomes the physical id. Every execution after CREATE
    receives the current outputs in its environment as
    ``heat_extresource_data``; UPDATE also receives the previous input as
    ``heat_extresource_previous_input``. A CHECK workflow returns ``drift``
    (null, ``missing`` or ``different``) and ``reason``; a
    ``replace_decision`` workflow returns ``replace`` (true or false).

    A custom action (a key of ``actions`` such as ROTATE_KEYS) runs when
    requested: a stack update that changes ``action_request`` runs
    ``extended_action``'s workflow as a Heat UPDATE, with
    ``action_inputs`` merged over ``input``; a failed request does not
    make the next update a replacement.

    Mistral tells the resource when an execution ends (a webhook to the
    resource's pre-signed heat-api-cfn URL, made with a stack-domain user
    deleted with the resource), so an action ends a fraction of a second
    after its workflow with a few Mistral calls; a slow fallback poll
    covers a lost notification. DELETE and SUSPEND, whose signals Heat
    refuses, and clouds that cannot be told poll. The start event of each
    execution says which way it is waited for.
    """

    support_status = support.SupportStatus(version='9.0.0')

    default_client_name = mistral_plugin.CLIENT_NAME

    SIGNALLED_AS = 'resource'  # signal_callers: only Mistral's notices

    _ACTION_KEYS = (WORKFLOW, PARAMS) = ('workflow', 'params')

    PROPERTIES = (
        EX_ACTIONS, INPUT, DESCRIPTION, REPLACE_ON_CHANGE, ALWAYS_UPDATE,
        REPLACE_DECISION, EXTENDED_ACTION, ACTION_REQUEST, ACTION_INPUTS,
    ) = (
        'actions', 'input', 'description', 'replace_on_change_inputs',
        'always_update', 'replace_decision', 'extended_action',
        'action_request', 'action_inputs',
    )
    REQUEST_PROPERTIES = (EXTENDED_ACTION, ACTION_REQUEST, ACTION_INPUTS)

    ATTRIBUTES = (OUTPUT,) = ('output',)

    WORKFLOW_ACTIONS = (resource.Resource.CREATE, resource.Resource.UPDATE,
                        resource.Resource.DELETE, resource.Resource.SUSPEND,
                        resource.Resource.RESUME, resource.Resource.CHECK)

    _workflow_schema = {
        WORKFLOW: properties.Schema(
            properties.Schema.STRING,
            _('Name or id of the Mistral workflow to execute.'),
            required=True,
            # Sendable first: the custom constraint asks Mistral.
            constraints=[action_constraints.sendable(
                constraints.Schema.STRING_TYPE),
                constraints.CustomConstraint(WORKFLOW_CONSTRAINT)],
        ),
        PARAMS: properties.Schema(
            properties.Schema.MAP,
            _('Execution params for Mistral (e.g. env, a map; task_name '
              'for reverse workflows).'),
            default={},
            constraints=[action_constraints.sendable(
                constraints.Schema.MAP_TYPE)],
        ),
    }

    properties_schema = {
        # Open to custom action names: Heat's keyed map schema would refuse
        # (and drop) them; valid_workflow_actions checks what it checked.
        EX_ACTIONS: properties.Schema(
            properties.Schema.MAP,
            _('Resource actions that run a workflow, each {workflow: NAME '
              'or id, params: {...} (execution params for Mistral, e.g. '
              'env, a map)}: any of CREATE, UPDATE, DELETE, SUSPEND, RESUME '
              'and CHECK (stack check: the workflow returns drift, null '
              'when the external thing is as Heat left it, "missing" or '
              '"different", and a reason), and custom actions, upper-case '
              'identifiers such as ROTATE_KEYS, run when requested '
              '(extended_action).'),
            required=True,
            update_allowed=True,
            constraints=[action_constraints.valid_workflow_actions()],
        ),
        INPUT: properties.Schema(
            properties.Schema.MAP,
            _('Input of the workflows.'),
            default={},
            update_allowed=True,
            constraints=[action_constraints.sendable(
                constraints.Schema.MAP_TYPE)],
        ),
        DESCRIPTION: properties.Schema(
            properties.Schema.STRING,
            _('Description of the workflow executions.'),
            default='Heat managed',
            update_allowed=True,
            constraints=[action_constraints.sendable(
                constraints.Schema.STRING_TYPE)],
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
        REPLACE_DECISION: properties.Schema(
            properties.Schema.MAP,
            _('A workflow that decides whether a change of input replaces '
              'the resource (when no replace_on_change_inputs input '
              'changed). It runs with the new input, gets the old one in '
              'its environment as heat_extresource_previous_input and '
              'returns replace: true (replace) or false (run UPDATE).'),
            schema=_workflow_schema,
            update_allowed=True,
            support_status=support.SupportStatus(version='9.0.0'),
        ),
        EXTENDED_ACTION: properties.Schema(
            properties.Schema.STRING,
            _('The action a request (a change of action_request) runs: a '
              'custom action, a key of actions, or UPDATE to run the UPDATE '
              'workflow again unchanged. Unset: UPDATE. Changing it alone '
              'runs nothing.'),
            update_allowed=True,
            constraints=[action_constraints.valid_action_name()],
            support_status=common.ADDED,
        ),
        ACTION_REQUEST: properties.Schema(
            properties.Schema.STRING,
            _('A request token: a stack update that changes it to a new, '
              'non-empty value runs extended_action\'s workflow now, as a '
              'Heat UPDATE of this resource; its outputs are merged as any '
              'action\'s. Each token runs once.'),
            update_allowed=True,
            constraints=[action_constraints.storable_whole(
                action_constraints.MAX_TOKEN)],
            support_status=common.ADDED,
        ),
        ACTION_INPUTS: properties.Schema(
            properties.Schema.MAP,
            _('Workflow input of requested actions only, merged over '
              'input.'),
            update_allowed=True,
            constraints=[action_constraints.sendable(
                constraints.Schema.MAP_TYPE)],
            support_status=common.ADDED,
        ),
    }

    attributes_schema = {
        OUTPUT: attributes.Schema(
            _('The merged outputs of the workflow executions, a map.'),
            type=attributes.Schema.MAP,
        ),
    }

    # -- validation --------------------------------------------------------

    def _check_workflows(self, actions):
        """Each workflow exists and gets every input it needs.

        A workflow input without a default must be a key of `input` (the
        resource passes each workflow only the keys it declares).
        """
        specs = [((self.EX_ACTIONS, action), spec)
                 for action, spec in sorted(actions.items())]
        specs.append(((self.REPLACE_DECISION,),
                      self.properties[self.REPLACE_DECISION]))
        for path, spec in specs:
            workflow = (spec or {}).get(self.WORKFLOW)
            if workflow:  # else not resolved yet: checked when it runs
                self._check_workflow(path + (self.WORKFLOW,), workflow)

    def _check_workflow(self, path, workflow):
        where = common.property_path(self, *path)
        try:
            declared = self.client_plugin().workflow_inputs(workflow)
        except mistral_plugin.WorkflowUnavailable as exc:
            raise exception.StackValidationFailed(path=where,
                                                  message=str(exc))
        given = self.properties[self.INPUT]
        lacking = sorted(name for name, has_default in declared.items()
                         if not has_default and given is not None and
                         name not in given)
        if lacking:
            raise exception.StackValidationFailed(path=where, message=(
                'workflow "%s" declares input %s without a default, '
                'which property %s of resource %s lacks' % (
                    mistral_plugin.named(workflow), ', '.join(lacking),
                    self.INPUT, self.name)))

    def _check_late_delete_workflow(self):
        """The DELETE workflow exists, if its name came only at run time.

        validate() checks each workflow it can resolve; one named through
        get_attr is known only now. Missing, what the CREATE workflow makes
        could never be deleted: CREATE fails before making it.
        """
        path = (self.EX_ACTIONS, self.DELETE, self.WORKFLOW)
        workflow = (self._action_spec(self.DELETE) or {}).get(self.WORKFLOW)
        if (self.stack.strict_validate and workflow and
                common.came_at_run_time(self.properties.data, path)):
            self._check_workflow(path, workflow)

    def validate(self):
        super(ExternalResource, self).validate()
        actions = self.properties[self.EX_ACTIONS] or {}
        if self.stack.strict_validate:
            self._check_workflows(actions)
        self._check_envs(self.properties)

    def _check_envs(self, props):
        """Each params.env is a map: at validate, and again in the action.

        A value that comes through get_attr is known only in the action;
        left to the DELETE workflow, a bad one would fail every delete.
        """
        specs = [((self.EX_ACTIONS, action, self.PARAMS), spec)
                 for action, spec in sorted(
                     (props[self.EX_ACTIONS] or {}).items())]
        specs.append(((self.REPLACE_DECISION, self.PARAMS),
                      props[self.REPLACE_DECISION]))
        for path, spec in specs:
            env = ((spec or {}).get(self.PARAMS) or {}).get(results.ENV)
            if env is not None and not isinstance(env, dict):
                raise exception.StackValidationFailed(
                    path=common.property_path(self, *(path + (results.ENV,))),
                    message='must be a map of environment variables, not '
                            '%s' % results.clip(jsonutils.dumps(env), 100))

    # -- actions -----------------------------------------------------------

    # Heat sets self.action before it calls handle_<action>: each of these
    # starts the execution of that action's workflow; Heat then polls it
    # with check_<action>_complete and stops it with handle_<action>_cancel.
    def _start_current_action(self):
        return self._start(self.action)

    handle_suspend = handle_resume = handle_check = _start_current_action

    def handle_create(self):
        self._check_late_delete_workflow()
        self._check_envs(self.properties)
        return self._start(self.CREATE)

    check_create_complete = check_suspend_complete = (
        workflow_runs.WorkflowRuns.check_execution)
    check_resume_complete = check_check_complete = check_delete_complete = (
        workflow_runs.WorkflowRuns.check_execution)
    handle_create_cancel = handle_update_cancel = handle_suspend_cancel = (
        workflow_runs.WorkflowRuns.cancel_execution)
    handle_resume_cancel = handle_check_cancel = handle_delete_cancel = (
        workflow_runs.WorkflowRuns.cancel_execution)

    def _start_request(self, requested, new_props):
        """Start the requested action's workflow; fails if none."""
        actions = new_props[self.EX_ACTIONS] or {}
        if requested not in actions:
            raise exception.Error(action_requests.no_workflow(
                self.name, self.EXTENDED_ACTION, requested, actions))
        extra_env = None
        if requested == self.UPDATE:
            extra_env = {results.ENV_PREVIOUS_INPUT:
                         self.properties[self.INPUT] or {}}
        return self._start(requested, new_props, extra_env=extra_env,
                           extra_input=new_props[self.ACTION_INPUTS])

    def handle_update(self, json_snippet, tmpl_diff, prop_diff):
        new_props = json_snippet.properties(self.properties_schema,
                                            self.context)
        self._check_envs(new_props)
        token = prop_diff.get(self.ACTION_REQUEST)
        requested = None
        if action_requests.is_new_request(
                prop_diff, self.ACTION_REQUEST,
                self.data().get(action_requests.TOKEN_KEY)):
            requested = action_requests.requested(
                new_props[self.EXTENDED_ACTION])
        common.note_request(self, requested, token)
        if requested:
            return self._start_request(requested, new_props)
        drift = self._drift()
        if (self.INPUT not in prop_diff and not new_props[self.ALWAYS_UPDATE]
                and drift is None):
            return None  # only settings changed: nothing to tell Mistral
        extra_env = {results.ENV_PREVIOUS_INPUT: self.properties[self.INPUT]
                     or {}}
        if drift is not None:
            extra_env[results.ENV_DRIFT] = drift._asdict()
        return self._start(self.UPDATE, new_props, extra_env=extra_env)

    def check_update_complete(self, watch):
        done = self.check_execution(watch)
        if done:
            common.request_ended(self)  # it succeeded
        return done

    def handle_delete(self):
        try:
            has_delete = bool(self._action_spec(self.DELETE))
        except Exception:
            held = self._held()
            if held.physical_id is None and not held.outputs:
                # actions never resolved: no workflow ran, nothing to clean
                self._delete_notice_credentials()
                return None
            raise
        if has_delete:
            self._settle_unread()  # cancels a running execution first
        self._delete_notice_credentials()
        if not results.runs_delete(bool(self._action_spec(self.CREATE)),
                                   self._held()):
            return None  # the CREATE workflow never ran: nothing to clean
        return self._start(self.DELETE)

    def _resolve_attribute(self, name):
        if name == self.OUTPUT:
            return self._outputs()
