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
"""The matrix's tiers and jobs: what runs where, how long, in what order.

tools/matrix.py runs them; tools/tier_pytest.py reads which tiers test the
installed wheel. Standard library only, as tools/matrix.py.
"""

import collections
import subprocess

from tools import matrix_roots

ROOT = matrix_roots.ROOT

# A tier runs pytest on its test paths in a series' venv, on every series
# ('all'), on the e2e series ('e2e') or on the newest ('newest'); or it
# runs its command once, in no series' venv ('once') or in the default
# series' venv ('default', given to the command as HLP_VENV).
# A tier marked `wheel` runs in a copy of the repo without
# heat_lifecycle_plugins/, so that it tests the wheel installed in the venv
# (tools/venv.sh), as an operator has it; the others run in the tree.
Tier = collections.namedtuple('Tier', 'paths series command wheel')
ONCE, DEFAULT = 'once', 'default'
TIERS = {
    'unit': Tier(['tests/unit', 'tests/agent'], 'all', None, False),
    'functional': Tier(['tests/functional'], 'all', None, True),
    'e2e': Tier(['tests/e2e'], 'e2e', None, True),
    'fault': Tier(['tests/fault'], 'e2e', None, True),
    'bench': Tier(['tests/bench'], 'newest', None, True),
    'dist': Tier(['tests/dist'], 'newest', None, True),
    'fuzz': Tier(['tests/fuzz'], 'newest', None, True),
    # On both dashboards operators run (issue 53): 12 tests in 365-370 s
    # on 2025.1, 206-256 s on 2026.2, each on its own on a shared 2-core
    # machine.
    'browser': Tier(['tests/browser'], 'e2e', None, True),
    # The Lifecycle tab's unit tests, in each e2e series' dashboard venv.
    'dashboard': Tier(None, ONCE, ['bash', '-c', (
        '. tools/series.sh; for s in $HLP_SERIES_E2E; do '
        'bash tools/dashboard-tests.sh "$s" -q || exit 1; done')], False),
    'lint': Tier(None, ONCE, ['bash', 'tools/lint.sh'], False),
    # With the check of the generated references, which needs the newest
    # series on the machine's Python (tests/unit/test_references.py).
    'docs': Tier(None, DEFAULT, ['bash', '-c', (
        'bash tools/docs.sh && HLP_REFERENCES=required "$HLP_VENV/bin/python"'
        ' -m pytest -p no:cacheprovider -q tests/unit/test_references.py')],
        False),
}
# Jobs at once. A tier mostly waits on Heat's check loops: the 2026.1
# functional tier used 542 s of CPU in 940 s (57% of one core), so two
# jobs left most of a 2-core machine idle.
JOBS = 3
# A job's wall-clock limit; a job over it is killed and counts as failed.
# Heat 24.x (eventlet) functional takes about 12 min on a quiet 2-core
# machine and over 27 min when the machine is shared (measured 1611 s);
# 2025.1's e2e took 1589 s beside a long fuzz search; fuzz 882 s, three
# jobs beside it and a long search.
JOB_TIMEOUT = {'unit': 900, 'functional': 2700, 'e2e': 2700, 'fault': 2700,
               'dist': 1500, 'fuzz': 1500, 'bench': 1200, 'lint': 600,
               'docs': 600, 'browser': 1200, 'dashboard': 900}
# Longest first, so that the lanes finish close together; the benchmark
# smokes (about 6 min) are a job of their own, so that they fill a lane's
# end instead of lengthening the longest job (e2e). Fault before
# functional: with functional first, 2025.1's fault (about 1000 s) waited
# behind four functional jobs (351-582 s) and ended the run alone.
# The browser tier (about 160 s with its dashboard venv built from an
# empty pip cache, 60 s without) fills a lane's end after the benchmarks.
TIER_ORDER = ('e2e', 'fault', 'functional', 'dist', 'fuzz', 'bench',
              'browser', 'unit', 'dashboard', 'docs', 'lint')


def series_settings():
    """(all series, e2e series, default) from tools/series.sh."""
    out = subprocess.run(
        ['bash', '-c', '. tools/series.sh; echo "$HLP_SERIES_ALL"; '
                       'echo "$HLP_SERIES_E2E"; echo "$HLP_SERIES_DEFAULT"'],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout
    all_series, e2e, default = out.splitlines()
    return all_series.split(), e2e.split(), default


class Job(object):
    def __init__(self, series, tier, venv_series=None, suite=None):
        self.series = series  # None for a tier run once
        self.tier = tier
        # Whose venv the job runs in (None: none), and in which root (None:
        # the machine's).
        self.venv_series = series or venv_series
        self.suite = suite
        self.paths = TIERS[tier].paths
        self.name = '%s-%s' % (series, tier) if series else tier
        self.where = 'Heat %s %s' % (series, tier) if series else tier
        if suite:
            self.where += ' (%s root)' % suite
        if suite and tier == 'dist':
            self.paths = matrix_roots.DIST_PATHS
            self.name += '@' + suite
        self.rc = None
        self.seconds = None
        self.note = ''

    @property
    def venv_key(self):
        return (self.suite, self.venv_series) if self.venv_series else None
