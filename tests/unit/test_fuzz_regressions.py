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
"""Cases the fuzz tier (tests/fuzz) found, each once a defect.

Each calls the fuzz check that failed with the case it failed on.
"""

import pytest

from heat_lifecycle_plugins.resources import deployment_signals
from heat_lifecycle_plugins.resources import execution_results
from tests.fuzz import checks_agent
from tests.fuzz import checks_requests
from tests.fuzz import checks_results
from tests.unit import test_deployment_signals


@pytest.fixture(scope='module', autouse=True)
def stand_ins():
    """The receiver and Mistral stand-in the checks start, then stopped."""
    yield
    checks_agent.stop()
    checks_results.stop()


# -- action names ------------------------------------------------------------

def test_an_action_name_with_a_trailing_newline_is_refused():
    checks_requests.action_name(case={'name': 'BACKUP\n'})


def test_a_long_action_name_is_refused_at_once():
    checks_requests.action_name(case={'name': ('\U000471f1' * 1048577)})


def test_a_long_action_name_is_shown_in_short():
    checks_requests.action_name(case={'name': ('b' * 5000)})


def test_an_action_name_above_u_ffff_is_quoted_as_storable_text():
    checks_requests.action_name(case={'name': 'B\U0002a7ab'})
    checks_requests.request_decisions(case={
        'prop_diff': {'action_request': 't2'}, 'last_token': 't1',
        'action': 'B\U0002a7ab', 'handled': {'CREATE'},
        'action_inputs': None, 'data': {}})


# -- Mistral execution results -----------------------------------------------

def test_a_workflow_failure_quotes_its_failed_tasks_in_short():
    checks_results.outcomes(case={
        'action': 'CREATE', 'held': (None, None),
        'execution': ('ERROR', None, None),
        'tasks': [('t', 'ERROR', 'boom', None)] * 3000})
    checks_results.outcomes(case={
        'action': 'CREATE', 'held': (None, None),
        'execution': ('ERROR', None, None),
        'tasks': [(('t' * 100000), 'ERROR', 'boom', None)]})


def test_an_unknown_execution_state_is_shown_in_short():
    checks_results.outcomes(case={
        'action': 'CREATE', 'held': (None, None),
        'execution': (('W' * 100000), None, None), 'tasks': []})


def test_a_mistral_answer_that_cannot_be_read_is_a_mistral_error():
    checks_results.client_results(case={
        'action': 'CREATE', 'execution': (200, b'0\x00'),
        'tasks': (200, b'')})
    checks_results.client_results(case={
        'action': 'CREATE', 'execution': (503, ['busy']),
        'tasks': (200, {'tasks': None})})


def test_a_mistral_answer_without_some_values_is_read():
    checks_results.client_results(case={
        'action': 'CREATE', 'execution': (200, {'state': 'ERROR'}),
        'tasks': (200, {'tasks': [{}]})})
    checks_results.client_results(case={
        'action': 'CREATE', 'execution': (200, {'id': 'exec-1'}),
        'tasks': (200, {'tasks': []})})


def test_a_long_mistral_error_is_quoted_in_short():
    checks_results.client_results(case={
        'action': 'CREATE', 'execution': (400, {'faultstring': 'x' * 100000}),
        'tasks': (200, {'tasks': []})})


def test_a_mistral_error_above_u_ffff_is_quoted_as_storable_text():
    """Its message becomes a status_reason MariaDB's utf8 must hold."""
    checks_results.client_results(case={
        'action': 'CREATE',
        'execution': (400, {'faultstring': 'no input "\U00022098"'}),
        'tasks': (200, {'tasks': []})})
    checks_results.client_results(case={
        'action': 'CREATE', 'execution': (200, {'state': 'SUCCESS'}),
        'tasks': (503, {'faultstring': 'caf\udce9'})})


# -- the agent's metadata -----------------------------------------------------

def test_a_component_tool_that_is_no_string_fails_its_deployment():
    checks_agent.agent_metadata(case={
        'kinds': ['component'], 'mutations': [['tool', 0, [None]]],
        'file': 'list'})


def test_a_signal_id_that_is_no_url_fails_only_its_signal():
    checks_agent.agent_metadata(case={
        'kinds': ['hook', 'hook'],
        'mutations': [['input', 0, 'deploy_signal_id', 'http://[::1']],
        'file': 'list'})
    checks_agent.agent_metadata(case={
        'kinds': ['hook', 'hook'],
        'mutations': [['input', 0, 'deploy_signal_id', [1]]],
        'file': 'list'})


def test_an_id_that_cannot_name_a_file_is_a_bad_id():
    checks_agent.agent_metadata(case={
        'kinds': ['hook'], 'mutations': [['set', 0, 'id', 'a\x00b']],
        'file': 'list'})
    checks_agent.agent_metadata(case={
        'kinds': ['hook'], 'mutations': [['set', 0, 'id', 'a\ud800b']],
        'file': 'list'})


def test_an_input_named_by_no_string_is_not_read():
    checks_agent.agent_metadata(case={
        'kinds': ['hook'],
        'mutations': [['input_item', 0, 0, {'name': [1]}]], 'file': 'list'})


# -- signal bodies (found through heat-api: HTTP 500, DataError) --------------

@pytest.mark.parametrize('status', ['IN_PROGRESS', 'FAILED'])
def test_a_reason_with_a_lone_surrogate_is_stored_as_utf8(status):
    # The JSON body {"deploy_status_reason": "caf\udce9"} decodes to a str
    # that UTF-8 (and so MariaDB) cannot hold.
    outcome = deployment_signals.signal_outcome(
        test_deployment_signals.snapshot(), {
            'deploy_status': status, 'deploy_status_reason': 'caf\udce9'})
    stored = outcome.values['status_reason']
    assert stored.endswith('caf\ufffd')
    stored.encode('utf-8')
    outcome.reason.encode('utf-8')


def test_a_workflow_text_with_a_lone_surrogate_is_clipped_to_utf8():
    assert execution_results.clip('caf\udce9') == 'caf\ufffd'


def test_a_reason_with_a_character_above_u_ffff_is_stored():
    # Found by the long fuzz run: a map reason holding U+2A7AB; Heat's
    # utf8 (3-byte) status_reason column refused it (DataError, HTTP 500).
    outcome = deployment_signals.signal_outcome(
        test_deployment_signals.snapshot(), {
            'deploy_status': 'IN_PROGRESS',
            'deploy_status_reason': {'k': '\U0002a7ab'}})
    stored = outcome.values['status_reason']
    assert '\U0002a7ab' not in stored and '\ufffd' in stored


def test_a_value_quoted_in_a_reason_is_stored_too():
    # repr keeps printable characters above U+FFFF: the ignored-signal and
    # unknown-status reasons quote values with it.
    for details in (['\U0002a7ab'], {'deploy_status': '\U0002a7ab'}):
        outcome = deployment_signals.signal_outcome(
            test_deployment_signals.snapshot(), details)
        assert '\U0002a7ab' not in outcome.reason
        assert '\ufffd' in outcome.reason
