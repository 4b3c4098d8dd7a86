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
"""The fuzz tier: generated inputs thrown at our code and at Heat with it.

    pytest tests/fuzz                     CI: fixed cases, about 5 minutes
    pytest tests/fuzz --long 3600         new seeds until an hour is spent

Each test states what must hold for every case (tests/fuzz/checks_*.py);
a failing case is printed as a regression test to paste.
"""

import pytest

from tests.fuzz import budget as fuzz_budget


def pytest_addoption(parser):
    parser.addoption('--long', type=float, default=None, metavar='SECONDS',
                     help='fuzz with new seeds for SECONDS in all')


def pytest_report_header(config):
    long_seconds = config.getoption('--long')
    return 'fuzz: %s' % ('new seeds for %.0f s' % long_seconds
                         if long_seconds else 'fixed cases (derandomized)')


BUDGETS = []


@pytest.fixture(scope='session')
def fuzz(request):
    """The session's Budget; its counts are printed at the end."""
    tests = len([i for i in request.session.items
                 if 'fuzz' in i.fixturenames])
    found = fuzz_budget.Budget(request.config.getoption('--long'), tests,
                               show=_show_at_once(request.config))
    BUDGETS.append(found)
    return found


def _show_at_once(config):
    """A print past pytest's capture, shown at once.

    A search whose DELETE hangs may never reach the report that shows
    captured output.
    """
    capture = config.pluginmanager.getplugin('capturemanager')

    def show(text):
        with capture.global_and_fixture_disabled():
            print(text, flush=True)
    return show


def pytest_terminal_summary(terminalreporter):
    """How many cases each check ran, and for how long."""
    for found in BUDGETS:
        for name, cases in sorted(found.cases.items()):
            terminalreporter.write_line('fuzz %s: %d cases in %.0f s' % (
                name, cases, found.seconds[name]))


@pytest.fixture(scope='session')
def mistral(tmp_path_factory):
    """A real Mistral with the functional tier's workflows."""
    from heat_lifecycle_fixtures.mistral import Mistral
    from tests.functional.external_resource import conftest as external
    with Mistral(str(tmp_path_factory.mktemp('mistral'))) as server:
        external.register_workflows(server)
        yield server
