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
"""The wheel on the Python that runs this: pip takes it, its types load.

tools/matrix.py runs this module on every Python the complete run uses
(the machine's and each Debian root's, doc/source/contributor/pythons.rst).
"""

import importlib
import subprocess
import sys

from heat_lifecycle_plugins import registry


def test_pip_accepts_the_wheel_on_this_python(wheel, tmp_path):
    # pip checks the wheel's Requires-Python against this interpreter.
    proc = subprocess.run(
        [sys.executable, '-m', 'pip', 'install', '--no-deps', '--no-index',
         '--no-compile', '--target', str(tmp_path / 'target'), wheel],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_declared_type_loads_on_this_python():
    declared = registry.entry_points()
    assert len(declared) >= 4
    for name, target in declared:
        module, _, attr = target.partition(':')
        cls = getattr(importlib.import_module(module), attr)
        assert cls.__name__ == attr, name


def test_the_command_runs_on_this_python():
    proc = subprocess.run(
        [sys.executable, '-m', 'heat_lifecycle_plugins.cmd.cli', 'list'],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert 'OS::Heat::SoftwareComponent' in proc.stdout
