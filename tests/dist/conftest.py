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
import subprocess
import sys
import venv as venv_module
import zipfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(os.path.dirname(HERE))


@pytest.fixture(scope='session')
def wheel():
    path = os.environ.get('HLP_INSTALLED_WHEEL')
    if not path:
        if not os.path.isdir(os.path.join(CHECKOUT, 'heat_lifecycle_plugins')):
            pytest.fail('no wheel: set HLP_INSTALLED_WHEEL or run from a '
                        'checkout')
        path = subprocess.run(
            ['bash', os.path.join(CHECKOUT, 'tools', 'build-dist.sh')],
            check=True, capture_output=True, text=True,
            timeout=600).stdout.split()[-1]
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
    """The series' pins (tools/venv.sh writes them into its venv)."""
    path = os.path.join(sys.prefix, 'constraints.txt')
    assert os.path.exists(path), 'not run in a venv of tools/venv.sh'
    return path


class FreshVenv(object):
    """A new venv with only what one audience installs."""

    def __init__(self, path, constraints):
        self.path = path
        self.constraints = constraints
        venv_module.create(path, with_pip=True)
        self.python = os.path.join(path, 'bin', 'python')

    def bin(self, name):
        return os.path.join(self.path, 'bin', name)

    def pip_install(self, *requirements):
        proc = subprocess.run(
            [self.python, '-m', 'pip', 'install', '-q',
             '--disable-pip-version-check', '-c', self.constraints] +
            list(requirements), capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]

    def installed(self):
        """The lower-case names of the distributions installed here."""
        code = ('import importlib.metadata as m; print("\\n".join('
                'd.metadata["Name"].lower() for d in m.distributions()))')
        out = self.run(self.python, '-c', code).stdout
        return {name.replace('_', '-') for name in out.split()}

    def run(self, *argv, check=True, env=None, timeout=300, **kwargs):
        clean = {k: v for k, v in (env or os.environ).items()
                 if k not in ('PYTHONPATH', 'VIRTUAL_ENV')
                 and not k.startswith('OS_')}
        proc = subprocess.run(list(argv), capture_output=True, text=True,
                              env=clean, timeout=timeout, cwd=self.path,
                              **kwargs)
        if check:
            assert proc.returncode == 0, (argv, proc.stdout[-3000:],
                                          proc.stderr[-3000:])
        return proc


@pytest.fixture(scope='session')
def fresh_venv(tmp_path_factory, constraints):
    def make(name):
        return FreshVenv(str(tmp_path_factory.mktemp(name)), constraints)
    return make


@pytest.fixture(scope='session')
def operator_venv(fresh_venv, wheel):
    """heat-engine's venv as the plain install guide has it: the series'
    Heat and its database driver, then our wheel alone."""
    env = fresh_venv('heat-engine-venv')
    env.pip_install('openstack-heat', 'PyMySQL')
    env.pip_install(wheel)
    return env
