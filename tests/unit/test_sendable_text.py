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
"""Text Mistral cannot take (a lone surrogate) never reaches it.

A template value is refused by the property's constraint; one that comes
through get_attr is refused before the execution starts, the
replace_decision's too (it runs before Heat checks an update's
properties), naming the resource, the property and the value.
"""

from heat.common import exception
from heat.engine import constraints
import pytest

from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.resources import action_constraints as ac
from heat_lifecycle_plugins.resources import external_resource as er

LONE = 'caf\udce9'
SHOWN = repr(LONE)  # 'caf\\udce9': escaped, storable


@pytest.mark.parametrize('value', [
    LONE, {'k': LONE}, {LONE: 1}, [1, [LONE]], {'a': {'b': ['x', LONE]}}])
def test_a_lone_surrogate_anywhere_is_a_problem(value):
    problem = protocol.sendable_problem(value)
    assert SHOWN in problem and 'lone surrogate' in problem
    assert protocol.is_storable(problem)


@pytest.mark.parametrize('value', [
    None, 1, 'café', 'n\U0001f600', {'k': ['\U0001f600', 2.5]}, []])
def test_other_text_is_sent(value):
    """Above U+FFFF included: JSON carries it as a surrogate pair."""
    assert protocol.sendable_problem(value) is None


def test_the_constraint_refuses_by_value():
    with pytest.raises(ValueError) as raised:
        ac.sendable(constraints.Schema.MAP_TYPE).validate({'size': LONE})
    assert SHOWN in str(raised.value)


def test_an_action_with_a_lone_surrogate_in_its_params_is_refused():
    with pytest.raises(ValueError) as raised:
        ac.valid_workflow_actions().validate(
            {'CREATE': {'workflow': 'c', 'params': {'env': {'k': LONE}}}})
    assert str(raised.value).startswith('actions.CREATE: ' + SHOWN)


@pytest.mark.parametrize('name', ['input', 'description', 'action_inputs'])
def test_every_text_property_sent_to_mistral_is_constrained(name):
    schema = er.ExternalResource.properties_schema[name]
    assert any(c._problem_of is protocol.sendable_problem
               for c in schema.constraints
               if hasattr(c, '_problem_of')), name


class _Template(object):
    RESOURCES = 'resources'

    @staticmethod
    def get_section_name(section):
        return section


class _Stack(object):
    t = _Template()


_STACK = _Stack()  # held: the resource keeps a weak reference


class _NoMistral(object):
    def __getattr__(self, name):
        raise AssertionError('Mistral was asked to %s' % name)


def _thing():
    """An ExternalResource as far as starting an execution sees it."""
    res = object.__new__(er.ExternalResource)
    res.name = 'thing'
    res.stack = _STACK
    res._mistral = _NoMistral
    return res


DECIDING = {'input': {'size': 1}, 'description': 'd', 'actions': {},
            'replace_decision': {'workflow': 'decide', 'params': {}}}


@pytest.mark.parametrize('name, value, said', [
    ('input', {'size': LONE}, 'input'),
    ('description', LONE, 'description'),
    ('replace_decision', {'workflow': 'decide',
                          'params': {'env': {'k': LONE}}},
     'replace_decision'),
])
def test_a_replace_decision_with_a_lone_surrogate_is_never_started(
        name, value, said):
    """Refused as the update's failure, naming resource, property, value."""
    props = dict(DECIDING, **{name: value})
    with pytest.raises(exception.ResourceFailure) as raised:
        _thing()._decides_replace(props, {'size': 1})
    message = str(raised.value)
    assert 'resources.thing.properties.%s' % said in message, message
    assert SHOWN in message and protocol.is_storable(message)


def test_requested_inputs_with_a_lone_surrogate_are_never_started():
    props = dict(DECIDING, actions={'ROTATE': {'workflow': 'r'}})
    with pytest.raises(exception.StackValidationFailed) as raised:
        _thing()._start('ROTATE', props, extra_input={'k': [LONE]})
    assert 'resources.thing.properties.action_inputs' in str(raised.value)


def test_an_action_with_a_lone_surrogate_in_its_params_is_never_started():
    props = dict(DECIDING, actions={'DELETE': {
        'workflow': 'd', 'params': {'env': {LONE: 1}}}})
    with pytest.raises(exception.StackValidationFailed) as raised:
        _thing()._start('DELETE', props)
    assert 'resources.thing.properties.actions.DELETE' in str(raised.value)
