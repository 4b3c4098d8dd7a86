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
"""What a Mistral execution means for an ExternalResource.

No Heat, no Mistral: the values below are what a real Mistral 23 returned.
"""

import pytest

from heat_lifecycle_plugins.clients import executions as ex
from heat_lifecycle_plugins.resources import execution_results as er

CREATE = er.Run('CREATE', 'thing_create', 'exec-create')
UPDATE = er.Run('UPDATE', 'thing_update', 'exec-update')
NEW = er.Held(None, {})
MADE = er.Held('thing-1', {'resource_id': 'thing-1', 'size': 1})

# Mistral 23: output and published are JSON strings, state_info text.
SUCCEEDED = ex.Execution('SUCCESS', None,
                         '{"resource_id": "thing-1", "size": 2}')
FAILED_INFO = (
    'Failure caused by error in tasks: boom\n\n  boom [task_ex_id=10cafb0e-'
    'f43f-4456-addb-536f4716140e] -> the thing could not be finished\n    '
    '[action_ex_id=b8ae0fe4-ca8c-406d-8382-8f11a3208ebb, idx=0]: the thing '
    'could not be finished\n')
FAILED = ex.Execution(
    'ERROR', FAILED_INFO,
    '{"result": "Failure caused by error in tasks: boom", '
    '"resource_id": "half-made-1", "n": 3}')
FAILED_TASKS = [  # in the order Mistral lists them
    ex.Task('boom', 'ERROR', 'the thing could not be finished', '{}'),
    ex.Task('post', 'SUCCESS', None, '{"resource_id": "half-made-1", '
                                     '"n": 3}'),
]
CANCELLED = ex.Execution('CANCELLED', 'Heat stack s: Stack CREATE cancelled',
                         '{"result": "Heat stack s: Stack CREATE cancelled"}')
CANCELLED_TASKS = [
    ex.Task('first', 'SUCCESS', None, '{"made": true}'),
    ex.Task('wait', 'RUNNING', None, '{}'),
]


def test_success_merges_outputs_and_takes_the_resource_id():
    out = er.outcome_of(CREATE, NEW, SUCCEEDED)
    assert out == er.Outcome('thing-1', {'resource_id': 'thing-1',
                                         'size': 2}, None)


def test_success_without_resource_id_keeps_the_physical_id():
    execution = ex.Execution('SUCCESS', None, '{"size": 5}')
    out = er.outcome_of(UPDATE, MADE, execution)
    assert out == er.Outcome('thing-1', {'resource_id': 'thing-1',
                                         'size': 5}, None)


def test_create_without_resource_id_is_its_execution_id():
    execution = ex.Execution('SUCCESS', None, '{"note": "created"}')
    assert er.outcome_of(CREATE, NEW, execution).physical_id == 'exec-create'


def test_a_later_execution_id_never_becomes_the_physical_id():
    execution = ex.Execution('SUCCESS', None, '{}')
    assert er.outcome_of(UPDATE, MADE, execution).physical_id == 'thing-1'
    # Even when no id is held yet (a resource created by another type).
    assert er.outcome_of(UPDATE, er.Held(None, {}), execution) \
        .physical_id is None


def test_empty_output_still_stores_the_outputs_once():
    for output in ('', '{}', {}):
        out = er.outcome_of(UPDATE, MADE, ex.Execution('SUCCESS', None,
                                                       output))
        assert out == er.Outcome('thing-1', MADE.outputs, None)


def test_outputs_as_a_map_are_taken_as_they_are():
    execution = ex.Execution('SUCCESS', None, {'resource_id': 7})
    assert er.outcome_of(CREATE, NEW, execution) == er.Outcome(
        '7', {'resource_id': 7}, None)


@pytest.mark.parametrize('output, shown', [
    ('[1, 2]', '[1, 2]'),
    ('"text"', '"text"'),
    ('not json', '"not json"'),
    (None, 'null'),
])
def test_outputs_that_are_no_map_fail_and_keep_the_create_id(output, shown):
    out = er.outcome_of(CREATE, NEW, ex.Execution('SUCCESS', None, output))
    assert out == er.Outcome('exec-create', None, er.Failure(
        er.BAD_RESULT, 'workflow thing_create returned %s instead of a map '
        'of outputs' % shown))


@pytest.mark.parametrize('value, problem', [
    ('["not", "a", "string"]',
     'returned resource_id ["not", "a", "string"]: it must be a string or '
     'a number'),
    ('{"a": 1}', 'returned resource_id {"a": 1}: it must be'),
    ('true', 'returned resource_id true: it must be'),
    ('"%s"' % ('x' * 256), 'returned a resource_id of 256 characters; Heat '
     'keeps at most 255: ' + 'x' * 60 + '...'),
])
def test_a_bad_resource_id_fails_but_every_output_is_kept(value, problem):
    execution = ex.Execution('SUCCESS', None,
                             '{"resource_id": %s, "size": 3}' % value)
    out = er.outcome_of(CREATE, NEW, execution)
    assert out.physical_id == 'exec-create'
    assert out.outputs['size'] == 3 and 'resource_id' in out.outputs
    assert out.failure.kind == er.BAD_RESULT
    assert out.failure.reason.startswith('workflow thing_create ' + problem)


def test_a_bad_resource_id_after_create_keeps_the_held_id():
    execution = ex.Execution('SUCCESS', None, '{"resource_id": [1]}')
    out = er.outcome_of(UPDATE, MADE, execution)
    assert out.physical_id == 'thing-1'
    assert out.failure.kind == er.BAD_RESULT


def test_numbers_and_the_longest_id_are_accepted():
    assert er.returned_id('wf', {'resource_id': 42}) == ('42', None)
    assert er.returned_id('wf', {'resource_id': 'x' * 255}) == ('x' * 255,
                                                                None)
    assert er.returned_id('wf', {'resource_id': ''}) == (None, None)


def test_failure_names_the_failed_task_first_and_keeps_what_was_published():
    out = er.outcome_of(CREATE, NEW, FAILED, FAILED_TASKS)
    assert out.physical_id == 'half-made-1'
    assert out.outputs == {'resource_id': 'half-made-1', 'n': 3}
    assert out.failure == er.Failure(
        er.WORKFLOW_FAILED, 'Mistral workflow thing_create ended ERROR: task '
        'boom failed: the thing could not be finished (execution '
        'exec-create)')


def test_failure_without_tasks_quotes_state_info():
    out = er.outcome_of(CREATE, NEW, FAILED)
    assert out.failure.reason == (
        'Mistral workflow thing_create ended ERROR: %s (execution '
        'exec-create)' % FAILED_INFO.strip())
    # The failed CREATE's execution stays the id, for DELETE to clean up.
    assert out.physical_id == 'exec-create'
    assert out.outputs is None


def test_failure_without_any_reason_says_so():
    out = er.outcome_of(UPDATE, MADE, ex.Execution('ERROR', None, '{}'))
    assert 'ended ERROR: (no state_info)' in out.failure.reason
    assert out.physical_id == 'thing-1' and out.outputs is None


def test_long_errors_are_clipped():
    tasks = [ex.Task('t', 'ERROR', 'e' * 1000, '{}')]
    reason = er.outcome_of(UPDATE, MADE, ex.Execution('ERROR', None, ''),
                           tasks).failure.reason
    assert 'task t failed: ' + 'e' * 600 + '... (execution' in reason


def test_every_failed_task_is_named():
    tasks = [ex.Task('a', 'ERROR', 'first', '{}'),
             ex.Task('b', 'ERROR', 'second', '{}')]
    reason = er.outcome_of(UPDATE, MADE, FAILED, tasks).failure.reason
    assert 'task a failed: first; task b failed: second' in reason


def test_cancelled_execution_fails_and_keeps_partial_outputs():
    out = er.outcome_of(CREATE, NEW, CANCELLED, CANCELLED_TASKS)
    assert out == er.Outcome('exec-create', {'made': True}, er.Failure(
        er.WORKFLOW_FAILED, 'Mistral workflow thing_create ended CANCELLED: '
        'Heat stack s: Stack CREATE cancelled (execution exec-create)'))


def test_partial_result_after_a_cancel_by_heat():
    out = er.partial_outcome(CREATE, NEW, CANCELLED_TASKS)
    assert out == er.Outcome('exec-create', {'made': True}, None)
    # Nothing published: nothing to write, the held id kept.
    outcome = er.partial_outcome(UPDATE, MADE, [CANCELLED_TASKS[1]])
    assert outcome == er.Outcome('thing-1', None, None)


def test_partial_results_ignore_a_bad_id_and_unreadable_values():
    tasks = [ex.Task('a', 'SUCCESS', None, '{"resource_id": [1], "k": 1}'),
             ex.Task('b', 'SUCCESS', None, 'not json'),
             ex.Task('c', 'ERROR', 'x', '{"lost": 1}')]
    out = er.partial_outcome(CREATE, NEW, tasks)
    assert out == er.Outcome('exec-create', {'resource_id': [1], 'k': 1},
                             None)


def test_unknown_state_fails_clearly():
    out = er.outcome_of(CREATE, NEW, ex.Execution('WEIRD', None, None))
    assert out == er.Outcome('exec-create', None, er.Failure(
        er.WORKFLOW_FAILED, 'Mistral execution exec-create of workflow '
        'thing_create is in unknown state WEIRD'))


@pytest.mark.parametrize('state, running, needs_tasks', [
    ('IDLE', True, False), ('RUNNING', True, False), ('PAUSED', True, False),
    ('SUCCESS', False, False), ('ERROR', False, True),
    ('CANCELLED', False, True)])
def test_states(state, running, needs_tasks):
    assert ex.is_running(state) is running
    assert ex.needs_tasks(state) is needs_tasks


def test_create_gets_its_params_as_they_are():
    params = {'env': {'sleep': 3}, 'task_name': 't'}
    assert er.execution_params('CREATE', params, {'a': 1}) == params


def test_later_actions_get_the_outputs_in_their_environment():
    assert er.execution_params('SUSPEND', {}, {'a': 1}) == {
        'env': {'heat_extresource_data': {'a': 1}}}
    params = {'env': {'note': 'x'}, 'task_name': 't'}
    got = er.execution_params('UPDATE', params, {'a': 1},
                              {'heat_extresource_previous_input': {'s': 1}})
    assert got == {'task_name': 't', 'env': {
        'note': 'x', 'heat_extresource_data': {'a': 1},
        'heat_extresource_previous_input': {'s': 1}}}
    assert params == {'env': {'note': 'x'}, 'task_name': 't'}  # unchanged


def test_delete_is_skipped_only_when_create_never_started():
    assert not er.runs_delete(True, er.Held(None, {}))
    assert er.runs_delete(True, er.Held('exec-create', {}))
    assert er.runs_delete(True, er.Held(None, {'made': True}))
    assert er.runs_delete(False, er.Held(None, {}))


# -- outputs over the limit ----------------------------------------------

def _held_with_new_id(reason):
    """A failed UPDATE's outcome: MADE's outputs, thing-2 returned."""
    return er.Outcome('thing-2', {'resource_id': 'thing-2', 'size': 1},
                      er.Failure(er.BAD_RESULT, reason))


def test_oversized_outputs_keep_the_held_ones_and_the_new_resource_id():
    execution = ex.Execution('SUCCESS', None,
                             '{"resource_id": "thing-2", "blob": "xx"}')
    outcome = er.outcome_of(UPDATE, MADE, execution)
    out = er.oversized(UPDATE, MADE, outcome, 70000, 65536)
    assert out == _held_with_new_id(
        'workflow thing_update returned outputs of 70000 bytes as JSON '
        '(with the outputs kept before): more than the 65536 bytes Heat '
        'keeps for this resource ([heat_lifecycle_plugins] '
        'mistral_max_output_bytes); they were not stored, Mistral execution '
        'exec-update still has them')


def test_oversized_create_without_resource_id_keeps_nothing_new():
    execution = ex.Execution('SUCCESS', None, '{"blob": "xx"}')
    outcome = er.outcome_of(CREATE, NEW, execution)
    out = er.oversized(CREATE, NEW, outcome, 2000000, 1048576)
    assert (out.physical_id, out.outputs) == ('exec-create', {})


def test_oversized_delete_completes_keeping_nothing_new():
    """Once DELETE_FAILED on every retry (the fuzz search's find)."""
    delete = er.Run('DELETE', 'thing_delete', 'exec-delete')
    execution = ex.Execution('SUCCESS', None, '{"blob": "xx"}')
    outcome = er.outcome_of(delete, MADE, execution)
    out = er.oversized(delete, MADE, outcome, 2000000, 1048576)
    assert out.failure is None
    assert out.outputs == MADE.outputs


# -- CHECK ---------------------------------------------------------------

CHECK = er.Run('CHECK', 'thing_check', 'exec-check')


@pytest.mark.parametrize('output', [
    '{"drift": null, "reason": "all fine"}', '{}', '{"drift": false}',
    '{"drift": ""}'])
def test_check_in_sync_merges_nothing(output):
    execution = ex.Execution('SUCCESS', None, output)
    assert er.check_outcome(CHECK, MADE, execution) == er.Outcome(
        'thing-1', None, None, None)


@pytest.mark.parametrize('drift', ['missing', 'different'])
def test_check_drift_fails_with_the_workflows_reason(drift):
    execution = ex.Execution(
        'SUCCESS', None, '{"drift": "%s", "reason": "size is 9, not 2", '
        '"resource_id": "other"}' % drift)
    out = er.check_outcome(CHECK, MADE, execution)
    assert (out.physical_id, out.outputs) == ('thing-1', None)
    assert out.drift == er.Drift(drift, 'size is 9, not 2')
    assert out.failure == er.Failure(
        er.DRIFTED, 'CHECK workflow thing_check found the external thing '
        '%s: size is 9, not 2 (execution exec-check)' % drift)


def test_check_drift_without_reason():
    execution = ex.Execution('SUCCESS', None, '{"drift": "missing"}')
    assert er.check_outcome(CHECK, MADE, execution).drift == er.Drift(
        'missing', '(no reason given)')


def test_check_with_an_unknown_drift_is_a_bad_result():
    execution = ex.Execution('SUCCESS', None, '{"drift": "gone"}')
    out = er.check_outcome(CHECK, MADE, execution)
    assert out.drift is None
    assert out.failure == er.Failure(
        er.BAD_RESULT, 'CHECK workflow thing_check returned drift "gone": '
        'it must be "missing", "different" or null')


def test_a_failed_check_workflow_fails_the_check_and_merges_nothing():
    run = er.Run('CHECK', 'thing_check', 'exec-check')
    out = er.check_outcome(run, MADE, FAILED, FAILED_TASKS)
    assert (out.physical_id, out.outputs, out.drift) == ('thing-1', None,
                                                         None)
    assert out.failure.kind == er.WORKFLOW_FAILED
    assert 'task boom failed: the thing could not be finished' in \
        out.failure.reason


# -- replace_decision ----------------------------------------------------

DECIDE = er.Run('REPLACE_DECISION', 'thing_decide', 'exec-decide')


@pytest.mark.parametrize('output,replace', [
    ('{"replace": true}', True), ('{"replace": false, "why": "x"}', False)])
def test_decision(output, replace):
    execution = ex.Execution('SUCCESS', None, output)
    assert er.replace_decision(DECIDE, execution) == (replace, None)


@pytest.mark.parametrize('output,shown', [
    ('{"replace": "yes"}', '"yes"'), ('{}', 'null'), ('[true]', 'null')])
def test_a_decision_that_is_not_a_boolean_is_a_bad_result(output, shown):
    execution = ex.Execution('SUCCESS', None, output)
    assert er.replace_decision(DECIDE, execution) == (None, er.Failure(
        er.BAD_RESULT, 'replace_decision workflow thing_decide returned '
        'replace = %s: it must be true (replace the resource) or false '
        '(update it in place)' % shown))


def test_a_failed_decision_is_a_workflow_failure():
    replace, failure = er.replace_decision(DECIDE, FAILED, FAILED_TASKS)
    assert replace is None and failure.kind == er.WORKFLOW_FAILED
    assert failure.reason.startswith(
        'Mistral workflow thing_decide ended ERROR: task boom failed')


# -- outputs that cannot be passed on --------------------------------------

LONE = 'caf\udce9'


@pytest.mark.parametrize('output, named, shown', [
    ({'word': LONE}, "'word'", r"'caf\udce9'"),
    ({'deep': {'list': [1, {'k': LONE}]}}, "'deep'", r"'caf\udce9'"),
    ({'deep': {LONE: 1}}, "'deep'", r"'caf\udce9'"),
    ({LONE: 'v'}, r"'caf\udce9'", r"'caf\udce9'"),
])
def test_an_output_with_a_lone_surrogate_fails_and_is_not_stored(
        output, named, shown):
    output = dict(output, resource_id='thing-2')
    out = er.outcome_of(UPDATE, MADE, ex.Execution('SUCCESS', None, output))
    assert out == _held_with_new_id(
        'UPDATE workflow thing_update returned output %s, where %s holds a '
        'lone surrogate, a character no UTF-8 text can carry: Heat cannot '
        'pass it on to the next workflow; the execution\'s outputs were not '
        'stored, Mistral execution exec-update still has them' % (
            named, shown))


def test_a_lone_surrogate_as_mistral_sends_it_in_json():
    execution = ex.Execution('SUCCESS', None, '{"word": "caf\\udce9"}')
    out = er.outcome_of(CREATE, NEW, execution)
    assert (out.physical_id, out.outputs) == ('exec-create', {})
    assert "output 'word', where 'caf\\udce9' holds" in out.failure.reason


def test_a_lone_surrogate_in_the_resource_id_keeps_the_held_id():
    execution = ex.Execution('SUCCESS', None, {'resource_id': LONE, 'a': 1})
    out = er.outcome_of(UPDATE, MADE, execution)
    assert (out.physical_id, out.outputs) == ('thing-1', MADE.outputs)
    assert "output 'resource_id', where" in out.failure.reason


def test_text_above_u_ffff_is_merged():
    execution = ex.Execution('SUCCESS', None, '{"word": "n\\ud83d\\ude00"}')
    out = er.outcome_of(UPDATE, MADE, execution)
    assert out == er.Outcome('thing-1', dict(MADE.outputs,
                                             word='n\U0001f600'), None)


def test_a_delete_with_a_lone_surrogate_completes_keeping_nothing_new():
    delete = er.Run('DELETE', 'thing_delete', 'exec-delete')
    out = er.outcome_of(delete, MADE, ex.Execution('SUCCESS', None,
                                                   {'word': LONE}))
    assert out == er.Outcome('thing-1', MADE.outputs, None)


def test_published_values_with_a_lone_surrogate_are_not_kept():
    tasks = [ex.Task('a', 'SUCCESS', None, {'resource_id': 'half-1'}),
             ex.Task('b', 'SUCCESS', None, {'k': [LONE]})]
    out = er.outcome_of(CREATE, NEW, FAILED, tasks)
    assert out.physical_id == 'half-1'
    assert out.outputs == {'resource_id': 'half-1'}
    assert out.failure.kind == er.WORKFLOW_FAILED
    assert er.partial_outcome(CREATE, NEW, tasks).outputs == {
        'resource_id': 'half-1'}


def test_held_outputs_with_a_lone_surrogate_are_kept_but_not_sent():
    held = {'resource_id': 'thing-1', 'word': 'caf\udce9',
            '\ud800key': 'x', 'deep': {'list': ['ok', '\udfff']},
            'astral': 'n\U0001f600'}
    sendable, withheld = er.sendable_outputs(held)
    assert sendable == {'resource_id': 'thing-1', 'astral': 'n\U0001f600'}
    assert withheld == ['word', '\ud800key', 'deep']
    assert er.sendable_outputs(None) == ({}, [])


def test_the_withheld_outputs_event_names_each_storably():
    reason = er.withheld_reason('UPDATE', 'thing_update',
                                ['word', '\ud800key'])
    assert reason == (
        "UPDATE workflow thing_update was not sent the held outputs 'word', "
        "'\\ud800key': each holds a lone surrogate, stored by an earlier "
        "version, that no workflow can be sent; the output attribute still "
        "has them")
    assert er.withheld_reason('DELETE', 'thing_delete', ['word']).startswith(
        "DELETE workflow thing_delete was not sent the held output 'word':")
