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
"""The committed references are what the code generates now.

They are written from the newest series' venv (tools/venv.sh's default):
the agent's option sample holds oslo.log's options, which differ between
the series' oslo.log releases, so the check runs on the newest only; and
on the reference Python (the docs tier's, the machine's 3.11) only, since
argparse's help changes between Pythons (3.13 prints ``-c, --config-file
PATH`` where 3.11 prints ``-c PATH, --config-file PATH``).

The unit tier of the newest series runs on another Python (a Debian
root), so the docs job (tools/matrix.py), in the newest series' venv on
the machine's Python, runs this with HLP_REFERENCES=required: there a
skip is a failure.
"""

import os
import subprocess
import sys

import pytest

from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import releases

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
NEWEST = releases.SERIES[-1]
REFERENCE_PYTHON = (3, 11)


def _cannot_check(why):
    if os.environ.get('HLP_REFERENCES') == 'required':
        pytest.fail(why)
    pytest.skip(why)


def test_generated_references_are_fresh():
    series = releases.series_of(heat_internals.heat_version())
    if series.name != NEWEST.name:
        _cannot_check('the references are written from %s, this venv has '
                      '%s' % (NEWEST.name, series.name))
    if sys.version_info[:2] != REFERENCE_PYTHON:
        _cannot_check('the references are argparse output of Python '
                      '%d.%d, this is %d.%d' % (REFERENCE_PYTHON
                                                + sys.version_info[:2]))
    proc = subprocess.run(
        [sys.executable, '-m', 'tools.gen_references', '--check'],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == ''
