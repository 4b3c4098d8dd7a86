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
"""Tiers run in a Debian root, on that release's own Python.

tools/python-root.sh builds the roots (.roots/<suite>, in the clone) and
the series' venvs in them; tools/matrix.py --roots moves the tiers below
into them (doc/source/contributor/pythons.rst). Each root also runs the
dist tier's tests/dist/test_wheel_on_python.py: pip takes the wheel there
and its types load. Everything else stays on the machine's Python.

Standard library only.
"""

import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (Heat series, tier) -> Debian suite whose python3 runs it.
PLACEMENT = {
    ('2025.1', 'unit'): 'bullseye',      # 3.9: 2025.1's lowest
    ('2025.1', 'functional'): 'bullseye',
    ('2026.1', 'unit'): 'trixie',        # 3.13
    ('2026.1', 'functional'): 'trixie',
    ('2026.2', 'unit'): 'forky',         # 3.14: 2026.2's highest
    ('2026.2', 'functional'): 'forky',
}
DIST_PATHS = ['tests/dist/test_wheel_on_python.py']


def suite_of(series, tier):
    return PLACEMENT.get((series, tier))


def suites(series_list):
    """{suite: series} of the roots the run needs."""
    return {suite: series for (series, _), suite in PLACEMENT.items()
            if series in series_list}


def root_dir(suite):
    return os.path.join(ROOT, '.roots', suite)


def python_version(suite):
    """The root's Python, as its build recorded it ('3.9.2')."""
    with open(os.path.join(root_dir(suite), '.hlp-root-complete')) as f:
        return f.read().split()[-1]


# Builds (venvs, roots) run at a lower priority: in a fresh run they
# overlap the first jobs (e2e, fault), whose Heat check loops wait on the
# CPU at every step when dpkg and pip take both cores; a build has no
# deadline, and takes the CPU those jobs leave.
BUILD_NICE = ['nice', '-n', '10']


def build(suite, series, log_path):
    """The root, the series' venv in it, then the wheel in that venv.

    The venv's path as the root sees it, or None on failure. The wheel
    comes from tools/build-dist.sh, which waits for a build under way.
    """
    with open(log_path, 'w') as log:
        def step(argv):
            proc = subprocess.run(BUILD_NICE + argv, cwd=ROOT,
                                  stdout=subprocess.PIPE,
                                  stderr=log, text=True)
            return proc.returncode == 0 and \
                proc.stdout.strip().splitlines()[-1]
        script = ['bash', 'tools/python-root.sh']
        if not (step(script + ['build', suite])
                and step(script + ['venv', suite, series])):
            return None
        wheel = step(['bash', 'tools/build-dist.sh'])
        return wheel and step(script + ['venv', suite, series, wheel]) \
            or None


def workdir(suite, name):
    """(path on the machine, path in the root) of a job's scratch dir."""
    inside = '/tmp/hlp-%s' % name
    outside = root_dir(suite) + inside
    shutil.rmtree(outside, ignore_errors=True)
    os.makedirs(outside)
    return outside, inside


def argv(suite, cwd, env, command):
    """`command` in the root, in directory `cwd` (a path in the root)."""
    script = os.path.join(ROOT, 'tools', 'python-root.sh')
    return (['bash', script, 'run', suite, '/usr/bin/env', '-C', cwd]
            + ['%s=%s' % item for item in sorted(env.items())] + command)
