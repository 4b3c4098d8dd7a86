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
the series' oslo.log releases, so the check runs on the newest only.
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


def test_generated_references_are_fresh():
    series = releases.series_of(heat_internals.heat_version())
    if series.name != NEWEST.name:
        pytest.skip('the references are written from %s, this venv has %s'
                    % (NEWEST.name, series.name))
    proc = subprocess.run(
        [sys.executable, '-m', 'tools.gen_references', '--check'],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == ''
