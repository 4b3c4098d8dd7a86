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
"""Errors of our handlers, made storable (resources.common)."""

from heat.common import exception
import pytest

from heat_lifecycle_plugins.resources import common

ABOVE_U_FFFF = 'v\U00022098'


def _raising(exc):
    @common.storable_errors
    def handler(res, *args, **kwargs):
        raise exc
    return handler


def test_a_heat_error_keeps_its_type_path_and_wording():
    error = exception.StackValidationFailed(
        error='Property error', path=['resources', 'chain', ABOVE_U_FFFF],
        message='"%s" is not a string' % ABOVE_U_FFFF)
    with pytest.raises(exception.StackValidationFailed) as raised:
        _raising(error)(None)
    assert raised.value is error
    assert str(error) == ('Property error: resources.chain.v\ufffd: '
                          '"v\ufffd" is not a string')
    assert error.error_message == '"v\ufffd" is not a string'
    assert error.path == ['resources', 'chain', 'v\ufffd']
    wrapped = exception.ResourceFailure(error, None, 'UPDATE')
    assert '\U00022098' not in str(wrapped)


def test_another_error_becomes_a_heat_error_with_storable_text():
    error = ValueError('bad %s' % ABOVE_U_FFFF)
    with pytest.raises(exception.Error) as raised:
        _raising(error)(None)
    assert str(raised.value) == 'bad v\ufffd'
    assert raised.value.__cause__ is error


@pytest.mark.parametrize('error', [
    ValueError('caf\xe9'),
    exception.StackValidationFailed(message='caf\xe9')])
def test_a_storable_error_is_raised_as_it_was(error):
    with pytest.raises(type(error)) as raised:
        _raising(error)(None)
    assert raised.value is error
    assert str(error) == 'caf\xe9'


def test_what_the_handler_returns_is_returned():
    @common.storable_errors
    def handler(res, value):
        return value
    assert handler(None, 7) == 7


def test_a_value_from_a_function_anywhere_on_its_path_came_at_run_time():
    from heat.engine.cfn import functions as cfn_functions
    later = cfn_functions.GetAtt(None, 'Fn::GetAtt', ['bad', 'value'])
    path = ('actions', 'DELETE', 'workflow')
    assert common.came_at_run_time({'actions': later}, path)
    assert common.came_at_run_time({'actions': {'DELETE': later}}, path)
    assert common.came_at_run_time(
        {'actions': {'DELETE': {'workflow': later}}}, path)
    assert not common.came_at_run_time(
        {'actions': {'DELETE': {'workflow': 'delete_thing'}}}, path)
    assert not common.came_at_run_time({'actions': {'CREATE': later}}, path)
    assert not common.came_at_run_time({}, path)
