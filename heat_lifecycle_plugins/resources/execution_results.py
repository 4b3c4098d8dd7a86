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
"""What a Mistral execution means for an OS::Mistral::ExternalResource.

The resource starts one execution per action (a Run), reads it back from
Mistral and asks outcome_of() what the result means: an Outcome says which
physical id the resource holds afterwards, which merged outputs to store
(None: nothing to write) and why the action fails, if it does. The resource
class applies the Outcome; nothing here does I/O or imports Heat.

Physical id rules: a workflow's `resource_id` output (a string or number of
at most 255 characters) becomes the physical id; until one does, the CREATE
execution's id is the physical id, failed or cancelled CREATE included, so
that DELETE can clean up; a later execution's id never is.

Outputs holding a lone surrogate are not merged either: every action
after CREATE passes the outputs on to Mistral (unsendable_output()); such
outputs stored by an earlier version are kept but not passed on
(sendable_outputs()).

A CHECK execution's outputs are not merged: they say whether the external
thing drifted (check_outcome()). A replace_decision execution's outputs say
whether an update replaces the resource (replace_decision()).

Values come as Mistral 23 reports them: an execution's output and a task's
published values are JSON strings (maps with some clients), state_info is
plain text.
"""

import collections

from oslo_serialization import jsonutils

from heat_lifecycle_plugins.clients import executions
from heat_lifecycle_plugins import protocol

CREATE, CHECK, DELETE = 'CREATE', 'CHECK', 'DELETE'
RESOURCE_ID = 'resource_id'
# What a CHECK workflow returns: DRIFT is null (in sync), MISSING or
# DIFFERENT, REASON says what it found.
DRIFT, REASON = 'drift', 'reason'
MISSING, DIFFERENT = 'missing', 'different'
# What a replace_decision workflow returns: REPLACE, true or false.
REPLACE = 'replace'
# Keys of the Mistral environment an execution receives.
ENV = 'env'
ENV_DATA = 'heat_extresource_data'
ENV_PREVIOUS_INPUT = 'heat_extresource_previous_input'
ENV_DRIFT = 'heat_extresource_drift'

MAX_PHYSICAL_ID = 255  # Heat's physical_resource_id column
MAX_REASON_PART = 600  # Mistral's state_info can hold whole tracebacks
MAX_CAUSE = 2 * MAX_REASON_PART  # the failed tasks' errors, all together
MAX_VALUE_SHOWN = 100


class Run(collections.namedtuple('Run', 'action workflow execution_id')):
    """An execution the resource started for one of its actions.

    workflow: the workflow's name as messages quote it (storable text).
    """
    __slots__ = ()

    def __new__(cls, action, workflow, execution_id):
        return super(Run, cls).__new__(
            cls, action, protocol.storable_text(workflow,
                                                protocol.MAX_NAME_SHOWN),
            execution_id)


# What the resource holds when a result is read: its physical id (None
# before it has one) and the merged outputs of earlier executions.
Held = collections.namedtuple('Held', 'physical_id outputs')

# Why an action fails: the kind picks the exception the resource raises.
WORKFLOW_FAILED, BAD_RESULT, DRIFTED = (
    'workflow failed', 'bad result', 'drifted')
Failure = collections.namedtuple('Failure', 'kind reason')
# What a CHECK found: drift is MISSING or DIFFERENT, reason its text.
Drift = collections.namedtuple('Drift', 'drift reason')

# physical_id: the id to hold afterwards; outputs: the merged outputs to
# store, None when they do not change; failure: a Failure or None; drift:
# for CHECK, a Drift, or None when the thing is in sync.
Outcome = collections.namedtuple(
    'Outcome', 'physical_id outputs failure drift', defaults=(None,))


def clip(text, limit=MAX_REASON_PART):
    return protocol.storable_text(str(text).strip(), limit)


def _shown(value, limit=MAX_VALUE_SHOWN):
    return clip(jsonutils.dumps(value), limit)


def execution_params(action, params, outputs, extra_env=None):
    """The params of an execution for `action`.

    Every action after CREATE receives the current outputs in its
    environment (merged into params.env, added without one), plus
    `extra_env`.
    """
    params = dict(params or {})
    if action != CREATE:
        env = dict(params.get(ENV) or {})
        env[ENV_DATA] = outputs
        env.update(extra_env or {})
        params[ENV] = env
    return params


def runs_delete(create_has_workflow, held):
    """Whether DELETE runs its workflow.

    Not if CREATE has a workflow that never started an execution (no
    physical id, no outputs): there is nothing to clean up.
    """
    return not (create_has_workflow and held.physical_id is None and
                not held.outputs)


def held_id(run, physical_id):
    """The physical id once `run` started.

    A CREATE execution is the physical id until a workflow returns one.
    """
    if physical_id is None and run.action == CREATE:
        return run.execution_id
    return physical_id


def returned_id(workflow, output):
    """(resource_id the outputs set or None, the problem with it or None)."""
    value = output.get(RESOURCE_ID)
    if value is None or value == '':
        return None, None
    if isinstance(value, (dict, list, bool)):
        return None, ('workflow %s returned resource_id %s: it must be a '
                      'string or a number' % (workflow, _shown(value)))
    value = str(value)
    if not protocol.is_storable(value):
        return None, ('workflow %s returned resource_id %s: Heat cannot '
                      'store a lone surrogate or a character above U+FFFF '
                      'in an id' % (workflow, _shown(value)))
    if len(value) > MAX_PHYSICAL_ID:
        return None, ('workflow %s returned a resource_id of %d characters; '
                      'Heat keeps at most %d: %s' % (
                          workflow, len(value), MAX_PHYSICAL_ID,
                          clip(value, 60)))
    return value, None


def _as_map(value):
    """A JSON string decoded (empty: {}); anything else as it is."""
    if not isinstance(value, str):
        return value
    if not value.strip():
        return {}
    try:
        return jsonutils.loads(value)
    except ValueError:
        return value


def unsendable_output(run, output):
    """Why map `output` cannot be passed on to a workflow, or None.

    The first output holding a lone surrogate (in its name or value, at
    any depth), named: Mistral cannot be sent it in the next action's
    heat_extresource_data.
    """
    for name, value in output.items():
        problem = protocol.sendable_problem({name: value})
        if problem:
            return ('%s workflow %s returned output %s, where %s: Heat '
                    'cannot pass it on to the next workflow; the '
                    'execution\'s outputs were not stored, Mistral '
                    'execution %s still has them' % (
                        run.action, run.workflow,
                        protocol.shown(name, MAX_VALUE_SHOWN), problem,
                        run.execution_id))
    return None


def sendable_outputs(outputs):
    """(the held outputs that can be passed on, names of those that cannot).

    Outputs stored before unsendable_output() existed may hold a lone
    surrogate. They stay stored (the `output` attribute still shows them)
    but are not sent: no workflow can be sent them, and refusing the
    action instead would wedge every later one, DELETE included.
    """
    sendable, withheld = {}, []
    for name, value in (outputs or {}).items():
        if protocol.sendable_problem({name: value}):
            withheld.append(name)
        else:
            sendable[name] = value
    return sendable, withheld


def withheld_reason(action, workflow, withheld):
    """The event of outputs sendable_outputs() did not pass on."""
    return ('%s workflow %s was not sent the held output%s %s: each holds '
            'a lone surrogate, stored by an earlier version, that no '
            'workflow can be sent; the output attribute still has %s' % (
                action, workflow, '' if len(withheld) == 1 else 's',
                ', '.join(protocol.shown(name, MAX_VALUE_SHOWN)
                          for name in withheld),
                'it' if len(withheld) == 1 else 'them'))


def _merged(run, held, output):
    """Outcome of outputs to merge into the held ones, no failure yet.

    Outputs that cannot be passed on are not merged: the held ones are
    kept, plus a good resource_id among them, so that DELETE can clean
    up. They fail the action, but a DELETE: the thing is gone, and
    nothing is passed on after it.
    """
    new_id, problem = returned_id(run.workflow, output)
    unsendable = unsendable_output(run, output)
    if unsendable:
        kept = dict(held.outputs or {})
        if new_id:
            kept[RESOURCE_ID] = new_id
        failure = (None if run.action == DELETE
                   else Failure(BAD_RESULT, unsendable))
        return Outcome(new_id or held_id(run, held.physical_id), kept,
                       failure)
    outputs = None
    if output:
        outputs = dict(held.outputs or {})
        outputs.update(output)
    return Outcome(new_id or held_id(run, held.physical_id), outputs,
                   Failure(BAD_RESULT, problem) if problem else None)


def success_outcome(run, held, output):
    """Outcome of an execution that ended in SUCCESS with `output`.

    Its outputs are merged, a bad resource_id included, even when that
    resource_id fails the action: nothing it returned is lost.
    """
    output = _as_map(output)
    if not isinstance(output, dict):
        return Outcome(held_id(run, held.physical_id), None, Failure(
            BAD_RESULT, 'workflow %s returned %s instead of a map of '
            'outputs' % (run.workflow, _shown(output))))
    outcome = _merged(run, held, output)
    if outcome.outputs is None:
        # Nothing returned: the outputs are stored all the same, once.
        outcome = outcome._replace(outputs=dict(held.outputs or {}))
    return outcome


def partial_outcome(run, held, tasks):
    """Outcome of what a failed or cancelled execution's tasks published.

    The published values of its successful tasks are merged (a resource_id
    among them becomes the physical id, a bad one is ignored); no failure:
    the caller says why the action ends.
    """
    published = {}
    for task in tasks:
        values = _as_map(task.published)
        if task.state == executions.SUCCESS and isinstance(values, dict):
            published.update(values)
    return _merged(run, held, published)._replace(failure=None)


def failure_outcome(run, held, execution, tasks):
    """Outcome of an execution that ended in ERROR or CANCELLED.

    The reason quotes the failed tasks' own errors first (Heat cuts an
    event's reason at 255 characters, and Mistral's state_info repeats
    them verbosely), else the execution's state_info.
    """
    cause = '; '.join(
        'task %s failed: %s' % (clip(task.name, MAX_VALUE_SHOWN),
                                clip(task.state_info))
        for task in tasks if task.state == executions.ERROR)
    reason = 'Mistral workflow %s ended %s: %s (execution %s)' % (
        run.workflow, execution.state,
        clip(cause, MAX_CAUSE) if cause else
        clip(execution.state_info or '(no state_info)'), run.execution_id)
    return partial_outcome(run, held, tasks)._replace(
        failure=Failure(WORKFLOW_FAILED, reason))


def outcome_of(run, held, execution, tasks=()):
    """The Outcome of a finished execution (not is_running(state)).

    tasks: the execution's tasks, read when needs_tasks(state).
    """
    if execution.state == executions.SUCCESS:
        return success_outcome(run, held, execution.output)
    if execution.state in executions.FAILED_STATES:
        return failure_outcome(run, held, execution, tasks)
    return Outcome(held_id(run, held.physical_id), None, Failure(
        WORKFLOW_FAILED, 'Mistral execution %s of workflow %s is in unknown '
        'state %s' % (run.execution_id, run.workflow,
                      clip(execution.state, MAX_VALUE_SHOWN))))


def oversized(run, held, outcome, size, limit):
    """The Outcome when `outcome`'s outputs are `size` bytes, over `limit`.

    They are not stored: the held outputs are kept, plus a resource_id the
    execution returned, so that DELETE can still clean up; the action fails
    naming both sizes and the execution that still holds them. A DELETE
    does not fail for them: the thing is gone and its outputs with it (it
    failed every retry when its workflow echoed an input too big to keep).
    """
    kept = dict(held.outputs or {})
    if RESOURCE_ID in (outcome.outputs or {}):
        kept[RESOURCE_ID] = outcome.outputs[RESOURCE_ID]
    if run.action == DELETE:
        return outcome._replace(outputs=kept)
    return outcome._replace(outputs=kept, failure=Failure(
        BAD_RESULT, 'workflow %s returned outputs of %d bytes as JSON (with '
        'the outputs kept before): more than the %d bytes Heat keeps for '
        'this resource ([heat_lifecycle_plugins] mistral_max_output_bytes); '
        'they were not stored, Mistral execution %s still has them'
        % (run.workflow, size, limit, run.execution_id)))


def check_outcome(run, held, execution, tasks=()):
    """The Outcome of a finished CHECK execution.

    Nothing is merged. SUCCESS with a null `drift` output: in sync. A drift
    of MISSING or DIFFERENT fails the check with the workflow's reason; a
    failed execution fails it too (drift unknown).
    """
    kept = held_id(run, held.physical_id)
    if execution.state != executions.SUCCESS:
        return outcome_of(run, held, execution, tasks)._replace(
            physical_id=kept, outputs=None)
    output = _as_map(execution.output)
    if not isinstance(output, dict):
        output = {}
    drift, reason = output.get(DRIFT), output.get(REASON)
    if drift in (None, False, ''):
        return Outcome(kept, None, None)
    if drift not in (MISSING, DIFFERENT):
        return Outcome(kept, None, Failure(
            BAD_RESULT, 'CHECK workflow %s returned drift %s: it must be '
            '"%s", "%s" or null' % (run.workflow, _shown(drift), MISSING,
                                    DIFFERENT)))
    found = Drift(drift, clip(reason if reason not in (None, '') else
                              '(no reason given)'))
    return Outcome(kept, None, Failure(
        DRIFTED, 'CHECK workflow %s found the external thing %s: %s '
        '(execution %s)' % (run.workflow, drift, found.reason,
                            run.execution_id)), found)


def replace_decision(run, execution, tasks=()):
    """(replace, Failure or None) of a finished replace_decision execution."""
    if execution.state != executions.SUCCESS:
        return None, outcome_of(run, Held(None, {}), execution, tasks).failure
    output = _as_map(execution.output)
    value = output.get(REPLACE) if isinstance(output, dict) else None
    if not isinstance(value, bool):
        return None, Failure(BAD_RESULT, (
            'replace_decision workflow %s returned %s = %s: it must be true '
            '(replace the resource) or false (update it in place)'
            % (run.workflow, REPLACE, _shown(value))))
    return value, None
