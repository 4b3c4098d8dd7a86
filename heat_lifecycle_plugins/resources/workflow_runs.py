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
"""The Mistral executions of an OS::Mistral::ExternalResource.

WorkflowRuns, mixed into ExternalResource: start an action's execution,
poll it (clients.executions), apply what execution_results decides it
means (physical id, outputs, drift, failure), remember an execution whose
result could not be read, cancel one. Outputs are kept with
stored_outputs.
"""

import collections
import time

from heat.common import exception
from oslo_config import cfg
from oslo_log import log as logging
from oslo_serialization import jsonutils

from heat_lifecycle_plugins.clients import executions
from heat_lifecycle_plugins.clients import mistral
from heat_lifecycle_plugins import config
from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.resources import common
from heat_lifecycle_plugins.resources import execution_notices as notices
from heat_lifecycle_plugins.resources import execution_results as results
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
# The Run.action of a replace_decision execution (not a Heat action).
DECISION = 'REPLACE_DECISION'

# What handle_* hands check_*_complete: the execution, its polls and
# whether Mistral tells of its end (execution_notices).
Watch = collections.namedtuple('Watch', 'run schedule told',
                               defaults=(False,))


class WorkflowFailed(exception.Error):
    """A Mistral execution ended in ERROR or CANCELLED."""


class BadWorkflowResult(exception.Error):
    """A workflow returned outputs Heat cannot use."""


class ExternalThingDrifted(exception.Error):
    """The CHECK workflow found the external thing missing or different."""


class ActionCancelled(exception.Error):
    """The stack operation was cancelled while an execution ran."""


def every(seconds, pause, look, clock=time.monotonic):
    """pause(s), calling look() once `seconds` have passed since the last.

    A told wait's pauses, looking for the stack's cancel between them at
    the pace a poll would.
    """
    last = [clock()]

    def paused(wait):
        woken = pause(wait)
        if clock() - last[0] >= seconds:
            last[0] = clock()
            look()
        return woken
    return paused


FAILURES = {results.WORKFLOW_FAILED: WorkflowFailed,
            results.BAD_RESULT: BadWorkflowResult,
            results.DRIFTED: ExternalThingDrifted}


def opts():
    return cfg.CONF[config.GROUP.name]


class WorkflowRuns(object):
    """The executions of the resource's actions (a mixin of it)."""

    # -- stored state ------------------------------------------------------

    def _mistral(self):
        return self.client()

    def _endpoint(self):
        try:
            return self.client_plugin().endpoint()
        except mistral.MistralError:
            return '(not found)'

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

    def _action_spec(self, action, props=None):
        props = self.properties if props is None else props
        return (props[self.EX_ACTIONS] or {}).get(action)

    def _start(self, action, props=None, extra_env=None, spec=None,
               extra_input=None, notify=True):
        """Start the action's execution; its Watch, None if no workflow.

        notify: a Heat action's execution, which Mistral may tell about
        (execution_notices); the start event says how it is waited for.
        """
        props = self.properties if props is None else props
        spec = spec or self._action_spec(action, props)
        if not spec:
            return None
        self._refuse_unsendable(action, props, spec, extra_input)
        self._settle_unread()
        workflow = spec[self.WORKFLOW]
        outputs, withheld = results.sendable_outputs(self._outputs())
        if withheld and action != results.CREATE:
            reason = results.withheld_reason(action, workflow, withheld)
            LOG.warning('%(res)s: %(reason)s', {'res': self,
                                                'reason': reason})
            self._add_event(self.action, self.status, reason)
        params = results.execution_params(action, spec.get(self.PARAMS),
                                          outputs, extra_env)
        waiting = self._waiting(notify and opts().mistral_notify)
        if waiting.url:
            params = notices.with_webhook(params, waiting.url)
        client = self._mistral()
        started = time.monotonic()
        try:
            execution_id = client.start_execution(
                workflow, self._workflow_input(workflow, props, extra_input),
                props[self.DESCRIPTION], params)
        except mistral.MistralError as exc:
            if (exc.status is not None and
                    not isinstance(exc, mistral.MistralUnreachable)
                    and not client.workflow_exists(workflow)):
                raise exception.Error('%s: %s' % (
                    action, self.client_plugin().missing(workflow)))
            raise
        LOG.info('%(res)s: %(action)s started Mistral execution %(id)s of '
                 'workflow %(wf)s', {'res': self, 'action': action,
                                     'id': execution_id, 'wf': workflow})
        run = results.Run(action, workflow, execution_id)
        period = opts().mistral_notified_poll_interval
        if notify:
            self._add_event(self.action, self.status,
                            notices.waiting_reason(run, waiting, period,
                                                   self.action))
        return Watch(run, executions.Schedule(
            started, opts().mistral_poll_interval,
            period=period if waiting.url else None,
            phase=executions.fallback_phase(execution_id)),
            bool(waiting.url))

    def _refuse_unsendable(self, action, props, spec, extra_input):
        """Refuse, naming the property, text Mistral cannot take.

        The constraints (action_constraints.sendable) refuse it where Heat
        checks properties; a replace_decision runs before Heat checks an
        update's, and DELETE, SUSPEND, RESUME and CHECK run unchecked: a
        value that came through get_attr is refused here.
        """
        own = ((self.REPLACE_DECISION,) if action == DECISION
               else (self.EX_ACTIONS, action))
        for path, value in (((self.INPUT,), props[self.INPUT]),
                            ((self.ACTION_INPUTS,), extra_input),
                            ((self.DESCRIPTION,), props[self.DESCRIPTION]),
                            (own, spec)):
            problem = protocol.sendable_problem(value)
            if problem:
                raise exception.StackValidationFailed(
                    error='Property error',
                    path=common.property_path(self, *path), message=problem)

    def _workflow_input(self, workflow, props, extra_input=None):
        """What an execution of `workflow` gets as input.

        The keys of `input` the workflow declares, then the request's
        inputs (action_inputs) as they are.
        """
        declared = self.client_plugin().workflow_inputs(workflow)
        given = props[self.INPUT] or {}
        chosen = {key: value for key, value in given.items()
                  if key in declared}
        chosen.update(extra_input or {})
        return chosen

    def _poll_until(self, watch, budget, horizon=executions.HEAT_STEP):
        """The finished execution, or None if it still runs after `budget`.

        Rides through a Mistral that does not answer for up to
        mistral_outage_grace seconds.
        """
        return self._riding_outages(watch, executions.poll_until,
                                    horizon=horizon)(budget)

    def _wait_told(self, watch):
        """(finished execution, told by Mistral) or (None, False).

        Waits up to the stack's timeout (common.wait_budget: one look on a
        legacy stack), looking for the stack's cancel every CHECK_BUDGET
        seconds.
        """
        with notices.Notice(self, watch.run.execution_id) as notice:
            pause = every(CHECK_BUDGET, notice.pause, lambda:
                          self._fail_if_stack_cancelled(watch.run))
            return self._riding_outages(watch, executions.wait_told,
                                        notice=notice, pause=pause)(
                common.wait_budget(self.stack))

    def _riding_outages(self, watch, wait, **kwargs):
        """wait(read, schedule, budget, grace, ...) as a call of budget.

        Mistral silent for longer than mistral_outage_grace seconds raises
        MistralUnreachable.
        """
        run, schedule = watch.run, watch.schedule
        grace = opts().mistral_outage_grace

        def read():  # the client made when Mistral first answers
            return self._mistral().execution(run.execution_id, retries=0)

        def waited(budget):
            try:
                return wait(read, schedule=schedule, budget=budget,
                            grace=grace, before_poll=lambda:
                            self._fail_if_stack_cancelled(run), **kwargs)
            except executions.Silent as exc:
                raise self._unreachable(run, grace, *exc.args)
        return waited

    def _unreachable(self, run, grace, silent, error):
        return mistral.MistralUnreachable(
            'Mistral at %s has not answered for %d s, more than [%s] '
            'mistral_outage_grace (%d s), while execution %s of '
            'workflow %s ran: %s' % (
                self._endpoint(), silent, config.GROUP.name, grace,
                run.execution_id, run.workflow, error))

    def _tasks(self, run, state):
        """The execution's tasks if its state needs them.

        () if Mistral cannot list them.
        """
        if not executions.needs_tasks(state):
            return ()
        try:
            return self._mistral().tasks(run.execution_id)
        except mistral.MistralError as exc:
            LOG.warning('%s: could not read the tasks of execution %s: %s',
                        self, run.execution_id, exc)
            return ()

    def _outcome(self, run, held, execution):
        tasks = self._tasks(run, execution.state)
        if run.action == self.CHECK:
            return results.check_outcome(run, held, execution, tasks)
        return results.outcome_of(run, held, execution, tasks)

    def _apply(self, run, held, outcome):
        """Hold the physical id, store outputs and drift, raise the failure.

        Small outputs take one database write; the physical id is only
        set in memory: the state change that ends the action stores it.
        """
        self.resource_id = outcome.physical_id
        if outcome.outputs is not None:
            size = len(stored_outputs.encode(outcome.outputs))
            limit = opts().mistral_max_output_bytes
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

    def _wait(self, watch, budget):
        """The finished execution, or None; told: an event says how."""
        if not watch.told:
            return self._poll_until(watch, budget)
        execution, told = self._wait_told(watch)
        if execution is not None:
            self._add_event(self.action, self.status,
                            notices.ended_reason(watch.run, told))
        return execution

    def check_execution(self, watch):
        """Wait for the execution within CHECK_BUDGET (told: the stack's time).

        True once it ended.
        """
        if not watch:
            return True
        run = watch.run
        budget = CHECK_BUDGET if self.stack.convergence else 0
        try:
            execution = self._wait(watch, budget)
            if execution is None:
                return False
            held = self._held()
            self._apply(run, held, self._outcome(run, held, execution))
            return True
        except mistral.MistralError:
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
        except mistral.MistralError as exc:
            if exc.status != 404:
                raise
            LOG.warning('%s: execution %s is gone from Mistral', self,
                        run.execution_id)
            execution = None
        if execution is not None and executions.is_running(execution.state):
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
        except mistral.MistralError as exc:
            LOG.error('%(res)s: could not cancel Mistral execution %(id)s: '
                      '%(error)s', {'res': self, 'id': run.execution_id,
                                    'error': exc})
        held = self._held()
        self._apply(run, held, results.partial_outcome(
            run, held, self._tasks(run, executions.CANCELLED)))

    def cancel_execution(self, watch):
        """Heat cancelled the action whose execution `watch` follows."""
        if watch:
            self._cancel_execution(watch.run, 'Heat cancelled %s of %s'
                                   % (watch.run.action, self))

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
