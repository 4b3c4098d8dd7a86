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
"""Every message our types raise or store is storable, bounded text.

Heat keeps a failed action's error as a status_reason; a value that
arrives at run time (get_attr) is quoted there. Each path quotes a value
above U+FFFF, a lone surrogate and an over-long value.
"""

import importlib
import types

from heat.common import exception
import pytest

from heat_lifecycle_plugins.clients import executions
from heat_lifecycle_plugins.clients import mistral
from heat_lifecycle_plugins.clients import mistral_plugin
from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.resources import action_constraints
from heat_lifecycle_plugins.resources import common
from heat_lifecycle_plugins.resources import component_config
from heat_lifecycle_plugins.resources import execution_results as results

BAD = ['\U0001f600', 'caf\udce9', 'x' * 70000]
IDS = ['above U+FFFF', 'lone surrogate', 'over-long']
# A message quotes the value cut to its own limit, within the text bound.
LIMIT = protocol.MAX_STORED_TEXT + len('...')


def assert_storable(text):
    assert protocol.is_storable(text), text[:300]
    assert len(text) <= LIMIT, len(text)


@pytest.mark.parametrize('text', BAD + ['x' * (protocol.MAX_STORED_TEXT + 1)],
                         ids=IDS + ['one over the bound'])
def test_storable_text_is_storable_and_bounded(text):
    assert_storable(protocol.storable_text(text))


def test_storable_text_keeps_text_that_fits():
    assert protocol.storable_text('caf\xe9 \u2603') == 'caf\xe9 \u2603'


@pytest.mark.parametrize('value', BAD, ids=IDS)
@pytest.mark.parametrize('entry', [
    lambda v: v,
    lambda v: {'tool': 'script', 'config': [v]},
    lambda v: {'tool': 'script', 'config': 'x', 'actions': [v]},
], ids=['entry', 'config', 'action'])
def test_a_component_entry_is_quoted_storably(entry, value):
    found = component_config.problems([entry(value)])
    assert found
    for problem in found:
        assert_storable(problem)


@pytest.mark.parametrize('value', BAD, ids=IDS)
@pytest.mark.parametrize('spec', [
    lambda v: v,
    lambda v: {'workflow': 'w', v: 1},
    lambda v: {'workflow': [v]},
    lambda v: {'workflow': 'w', 'params': [v]},
], ids=['spec', 'unknown key', 'workflow', 'params'])
def test_an_external_action_is_quoted_storably(spec, value):
    assert_storable(action_constraints.workflow_action_problem(
        'CREATE', spec(value)))


@pytest.mark.parametrize('value', BAD, ids=IDS)
def test_an_action_key_is_quoted_storably(value):
    assert_storable(action_constraints.workflow_actions_problem(
        {value: {'workflow': 'w'}}))


@pytest.mark.parametrize('value', BAD, ids=IDS)
def test_a_missing_workflow_is_named_storably(value):
    context = types.SimpleNamespace(project_name='demo', project_id='p')
    assert_storable(mistral_plugin.missing_workflow(
        value, 'http://mistral', context))


REFUSED = 'refused'


class _Plugin(mistral_plugin.LifecycleMistralClientPlugin):
    """The plugin with a client that answers `answer` (or raises it)."""

    def __init__(self, answer):
        self._answer = answer

    def client(self, version=None):
        def workflow_inputs(workflow):
            if self._answer == REFUSED:  # as MistralClient words it
                raise mistral.MistralError(
                    'Mistral refused to get workflow %s: HTTP 400' % workflow,
                    400)
            return self._answer
        return types.SimpleNamespace(workflow_inputs=workflow_inputs,
                                     endpoint='http://mistral')

    @property
    def context(self):
        return types.SimpleNamespace(project_name='demo', project_id='p')


@pytest.mark.parametrize('value', BAD, ids=IDS)
@pytest.mark.parametrize('answer', [None, REFUSED],
                         ids=['missing', 'mistral error'])
def test_an_unavailable_workflow_is_named_storably(answer, value):
    with pytest.raises(mistral_plugin.WorkflowUnavailable) as raised:
        _Plugin(answer).workflow_inputs(value)
    assert_storable(str(raised.value))


def _failures(run):
    """The reason of every outcome that quotes the run's workflow."""
    held = results.Held(None, {})
    failed = executions.Execution('ERROR', 'boom', None)
    yield results.success_outcome(run, held, '[1]').failure.reason
    yield results.success_outcome(run, held, {'resource_id': [1]}
                                  ).failure.reason
    yield results.outcome_of(run, held, failed).failure.reason
    yield results.outcome_of(run, held, executions.Execution(
        'ODD', None, None)).failure.reason
    yield results.oversized(run, held, results.Outcome(None, {}, None),
                            10, 1).failure.reason
    yield results.check_outcome(run, held, executions.Execution(
        'SUCCESS', None, {'drift': 'odd'})).failure.reason
    yield results.check_outcome(run, held, executions.Execution(
        'SUCCESS', None, {'drift': 'missing'})).failure.reason
    _replace, failure = results.replace_decision(run, executions.Execution(
        'SUCCESS', None, {}))
    yield failure.reason


@pytest.mark.parametrize('value', BAD, ids=IDS)
def test_a_workflow_is_named_storably_in_every_result(value):
    """Run.workflow is quoted by every message that names a workflow.

    Those of execution_results, workflow_runs (Mistral silent, execution
    cancelled) and update_decisions (no decision in time).
    """
    run = results.Run('CREATE', value, 'exec-1')
    assert_storable(run.workflow)
    for reason in _failures(run):
        assert_storable(reason)


@pytest.mark.parametrize('value', BAD[:2], ids=IDS[:2])
def test_a_resource_id_the_database_cannot_hold_is_refused(value):
    """It would become the physical_resource_id column's value."""
    run = results.Run('CREATE', 'w', 'exec-1')
    outcome = results.success_outcome(run, results.Held(None, {}),
                                      {'resource_id': 'id-' + value})
    assert outcome.physical_id == 'exec-1'
    assert_storable(outcome.failure.reason)


class _Parsed(object):
    """Heat's Resource.reparse, as far as the mixin sees it."""

    def __init__(self, value):
        self._value = value

    def reparse(self, client_resolve=True):
        def validate(with_value=True):  # Heat's own wording quotes it
            raise exception.StackValidationFailed(
                path=['resources', 'r', 'properties', 'resources'],
                message='"%s" is not a list' % self._value)
        self.properties = types.SimpleNamespace(validate=validate)


class _Checked(common.StorableErrors, _Parsed):
    pass


@pytest.mark.parametrize('value', BAD, ids=IDS)
def test_the_create_property_validation_fails_storably(value):
    """Heat's create runs properties.validate outside any handle_*."""
    res = _Checked(value)
    res.reparse()
    with pytest.raises(exception.StackValidationFailed) as raised:
        res.properties.validate()
    assert_storable(str(raised.value))
    assert str(raised.value).startswith(
        'resources.r.properties.resources: "')


def _handlers(cls):
    """{name: method} of what Heat calls to run an action on cls."""
    return {name: getattr(cls, name) for name in dir(cls)
            if common.HANDLER.match(name) and
            callable(getattr(cls, name, None))}


@pytest.mark.parametrize('module, name', [
    ('external_resource', 'ExternalResource'),
    ('resource_chain', 'ResourceChain'),
    ('software_component', 'SoftwareComponent'),
    ('software_deployment', 'SoftwareDeployment')])
def test_every_handler_of_our_types_makes_its_errors_storable(module, name):
    """Ours and those inherited from Heat's classes alike."""
    cls = getattr(importlib.import_module(
        'heat_lifecycle_plugins.resources.' + module), name)
    found = _handlers(cls)
    assert {'handle_create', 'handle_update', 'handle_delete'} <= set(found)
    unwrapped = sorted(n for n, handler in found.items()
                       if not getattr(handler, 'storable_errors', False))
    assert unwrapped == []


@pytest.mark.parametrize('value', BAD, ids=IDS)
def test_a_wrapped_check_keeps_the_error_type_and_stores(value):
    def check(_self):
        raise exception.ResourceFailure(exception.Error(value), None,
                                        'CREATE')
    with pytest.raises(exception.ResourceFailure) as raised:
        common.storable_errors(check)(None)
    assert_storable(str(raised.value))
