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
"""What must hold for any result a Mistral execution reports.

outcome_of(), check_outcome() and replace_decision() answer with an
Outcome (a decision) for any state, state_info, output and tasks: a
physical id Heat can keep, a failure of a known kind whose reason stays
short. Read through our client from a Mistral stand-in (only for this:
the real Mistral is covered elsewhere), any answer gives values or a
MistralError with a short message, never another exception.

A case of results() holds the values as the client reports them; a case
of answers() the HTTP answers, [status, body], body a JSON value (sent
as JSON) or bytes (sent as they are). Execution ids are generated: the
one Mistral answers a start with is kept (a string of at most 255
characters the database holds) or refused with a short MistralError.
"""

import atexit

from hypothesis import strategies as st
from keystoneauth1 import token_endpoint
from oslo_serialization import jsonutils

from heat_lifecycle_plugins.clients import executions
from heat_lifecycle_plugins.clients import mistral
from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.resources import execution_results as er
from tests.agent import http_stand_ins
from tests.fuzz import strategies

ACTIONS = ('CREATE', 'UPDATE', 'DELETE', 'CHECK', 'BACKUP')
STATES = executions.RUNNING_STATES + (
    executions.SUCCESS, executions.ERROR, executions.CANCELLED, 'success',
    '', 'WEIRD', None)
OUTPUT_KEYS = (er.RESOURCE_ID, er.DRIFT, er.REASON, er.REPLACE, 'result')
KINDS = (er.WORKFLOW_FAILED, er.BAD_RESULT, er.DRIFTED)
# A reason quotes a few clipped parts (state_info, tasks' errors, values).
MAX_REASON = 4 * er.MAX_REASON_PART
# Ids in a URL path as they are (the stand-in answers by path).
_PATH_SAFE = st.text(st.sampled_from('abcdef0123456789-_ABCXYZ'),
                     min_size=1, max_size=64)


# What Mistral's JSON can return ("caf\udce9"): no UTF-8 text carries it.
LONE = 'caf\udce9'

# The id of the cases found before ids were generated (regressions).
FOUND_WITH_ID = 'exec-1'


def path_safe_ids():
    return st.uuids().map(str) | _PATH_SAFE


def execution_ids():
    """Any id Mistral could answer a start with: kept or not."""
    return (path_safe_ids() | strategies.texts(40) |
            strategies.big_texts() | strategies.scalars() |
            st.sampled_from(('', 'x' * 255, 'x' * 256, 'caf\udce9',
                             '\U0001f600', [], {})))


def _refused_id(problem):
    assert isinstance(problem, str) and protocol.is_storable(problem)
    assert len(problem) <= MAX_REASON, len(problem)


def _outputs():
    """Outputs: a map with the keys that mean something, or anything."""
    special = st.dictionaries(
        st.sampled_from(OUTPUT_KEYS) | strategies.texts(8),
        st.sampled_from((er.MISSING, er.DIFFERENT, True, False, 'x' * 256,
                         'thing-1', 7, LONE, ['n\U0001f600'])) |
        strategies.json_values(),
        max_size=4)
    return special | strategies.json_values()


def _planted(wrappers):
    """{'word': LONE inside lists (None) and maps ('k') as wrappers say}."""
    value = LONE
    for key in wrappers:
        value = [value] if key is None else {key: value}
    return {'word': value}


def _with_lone_surrogate():
    """Outputs holding a lone surrogate: in a value at any depth, a key."""
    deep = st.lists(st.sampled_from(('k', None)), min_size=1,
                    max_size=strategies.MAX_DEPTH).map(_planted)
    planted = deep | st.sampled_from(({LONE: 1}, {er.RESOURCE_ID: LONE},
                                      {'k': ['n\U0001f600', LONE]}))
    return st.builds(lambda out, bad: {**out, **bad}, st.dictionaries(
        st.sampled_from(OUTPUT_KEYS) | strategies.texts(8),
        strategies.json_values(), max_size=3), planted)


def mistral_values():
    """An output or published value: a JSON string (Mistral 23) or not."""
    return (_outputs().map(jsonutils.dumps) | _outputs() |
            _with_lone_surrogate().map(jsonutils.dumps) |
            st.sampled_from(('', ' ', '{', '{"a": 1', 'null', '[1]', 'NaN',
                             '{"resource_id": ' + '9' * 5000 + '}')) |
            strategies.strings())


def states():
    return st.sampled_from(STATES) | strategies.json_values()


def results():
    task = st.tuples(strategies.texts(12) | strategies.big_texts(),
                     st.sampled_from(('ERROR', 'SUCCESS')) | states(),
                     strategies.scalars() | strategies.json_values(),
                     mistral_values())
    return st.fixed_dictionaries({
        'action': st.sampled_from(ACTIONS),
        'execution_id': execution_ids(),
        'held': st.tuples(st.none() | st.just('thing-1'),
                          st.none() | strategies.maps()),
        'execution': st.tuples(st.just(executions.SUCCESS) | states(),
                               strategies.scalars() |
                               strategies.json_values(),
                               mistral_values() | _with_lone_surrogate()),
        'tasks': st.lists(task, max_size=4) |
        st.builds(lambda n, t: [t] * n, st.sampled_from((5, 50, 3000)),
                  task)})


def _bounded_failure(failure):
    if failure is None:
        return
    assert isinstance(failure, er.Failure) and failure.kind in KINDS
    assert isinstance(failure.reason, str)
    assert len(failure.reason) <= MAX_REASON, len(failure.reason)
    assert protocol.is_storable(failure.reason), failure.reason[:300]


def _check_outcome(outcome, run):
    assert isinstance(outcome, er.Outcome), outcome
    physical_id = outcome.physical_id
    assert physical_id is None or (
        isinstance(physical_id, str) and protocol.is_storable(physical_id)
        and 0 < len(physical_id) <= er.MAX_PHYSICAL_ID), physical_id
    assert outcome.outputs is None or isinstance(outcome.outputs, dict)
    _bounded_failure(outcome.failure)
    if outcome.drift is not None:
        assert run.action == er.CHECK
        assert outcome.drift.drift in (er.MISSING, er.DIFFERENT)


def _passed_on_whole(run, held, execution, outcome):
    """Outputs the next workflow is sent hold no lone surrogate.

    From held outputs that hold none (what we stored), whatever the
    execution returned; a SUCCESS whose outputs hold one fails (a DELETE
    only keeps nothing new).
    """
    if protocol.sendable_problem(held.outputs) is not None:
        return
    assert protocol.sendable_problem(outcome.outputs) is None, outcome
    output = er._as_map(execution.output)
    if (execution.state == executions.SUCCESS and
            isinstance(output, dict) and run.action != er.DELETE and
            protocol.sendable_problem(output) is not None):
        assert outcome.failure is not None, outcome
        assert 'lone surrogate' in outcome.failure.reason


def _decide(action, held, execution, tasks, execution_id):
    """Every decision on one execution, checked.

    An id the client refuses never starts a Run: its refusal is checked.
    """
    problem = executions.execution_id_problem(execution_id)
    if problem is not None:
        _refused_id(problem)
        return
    run = er.Run(action, 'thing_%s' % action.lower(), execution_id)
    outcome = er.outcome_of(run, held, execution, tasks)
    _check_outcome(outcome, run)
    _passed_on_whole(run, held, execution, outcome)
    if action == er.CHECK:
        _check_outcome(er.check_outcome(run, held, execution, tasks), run)
    replace, failure = er.replace_decision(run, execution, tasks)
    assert (replace is None) != (failure is None), (replace, failure)
    assert replace in (None, True, False)
    _bounded_failure(failure)


def outcomes(case):
    """Any values Mistral reports get an Outcome, its reason bounded."""
    held = er.Held(*case['held'])
    execution = executions.Execution(*case['execution'])
    tasks = [executions.Task(*task) for task in case['tasks']]
    _decide(case['action'], held, execution, tasks,
            case.get('execution_id', FOUND_WITH_ID))


# -- through the client, from a Mistral stand-in ------------------------------

class MistralStandIn(http_stand_ins._Server):
    """Answers the reads of one execution and of its tasks."""

    def __init__(self):
        self.answers = {}  # path -> (status, body)
        super(MistralStandIn, self).__init__()

    @property
    def endpoint(self):
        return self.base + '/v2'

    def handle(self, method, path, headers, raw):
        status, body = self.answers.get(path, (404, {'faultstring': path}))
        if not isinstance(body, bytes):
            body = jsonutils.dump_as_bytes(body)
        return status, {}, body


_STAND_IN = []


def stand_in():
    """The stand-in of this process, started on first use."""
    if not _STAND_IN:
        _STAND_IN.append(MistralStandIn())
        atexit.register(stop)
    return _STAND_IN[0]


def stop():
    while _STAND_IN:
        _STAND_IN.pop().stop()


def _body(shaped):
    """A body: mostly of the shape Mistral answers with, else anything."""
    return (shaped | strategies.json_values() |
            st.binary(max_size=40) | strategies.files())


def answers():
    execution = st.fixed_dictionaries(
        {'state': states()},
        optional={'id': path_safe_ids(),
                  'state_info': strategies.scalars(),
                  'output': mistral_values(), 'manager': st.just(1),
                  '__class__': st.just('x'), 'to_dict': st.just(2)})
    task = st.fixed_dictionaries(
        {'name': strategies.texts(12), 'state': states()},
        optional={'state_info': strategies.scalars(),
                  'published': mistral_values()})
    tasks = st.fixed_dictionaries(
        {'tasks': st.lists(task | strategies.json_values(), max_size=3) |
         strategies.json_values()})
    status = st.sampled_from((200, 200, 200, 201, 204, 400, 404, 409, 500,
                              503))
    started = st.fixed_dictionaries({'state': st.just('RUNNING'),
                                     'id': execution_ids()})
    return st.fixed_dictionaries({
        'action': st.sampled_from(ACTIONS),
        'read_id': path_safe_ids(),
        # Mostly a start Mistral accepted (HTTP 201), its id any.
        'started': st.tuples(st.sampled_from((201, 201, 201, 200, 400, 500)),
                             started | _body(started)),
        'execution': st.tuples(status, _body(execution)),
        'tasks': st.tuples(status, _body(tasks))})


def _read(read, endpoint):
    """read()'s values, or None after a MistralError (checked)."""
    try:
        return read()
    except mistral.MistralError as exc:
        message = str(exc)
        assert endpoint in message, message[:300]
        assert len(message) <= MAX_REASON, len(message)
        # It becomes a status_reason: text the database can hold.
        assert protocol.is_storable(message), message[:300]
        return None


def client_results(case):
    """The client reads any answer as values or a short MistralError."""
    server = stand_in()
    read_id = case.get('read_id', FOUND_WITH_ID)
    path = '/v2/executions/%s' % read_id
    server.answers = {'/v2/executions': tuple(case.get('started', (404, {}))),
                      path: tuple(case['execution']),
                      path + '/tasks': tuple(case['tasks'])}
    endpoint = server.endpoint
    client = mistral.MistralClient(endpoint,
                                   token_endpoint.Token(endpoint, 'token'))
    client.retries = 0
    started = _read(lambda: client.start_execution('thing_create', {}, '',
                                                   {}), endpoint)
    if started is not None:  # what Heat keeps as a physical id
        assert isinstance(started, str) and protocol.is_storable(started) \
            and 0 < len(started) <= er.MAX_PHYSICAL_ID, started
    execution = _read(lambda: client.execution(read_id), endpoint)
    tasks = _read(lambda: client.tasks(read_id), endpoint)
    if execution is None:
        return
    assert isinstance(execution, executions.Execution)
    for task in tasks or ():
        assert isinstance(task, executions.Task)
    _decide(case['action'], er.Held(None, {}), execution, tasks or (),
            read_id)
