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
"""The deliverable as operators and users install it.

The wheel under test is the one tools/matrix.py built and installed in the
series' venv (HLP_INSTALLED_WHEEL), or, run from a checkout, the one
tools/build-dist.sh builds. Each audience gets a fresh venv of its own, with
the series' constraints: what pip resolves there is what they get.
"""

import os
import zipfile

import pytest

from heat_lifecycle_fixtures import venvs

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(os.path.dirname(HERE))


@pytest.fixture(scope='session')
def wheel():
    path = venvs.wheel_under_test(CHECKOUT)
    if not path:
        pytest.fail('no wheel: set HLP_INSTALLED_WHEEL or run from a '
                    'checkout')
    return path


@pytest.fixture(scope='session')
def wheel_zip(wheel):
    with zipfile.ZipFile(wheel) as z:
        yield z


@pytest.fixture(scope='session')
def sdist(wheel):
    [path] = [os.path.join(os.path.dirname(wheel), name)
              for name in os.listdir(os.path.dirname(wheel))
              if name.endswith('.tar.gz')]
    return path


@pytest.fixture(scope='session')
def constraints():
    path = venvs.series_constraints()
    assert path, 'not run in a venv of tools/venv.sh'
    return path


@pytest.fixture(scope='session')
def fresh_venv(tmp_path_factory, constraints):
    def make(name):
        return venvs.FreshVenv(str(tmp_path_factory.mktemp(name)), constraints)
    return make


@pytest.fixture(scope='session')
def operator_venv(fresh_venv, wheel):
    """heat-engine's venv as the plain install guide has it: the series'
    Heat and its database driver, then our wheel alone."""
    env = fresh_venv('heat-engine-venv')
    env.pip_install('openstack-heat', 'PyMySQL')
    env.pip_install(wheel)
    return env
