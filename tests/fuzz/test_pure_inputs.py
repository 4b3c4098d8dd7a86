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
"""Generated inputs of the agent, Mistral results, signals and requests.

No engine: the agent runs as the real command over a generated metadata
file (signalling a local receiver), Mistral's answers come from a stand-in
through our client, the rest are pure functions. About 40 s in all in CI.
"""

import pytest

from tests.fuzz import checks_agent
from tests.fuzz import checks_notices
from tests.fuzz import checks_requests
from tests.fuzz import checks_results
from tests.fuzz import checks_signals


@pytest.fixture(scope='module', autouse=True)
def stand_ins():
    """The stand-ins the checks start, stopped at the end."""
    yield
    checks_results.stop()
    checks_agent.stop()


def test_execution_results(fuzz):
    fuzz.run(checks_results.results(), checks_results.outcomes, 400)


def test_execution_results_through_the_client(fuzz):
    fuzz.run(checks_results.answers(), checks_results.client_results,
             300)


def test_signal_bodies(fuzz):
    fuzz.run(checks_signals.signals(), checks_signals.signal_outcome, 400)


def test_notices_of_ended_executions(fuzz):
    fuzz.run(checks_notices.bodies(), checks_notices.notice_outcome, 400)


def test_action_names(fuzz):
    fuzz.run(checks_requests.names(), checks_requests.action_name, 500)


def test_request_decisions(fuzz):
    fuzz.run(checks_requests.requests(), checks_requests.request_decisions,
             300)


def test_action_inputs(fuzz):
    fuzz.run(checks_requests.action_inputs(), checks_requests.merged_inputs,
             150)


def test_agent_metadata(fuzz):
    # A case is one run of the agent command (about 0.3 s): 60 in CI.
    fuzz.run(checks_agent.metadata(), checks_agent.agent_metadata, 60)
