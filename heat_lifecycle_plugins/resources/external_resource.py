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

The class starts and polls executions; what a finished execution means
(outputs, physical id, drift, failure) is decided in execution_results,
when to poll in polling, how outputs are kept in stored_outputs; the class
applies their answers.
"""

import collections
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

from heat_lifecycle_plugins import action_requests
from heat_lifecycle_plugins import config
from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import mistral_client
from heat_lifecycle_plugins.resources import action_constraints
from heat_lifecycle_plugins.resources import execution_results as results
from heat_lifecycle_plugins.resources import polling
from heat_lifecycle_plugins.resources import stored_outputs

LOG = logging.getLogger(__name__)

# Resource data keys besides the outputs (stored_outputs): an execution
# whose result was never read, and what the last CHECK found.
UNREAD_DATA_KEY = 'unread_execution'
DRIFT_DATA_KEY = 'drift'
# Seconds one check_*_complete call may wait for the polls due meanwhile,
# on a convergence stack (each resource in a thread of its own); a legacy
# stack's resources share one thread: there a check polls at most once.
CHECK_BUDGET = 5.0
# Registered in Heat's heat.constraints entry-point group (setup.cfg).
WORKFLOW_CONSTRAINT = 'heat_lifecycle_plugins.mistral_workflow'
# The Run.action of a replace_decision execution (not a Heat action).
DECISION = 'REPLACE_DECISION'

# What handle_* hands check_*_complete: the execution and its polls.
Watch = collections.namedtuple('Watch', 'run schedule')


class WorkflowFailed(exception.Error):
    """A Mistral execution ended in ERROR or CANCELLED."""


class BadWorkflowResult(exception.Error):
    """A workflow returned outputs Heat cannot use."""


class ExternalThingDrifted(exception.Error):
    """The CHECK workflow found the external thing missing or different."""


class ActionCancelled(exception.Error):
    """The stack operation was cancelled while an execution ran."""


FAILURES = {results.WORKFLOW_FAILED: WorkflowFailed,
            results.BAD_RESULT: BadWorkflowResult,
            results.DRIFTED: ExternalThingDrifted}


def _opts():
    return cfg.CONF[config.GROUP.name]


def missing_workflow(workflow, endpoint, context):
    project = getattr(context, 'project_name', None) or context.project_id
    return ('workflow "%s" does not exist in Mistral at %s, or project %s '
            'may not use it (it is private to another project)'
            % (workflow, endpoint, project))


class MistralWorkflowConstraint(object):
    """Heat custom constraint: the value names a Mistral workflow we may use.

    Checked by Heat wherever property values are validated (stack create,
    update and preview), except for values that come from resources not
    created yet. Mistral is reached as for the executions (mistral_client).
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
            self._problem = missing_workflow(value, client.endpoint, context)
        except mistral_client.MistralError as exc:
            self._problem = 'cannot check workflow "%s": %s' % (value, exc)
        return False

    def error(self, value):
        return self._problem or 'workflow "%s" is not valid' % value


_ADDED = support.SupportStatus(support.SUPPORTED,
                               _('Added by heat-lifecycle-plugins.'))


class ExternalResource(resource.Resource):
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
    """

    support_status = support.SupportStatus(version='9.0.0')

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
            constraints=[constraints.CustomConstraint(WORKFLOW_CONSTRAINT)],
        ),
        PARAMS: properties.Schema(
            properties.Schema.MAP,
            _('Execution params for Mistral (e.g. env, a map; task_name '
              'for reverse workflows).'),
            default={},
        ),
    }

    properties_schema = {
        # Open to custom action names: Heat's keyed map schema would refuse
        # (and drop) them; ValidWorkflowActions checks what it checked.
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
            constraints=[action_constraints.ValidWorkflowActions()],
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
            constraints=[action_constraints.ValidActionName()],
            support_status=_ADDED,
        ),
        ACTION_REQUEST: properties.Schema(
            properties.Schema.STRING,
            _('A request token: a stack update that changes it to a new, '
              'non-empty value runs extended_action\'s workflow now, as a '
              'Heat UPDATE of this resource; its outputs are merged as any '
              'action\'s. Each token runs once.'),
            update_allowed=True,
            support_status=_ADDED,
        ),
        ACTION_INPUTS: properties.Schema(
            properties.Schema.MAP,
            _('Workflow input of requested actions only, merged over '
              'input.'),
            update_allowed=True,
            support_status=_ADDED,
        ),
    }

    attributes_schema = {
        OUTPUT: attributes.Schema(
            _('The merged outputs of the workflow executions, a map.'),
            type=attributes.Schema.MAP,
        ),
    }

    # -- stored state ------------------------------------------------------

    def _mistral(self):
        return mistral_client.MistralClient(self.context)

    def _outputs(self):
        return stored_outputs.decode(self.data())

    def _held(self):
        return results.Held(self.resource_id, self._outputs())

    def _store_outputs(self, outputs):
        text = stored_outputs.encode(outputs)
        writes, stale = stored_outputs.plan(text, self.data())
        for key, value in writes:
            self.data_set(key, value)
        for key in stale:
            self.data_delete(key)

    def _drift(self):
        """What the last CHECK found (a results.Drift), or None."""
        stored = self.data().get(DRIFT_DATA_KEY)
        return results.Drift(**jsonutils.loads(stored)) if stored else None

    def _forget(self, key):
        if key in self.data():
            self.data_delete(key)

    # -- starting and polling executions -----------------------------------

    def _path(self, *keys):
        return [self.stack.t.get_section_name('resources'), self.name,
                'properties'] + list(keys)

    def _action_spec(self, action, props=None):
        props = self.properties if props is None else props
        return (props[self.EX_ACTIONS] or {}).get(action)

    def _start(self, action, props=None, extra_env=None, spec=None,
               extra_input=None):
        """Start the action's execution; its Watch, None if no workflow."""
        props = self.properties if props is None else props
        spec = spec or self._action_spec(action, props)
        if not spec:
            return None
        self._settle_unread()
        workflow = spec[self.WORKFLOW]
        params = results.execution_params(action, spec.get(self.PARAMS),
                                          self._outputs(), extra_env)
        client = self._mistral()
        started = time.monotonic()
        try:
            execution_id = client.start_execution(
                workflow, dict(props[self.INPUT] or {}, **(extra_input or {})),
                props[self.DESCRIPTION], params)
        except mistral_client.MistralError as exc:
            if (exc.status is not None and
                    not isinstance(exc, mistral_client.MistralUnreachable)
                    and not client.workflow_exists(workflow)):
                raise exception.Error('%s: %s' % (
                    action, missing_workflow(workflow, client.endpoint,
                                             self.context)))
            raise
        LOG.info('%(res)s: %(action)s started Mistral execution %(id)s of '
                 'workflow %(wf)s', {'res': self, 'action': action,
                                     'id': execution_id, 'wf': workflow})
        return Watch(results.Run(action, workflow, execution_id),
                     polling.Schedule(started, _opts().mistral_poll_interval))

    def _poll_until(self, watch, budget, horizon=polling.HEAT_STEP):
        """The finished execution, or None if it still runs after `budget`.

        Polls when the schedule says; rides through a Mistral that does
        not answer for up to mistral_outage_grace seconds.
        """
        run, schedule = watch
        grace = _opts().mistral_outage_grace
        now = time.monotonic()
        deadline = now + budget
        client = None
        while True:
            wait = schedule.wait(now, deadline, horizon)
            if wait is None:
                return None
            time.sleep(wait)
            self._fail_if_stack_cancelled(run)
            now = time.monotonic()
            try:
                client = client or self._mistral()
                execution = client.execution(run.execution_id, retries=0)
            except mistral_client.MistralError as exc:
                if not exc.transient:
                    raise
                silent = schedule.unanswered(now)
                if silent > grace:
                    raise mistral_client.MistralUnreachable(
                        'Mistral at %s has not answered for %d s, more than '
                        '[%s] mistral_outage_grace (%d s), while execution '
                        '%s of workflow %s ran: %s' % (
                            getattr(client, 'endpoint', '(not found)'),
                            silent, config.GROUP.name, grace,
                            run.execution_id, run.workflow, exc))
                LOG.warning('%(res)s: no answer from Mistral for %(s)d s '
                            '(grace %(grace)d s), execution %(id)s: %(exc)s',
                            {'res': self, 's': silent, 'grace': grace,
                             'id': run.execution_id, 'exc': exc})
                now = time.monotonic()
                continue
            silent = schedule.answered(now)
            if silent is not None:
                LOG.info('%(res)s: Mistral answers again after %(s).0f s',
                         {'res': self, 's': silent})
            if not results.is_running(execution.state):
                return execution
            now = time.monotonic()

    def _tasks(self, run, state):
        """The execution's tasks if its state needs them.

        () if Mistral cannot list them.
        """
        if not results.needs_tasks(state):
            return ()
        try:
            return self._mistral().tasks(run.execution_id)
        except mistral_client.MistralError as exc:
            LOG.warning('%s: could not read the tasks of execution %s: %s',
                        self, run.execution_id, exc)
            return ()

    def _outcome(self, run, held, execution):
        tasks = self._tasks(run, execution.state)
        if run.action == self.CHECK:
            return results.checked(run, held, execution, tasks)
        return results.interpret(run, held, execution, tasks)

    def _apply(self, run, held, outcome):
        """Hold the physical id, store outputs and drift, raise the failure.

        Small outputs take one database write; the physical id is only
        set in memory: the state change that ends the action stores it.
        """
        self.resource_id = outcome.physical_id
        if outcome.outputs is not None:
            size = len(stored_outputs.encode(outcome.outputs))
            limit = _opts().mistral_max_output_bytes
            if size > limit:
                outcome = results.oversized(run, held, outcome, size, limit)
            self._store_outputs(outcome.outputs)
        if run.action == self.CHECK and outcome.drift is not None:
            self.data_set(DRIFT_DATA_KEY,
                          jsonutils.dumps(outcome.drift._asdict()))
        elif (run.action in (self.CHECK, self.UPDATE) and
              outcome.failure is None):
            self._forget(DRIFT_DATA_KEY)  # in sync, or repaired
        if outcome.failure is not None:
            raise FAILURES[outcome.failure.kind](outcome.failure.reason)

    def _check(self, watch):
        """Poll the execution within CHECK_BUDGET; True once it ended."""
        if not watch:
            return True
        run = watch.run
        budget = CHECK_BUDGET if self.stack.convergence else 0
        try:
            execution = self._poll_until(watch, budget)
            if execution is None:
                return False
            held = self._held()
            self._apply(run, held, self._outcome(run, held, execution))
            return True
        except mistral_client.MistralError:
            self._note_unread(run)
            raise
        finally:
            # An execution that ran (its result unread: Mistral gone, the
            # stack cancelled) still holds the CREATE id for DELETE.
            self.resource_id = results.held_id(run, self.resource_id)

    # -- executions whose result was not read ------------------------------

    def _note_unread(self, run):
        """Remember an execution whose result was never read."""
        try:
            self.data_set(UNREAD_DATA_KEY, jsonutils.dumps(run._asdict()))
        except Exception as exc:
            LOG.error('%s: could not note unread execution %s: %s',
                      self, run.execution_id, exc)

    def _settle_unread(self):
        """Take in the result of an execution the last action never read.

        The next action (update, delete, ...) does it first, so that its
        workflow gets the outputs (a resource_id above all): an execution
        that still runs is cancelled and what it published is kept.
        """
        stored = self.data().get(UNREAD_DATA_KEY)
        if not stored:
            return
        run = results.Run(**jsonutils.loads(stored))
        if run.action == self.CHECK:  # nothing to take in: checked anew
            self.data_delete(UNREAD_DATA_KEY)
            return
        try:
            execution = self._mistral().execution(run.execution_id)
        except mistral_client.MistralError as exc:
            if exc.status != 404:
                raise
            LOG.warning('%s: execution %s is gone from Mistral', self,
                        run.execution_id)
            execution = None
        if execution is not None and results.is_running(execution.state):
            self._cancel_execution(run, 'Heat stopped waiting for it: '
                                   'the resource %s is taking its next '
                                   'action' % self.name)
        elif execution is not None:
            held = self._held()
            outcome = self._outcome(run, held, execution)
            if outcome.failure is not None:
                LOG.info('%s: the unread execution %s: %s', self,
                         run.execution_id, outcome.failure.reason)
            self._apply(run, held, outcome._replace(failure=None,
                                                    drift=None))
        self.data_delete(UNREAD_DATA_KEY)
        LOG.info('%s: took in execution %s of %s', self, run.execution_id,
                 run.action)

    # -- cancels -----------------------------------------------------------

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
        held = self._held()
        self._apply(run, held, results.partial(
            run, held, self._tasks(run, results.CANCELLED)))

    def _cancel(self, watch, action):
        if watch:
            self._cancel_execution(watch.run, 'Heat cancelled %s of %s'
                                   % (action, self))

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

    def _check_workflows(self, actions):
        """Each action's workflow exists (Heat's keyed schema did this)."""
        for action, spec in sorted(actions.items()):
            workflow = (spec or {}).get(self.WORKFLOW)
            if not workflow:
                continue  # not resolved yet: checked when it runs
            check = MistralWorkflowConstraint()
            if not check.validate(workflow, self.context):
                raise exception.StackValidationFailed(
                    path=self._path(self.EX_ACTIONS, action, self.WORKFLOW),
                    message=check.error(workflow))

    def validate(self):
        super(ExternalResource, self).validate()
        actions = self.properties[self.EX_ACTIONS] or {}
        if self.stack.strict_validate:
            self._check_workflows(actions)
        specs = [((self.EX_ACTIONS, action, self.PARAMS), spec)
                 for action, spec in sorted(actions.items())]
        specs.append(((self.REPLACE_DECISION, self.PARAMS),
                      self.properties[self.REPLACE_DECISION]))
        for path, spec in specs:
            env = ((spec or {}).get(self.PARAMS) or {}).get(results.ENV)
            if env is not None and not isinstance(env, dict):
                raise exception.StackValidationFailed(
                    path=self._path(*(path + (results.ENV,))),
                    message='must be a map of environment variables, not '
                            '%s' % results.clip(jsonutils.dumps(env), 100))

    # -- update decisions --------------------------------------------------

    def _repairs(self):
        """Whether an update repairs a CHECK_FAILED resource in place.

        Yes if the CHECK found the thing different (not missing) and there
        is an UPDATE workflow to run; Heat replaces it otherwise.
        """
        drift = self._drift()
        return bool((self.action, self.status) == (self.CHECK, self.FAILED)
                    and drift is not None
                    and drift.drift == results.DIFFERENT
                    and self._action_spec(self.UPDATE))

    @property
    def always_replace_on_check_failed(self):
        return not self._repairs()

    def needs_replace_failed(self):
        # A failed request (a custom action) leaves the thing as it was:
        # the next update runs in place.
        if action_requests.failed_request(self.action, self.data()):
            return False
        return not self._repairs()

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
        # "repaired" by the UPDATE workflow (but for a thing CHECK found
        # different, see _repairs).
        changed = super(ExternalResource, self)._needs_update(
            after, before, after_props, before_props, prev_resource,
            check_init_complete)
        if self._repairs():
            return True
        if (changed and old_input != new_input and
                after_props[self.REPLACE_DECISION] and
                self._decides_replace(after_props, old_input)):
            raise resource.UpdateReplace(self)
        return changed or bool(after_props[self.ALWAYS_UPDATE])

    def _decides_replace(self, props, old_input):
        """Run the replace_decision workflow and wait: True to replace.

        Heat waits for it before updating; its errors fail the update.
        """
        timeout = _opts().mistral_decision_timeout
        watch = None
        try:
            watch = self._start(DECISION, props, spec=props[
                self.REPLACE_DECISION], extra_env={
                    results.ENV_PREVIOUS_INPUT: old_input})
            execution = self._poll_until(watch, timeout, horizon=timeout)
            if execution is None:
                self._cancel_execution(watch.run, 'no decision in %d s'
                                       % timeout)
                raise WorkflowFailed(
                    'replace_decision workflow %s did not decide within %d '
                    's ([%s] mistral_decision_timeout), execution %s' % (
                        watch.run.workflow, timeout, config.GROUP.name,
                        watch.run.execution_id))
            replace, failure = results.decided(
                watch.run, execution,
                self._tasks(watch.run, execution.state))
            if failure is not None:
                raise FAILURES[failure.kind](failure.reason)
        except Exception as exc:
            # Raised before Heat records an UPDATE: the failure must be a
            # ResourceFailure for the stack to fail (and not hang).
            raise exception.ResourceFailure(exc, self, self.UPDATE)
        LOG.info('%(res)s: replace_decision workflow %(wf)s decided to '
                 '%(what)s', {'res': self, 'wf': watch.run.workflow,
                              'what': 'replace' if replace else 'update'})
        return replace

    # -- actions -----------------------------------------------------------

    def handle_create(self):
        return self._start(self.CREATE)

    def check_create_complete(self, watch):
        return self._check(watch)

    def handle_create_cancel(self, watch):
        self._cancel(watch, self.CREATE)

    def _note_request(self, requested, token):
        if requested:
            self.data_set(action_requests.REQUESTED_KEY, requested)
            self.data_set(action_requests.TOKEN_KEY, token)
        else:
            self._forget(action_requests.REQUESTED_KEY)

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
        token = prop_diff.get(self.ACTION_REQUEST)
        requested = None
        if action_requests.is_new_request(
                prop_diff, self.ACTION_REQUEST,
                self.data().get(action_requests.TOKEN_KEY)):
            requested = action_requests.requested(
                new_props[self.EXTENDED_ACTION])
        self._note_request(requested, token)
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
        done = self._check(watch)
        if done:
            self._forget(action_requests.REQUESTED_KEY)  # it succeeded
        return done

    def handle_update_cancel(self, watch):
        self._cancel(watch, self.UPDATE)

    def handle_suspend(self):
        return self._start(self.SUSPEND)

    def check_suspend_complete(self, watch):
        return self._check(watch)

    def handle_suspend_cancel(self, watch):
        self._cancel(watch, self.SUSPEND)

    def handle_resume(self):
        return self._start(self.RESUME)

    def check_resume_complete(self, watch):
        return self._check(watch)

    def handle_resume_cancel(self, watch):
        self._cancel(watch, self.RESUME)

    def handle_check(self):
        return self._start(self.CHECK)

    def check_check_complete(self, watch):
        return self._check(watch)

    def handle_check_cancel(self, watch):
        self._cancel(watch, self.CHECK)

    def handle_delete(self):
        if self._action_spec(self.DELETE):
            self._settle_unread()
        if not results.runs_delete(bool(self._action_spec(self.CREATE)),
                                   self._held()):
            return None  # the CREATE workflow never ran: nothing to clean
        return self._start(self.DELETE)

    def check_delete_complete(self, watch):
        return self._check(watch)

    def handle_delete_cancel(self, watch):
        self._cancel(watch, self.DELETE)

    def _resolve_attribute(self, name):
        if name == self.OUTPUT:
            return self._outputs()
