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
"""The release table agrees with the repo's series and pins.

It also says which known issues affect which Heat versions.
"""

import os
import re
import subprocess

import pytest

from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import releases

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')


def pinned_heat(series):
    with open(os.path.join(ROOT, 'constraints', '%s.txt' % series)) as f:
        return re.search(r'^openstack-heat==(\S+)', f.read(), re.M).group(1)


def test_the_table_lists_the_series_tools_series_sh_lists():
    out = subprocess.run(['bash', '-c', '. tools/series.sh; '
                          'echo $HLP_SERIES_ALL'], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    assert [s.name for s in releases.SERIES] == out.split()


@pytest.mark.parametrize('series', releases.SERIES, ids=lambda s: s.name)
def test_each_series_names_the_heat_its_constraints_pin(series):
    assert series.tested == pinned_heat(series.name)
    assert releases.parse_version(series.tested)[0] == series.heat_major


def test_the_installed_heat_is_a_supported_series_as_tested():
    version = heat_internals.heat_version()
    series = releases.series_of(version)
    assert series is not None, 'Heat %s is in no supported series' % (
        version,)
    assert releases.parse_version(series.tested) == version


@pytest.mark.parametrize('text, version', [
    ('27.0.1', (27, 0, 1)), ('26.0', (26, 0, 0)), ('25.0.1.dev3', (25, 0, 1)),
    ('28.0.0rc1', (28, 0, 0)),
])
def test_parse_version(text, version):
    assert releases.parse_version(text) == version


@pytest.mark.parametrize('version, engine', [
    ((24, 1, 2), releases.EVENTLET), ((23, 0, 0), releases.EVENTLET),
    ((25, 0, 0), releases.THREADS), ((28, 0, 0), releases.THREADS),
])
def test_engine_model(version, engine):
    assert releases.engine_of(version) == engine


def issue_keys(version):
    return {i.key for i in releases.issues_of(version)}


@pytest.mark.parametrize('version, expected', [
    ((24, 1, 0), {'eventlet-engine', 'ossa-2025-002-unfixed',
                  'legacy-stack-check'}),
    ((24, 1, 2), {'eventlet-engine', 'ec2authtoken-fallback',
                  'legacy-stack-check'}),
    ((25, 0, 0), {'per-stack-thread-budget', 'ossa-2025-002-unfixed',
                  'legacy-stack-check'}),
    ((25, 0, 2), {'per-stack-thread-budget', 'ec2authtoken-fallback',
                  'legacy-stack-check'}),
    ((26, 0, 0), {'per-stack-thread-budget', 'ec2authtoken-fallback'}),
    ((26, 9, 9), {'per-stack-thread-budget', 'ec2authtoken-fallback'}),
    ((27, 0, 0), {'per-stack-thread-budget', 'ec2authtoken-auth'}),
    ((27, 0, 1), {'per-stack-thread-budget', 'ec2authtoken-auth'}),
])
def test_known_issues_by_version(version, expected):
    assert issue_keys(version) == expected
