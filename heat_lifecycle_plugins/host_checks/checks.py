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
"""What `heat-lifecycle-plugins check` finds, as data: one Finding a line.

A finding's level is OK, WARN (works, but the operator should know or
set something), FAIL (the command exits non-zero) or NA (what it checks
is not used on this host).
"""

import collections

from heat_lifecycle_plugins import heat_contract
from heat_lifecycle_plugins import releases

OK, WARN, FAIL, NA = 'ok', 'warn', 'FAIL', 'n/a'

Finding = collections.namedtuple('Finding', 'level topic text')


def render(finding):
    return '%-4s %s: %s' % finding


def _supported_range():
    first, last = releases.SERIES[0], releases.SERIES[-1]
    return '%s (Heat %d.x) .. %s (Heat %d.x)' % (
        first.name, first.heat_major, last.name, last.heat_major)


def release_findings(version):
    """The Heat version found, its series, and its known engine issues."""
    text = '.'.join(map(str, version))
    series = releases.series_of(version)
    engine = releases.engine_of(version)
    if series is None:
        found = [Finding(WARN, 'heat', 'openstack-heat %s is not a supported '
                         'series (supported: %s); engine on %s' % (
                             text, _supported_range(), engine))]
    else:
        found = [Finding(OK, 'heat', 'openstack-heat %s, series %s %s%s, '
                         'supported (CI runs %s); engine on %s' % (
                             text, series.name, series.codename,
                             ' (SLURP)' if series.slurp else '',
                             series.tested, engine))]
    for issue in releases.issues_of(version):
        found.append(Finding(WARN, issue.key, '%s; configure: %s' % (
            issue.summary, issue.configure)))
    return found


def boundary_findings(version):
    """Whether every internal Heat name the package uses holds."""
    problems = heat_contract.contract_problems(version)
    if not problems:
        checked = sum(1 for name in heat_contract.CONTRACT
                      if heat_contract.applies(name, version))
        return [Finding(OK, 'boundary', 'the %d internal Heat names the '
                        'package uses hold on this release' % checked)]
    return [Finding(FAIL, 'boundary', problem) for problem in problems]
