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
"""pytest as tools/matrix.py runs a tier, for run-tests.sh --heat and tox.

    .venvs/<series>/bin/python -m tools.tier_pytest [pytest arguments]

Run from the repository root with a series' venv's python. Tests of an
installed-wheel tier (functional, e2e, fault, dist, fuzz) run in a staged
copy of the repository without the wheel's packages
(matrix_commands.stage_without_package), removed afterwards: the package comes
from the wheel installed in the venv. Other tests run in the tree.
tests/conftest.py refuses a wheel tier that imports the tree.
"""

import os
import shutil
import subprocess
import sys
import tempfile

from tools import matrix_commands
from tools import matrix_jobs

ROOT = matrix_jobs.ROOT
WHEEL_PATHS = [path for tier in matrix_jobs.TIERS.values() if tier.wheel
               for path in tier.paths]


def _in_checkout(arg):
    """The path of a test argument relative to the root, or None."""
    path = arg.split('::', 1)[0]
    if not path or path.startswith('-') or not os.path.exists(path):
        return None
    return os.path.relpath(os.path.abspath(path), ROOT)


def needs_wheel(args):
    """Whether an argument names tests of an installed-wheel tier."""
    for arg in args:
        path = _in_checkout(arg)
        if path and any(path == p or path.startswith(p + os.sep)
                        for p in WHEEL_PATHS):
            return True
    return False


def staged_args(args, stage):
    """The arguments, checkout paths made paths of the staged copy."""
    return [stage + arg[len(ROOT):] if arg.startswith(ROOT + os.sep)
            else arg for arg in args]


def wheel_under_test():
    """The wheel's file: given, or tools/build-dist.sh's (as venv.sh's)."""
    if os.environ.get('HLP_INSTALLED_WHEEL'):
        return os.environ['HLP_INSTALLED_WHEEL']
    return subprocess.run(['bash', 'tools/build-dist.sh'], cwd=ROOT,
                          check=True, capture_output=True,
                          text=True).stdout.split()[-1]


def main(args):
    pytest = [sys.executable, '-m', 'pytest']
    if not needs_wheel(args):
        os.chdir(ROOT)
        os.execv(sys.executable, pytest + args)  # in the tree
    base = tempfile.mkdtemp(prefix='hlp-tier-')
    try:
        stage = matrix_commands.stage_without_package(
            os.path.join(base, 'src'))
        env = dict(os.environ, HLP_INSTALLED_WHEEL=wheel_under_test(),
                   HLP_SOURCE_ROOT=ROOT)
        return subprocess.call(pytest + staged_args(args, stage),
                               cwd=stage, env=env)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
