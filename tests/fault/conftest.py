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
"""The fault tier: the loopback cloud of tests/e2e, its services stopped
by their own PIDs (SIGTERM or SIGKILL) and started again mid-operation.

One cloud per session (a restart of one service costs seconds, a new cloud
about 30). Every case has a deadline (CASE_DEADLINE): a hung case fails,
it never hangs the tier. Every case writes one row (fault, outcome, time
to recover) to the rows file that tools/matrix.py turns into the
reliability table: HLP_FAULT_ROWS, by default
.test-results/<series>-fault-rows.jsonl.
"""

import json
import os
import signal
import time

import pytest

from heat_lifecycle_plugins import releases
from tests.e2e.conftest import cloud  # noqa: F401 (a shared fixture)
from tests.e2e.conftest import driver  # noqa: F401
from tests.e2e.conftest import heat  # noqa: F401
from tests.e2e.conftest import mistral_workflows  # noqa: F401
from tests.e2e.conftest import secrets_scan  # noqa: F401

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
CASE_DEADLINE = 420  # seconds; the slowest case takes about 120


class CaseDeadline(AssertionError):
    """A case outlived CASE_DEADLINE."""


def rows_file():
    import importlib.metadata
    series = os.environ.get('HLP_SERIES') or releases.series_of(
        releases.parse_version(
            importlib.metadata.version('openstack-heat'))).name
    return os.environ.get('HLP_FAULT_ROWS') or os.path.join(
        # The checkout's, also when run in a staged copy (tier_pytest).
        os.environ.get('HLP_SOURCE_ROOT') or ROOT, '.test-results',
        '%s-fault-rows.jsonl' % series)


def pytest_sessionstart(session):
    """Rows are this run's: the file of an earlier run goes."""
    try:
        os.remove(rows_file())
    except FileNotFoundError:
        pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == 'call':
        item.fault_call_report = report


@pytest.fixture(autouse=True)
def deadline():
    """Fail the case (SIGALRM in this thread) after CASE_DEADLINE s."""
    def expired(signum, frame):
        raise CaseDeadline('no end in %d s: a hang' % CASE_DEADLINE)
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(CASE_DEADLINE)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


class Row(object):
    """What one case reports: its fault, outcome and recovery time.

    Time to recover: from the moment the failed part was back (`back`) to
    the stack's good end (`recovered`).
    """

    def __init__(self, case, fault):
        self.case, self.fault = case, fault
        # Set as the case goes: back(), recovered() and its own lines.
        self.outcome = self.recovery = None
        self.back_at = self.down = self.seconds = None

    def back(self, outage):
        """The faults.Outage that just ended."""
        self.back_at = outage.started_at
        self.down = outage.seconds

    def recovered(self, how):
        """The stack is back; `how`: what it took (nothing, an update)."""
        self.seconds = time.monotonic() - self.back_at
        self.recovery = how


@pytest.fixture
def fault_row(request):
    """The case's Row, written to rows_file() when the case ends.

    A failed case's row says FAILED and why, whatever it claimed.
    """
    row = Row(getattr(request.function, 'fault_case', request.node.name),
              getattr(request.function, 'fault', ''))
    yield row
    report = getattr(request.node, 'fault_call_report', None)
    passed = report is not None and report.passed
    outcome = row.outcome if passed else 'FAILED: %s' % (
        _first_line(report.longreprtext) if report is not None
        else 'no result')
    record = {'case': row.case, 'fault': row.fault, 'passed': passed,
              'outcome': outcome, 'recovery': row.recovery,
              'down': None if row.down is None else round(row.down, 1),
              'seconds': None if row.seconds is None
              else round(row.seconds, 1),
              'test': request.node.name}
    path = rows_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'a') as f:
        f.write(json.dumps(record) + '\n')


def _first_line(text):
    lines = [line.strip() for line in text.splitlines()
             if line.startswith('E ')]
    return (lines[0][1:].strip() if lines else text.strip()[:200])[:300]


def case(number, fault):
    """Name a test's row: its case `number` and its fault."""
    def mark(test):
        test.fault_case = number
        test.fault = fault
        return test
    return mark
