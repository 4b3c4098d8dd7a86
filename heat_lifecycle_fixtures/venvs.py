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
"""Fresh venvs for one audience each, from the wheel under test.

The wheel is the one tools/matrix.py built and installed in the series'
venv (HLP_INSTALLED_WHEEL), or, run from a checkout, the one
tools/build-dist.sh builds. Each venv gets the series' constraints (the
constraints.txt tools/venv.sh writes into the venv running the tests).
"""

import os
import subprocess
import sys
import venv as venv_module


def wheel_under_test(checkout):
    """The wheel's path, or None.

    None when there is neither a built one nor a checkout to build it from.
    """
    path = os.environ.get('HLP_INSTALLED_WHEEL')
    if path:
        return path
    if not os.path.isdir(os.path.join(checkout, 'heat_lifecycle_plugins')):
        return None
    return subprocess.run(
        ['bash', os.path.join(checkout, 'tools', 'build-dist.sh')],
        check=True, capture_output=True, text=True,
        timeout=600).stdout.split()[-1]


def series_constraints():
    """The series' pins, or None when not run in a venv of tools/venv.sh."""
    path = os.path.join(sys.prefix, 'constraints.txt')
    return path if os.path.exists(path) else None


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
