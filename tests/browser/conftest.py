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
"""The browser tier: Horizon with heat-dashboard (and our Lifecycle tab,
when the wheel has it) against the loopback cloud of tests/e2e, driven by
Debian's chromium through Selenium.

The dashboard host's venv is tools/horizon-venv.sh's (built or refreshed
here, once a session, in the checkout's .venvs/); Horizon runs from it
(heat_lifecycle_fixtures.horizon), the tests in the series' venv. Each test
leaves a screenshot of its last page in
.test-results/browser/<series>/<test>.png.
"""

import os
import subprocess

import pytest

from heat_lifecycle_fixtures import browser as browser_fixture
from heat_lifecycle_fixtures import horizon as horizon_fixture
from heat_lifecycle_fixtures import process
from heat_lifecycle_plugins import releases
from tests.e2e.conftest import cloud  # noqa: F401 (a shared fixture)
from tests.e2e.conftest import secrets_scan  # noqa: F401

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
# The checkout's, also when run in a staged copy (tools/tier_pytest.py).
CHECKOUT = os.environ.get('HLP_SOURCE_ROOT') or ROOT
READER_PASSWORD = 'browser-reader-secret'


def series():
    return os.environ.get('HLP_SERIES') or releases.series_of(
        releases.installed_heat_version()).name


@pytest.fixture(scope='session')
def horizon_venv():
    """The series' dashboard venv (tools/horizon-venv.sh)."""
    if not browser_fixture.available():
        pytest.fail('chromium and chromium-driver are needed: run '
                    'tools/run-tests.sh (as root), which installs them')
    try:
        out = process.run(['bash', 'tools/horizon-venv.sh', series()],
                          'tools/horizon-venv.sh', timeout=1800,
                          cwd=CHECKOUT).stdout
    except (process.ServiceError, subprocess.TimeoutExpired) as exc:
        pytest.fail(str(exc))
    return out.split()[-1]


@pytest.fixture(scope='session')
def horizon(cloud, horizon_venv, tmp_path_factory):  # noqa: F811
    with horizon_fixture.Horizon(str(tmp_path_factory.mktemp('horizon')),
                                 horizon_venv, cloud.keystone.url) as server:
        yield server


@pytest.fixture(scope='session')
def reader(cloud):  # noqa: F811
    """(name, password) of a user with only the reader role on demo."""
    cloud.keystone.add_user('browser-reader', READER_PASSWORD, 'demo',
                            roles=('reader',))
    return 'browser-reader', READER_PASSWORD


@pytest.fixture
def browser(request, tmp_path, secrets_scan):  # noqa: F811
    """A fresh chromium; its last page's screenshot is kept."""
    with browser_fixture.Browser(str(tmp_path / 'browser')) as chromium:
        yield chromium
        chromium.screenshot(os.path.join(
            CHECKOUT, '.test-results', 'browser', series(),
            '%s.png' % request.node.name))
    # chromedriver's log, before pytest removes a passed test's tmp_path.
    secrets_scan.read(str(tmp_path))
