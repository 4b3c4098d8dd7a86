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
"""`check`: is the package installed in the Python heat-engine runs?

A Heat upgrade that rebuilds heat-engine's venv, or moves it to another
Python, leaves the package behind: the loader in plugin_dirs then logs an
error and Heat's in-tree types take over, silently for users. `check`
reads the interpreter of the heat-engine script (--heat-engine, else the
one on PATH) and asks that Python for the package's version.
"""

import importlib.metadata
import os
import shutil
import subprocess
import sys

from heat_lifecycle_plugins.host_checks import checks

DISTRIBUTION = 'heat-lifecycle-plugins'
TOPIC = 'engine-python'
PROBE = ('import importlib.metadata as m; '
         'print(m.version(%r))' % DISTRIBUTION)


def interpreter_of(script):
    """The interpreter named by a console script's #! line, or None."""
    try:
        with open(script, 'rb') as f:
            first = f.readline(4096).decode(errors='replace')
    except OSError:
        return None
    words = first[2:].split() if first.startswith('#!') else []
    if len(words) > 1 and os.path.basename(words[0]) == 'env':
        return shutil.which(words[1])
    return words[0] if words else None


def installed_version(python):
    """The package's version in that Python, or None if it has none."""
    try:
        proc = subprocess.run([python, '-c', PROBE], capture_output=True,
                              text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def own_version():
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return None


def findings(heat_engine=None):
    """A FAIL when heat-engine's Python lacks this version of the package.

    Nothing when heat-engine is not found or runs this very Python.
    """
    script = heat_engine or shutil.which('heat-engine')
    python = interpreter_of(script) if script else None
    if not python or (os.path.dirname(os.path.abspath(python)) ==
                      os.path.dirname(os.path.abspath(sys.executable))):
        return []
    theirs, ours = installed_version(python), own_version()
    if theirs is None:
        problem = 'cannot import heat-lifecycle-plugins'
    elif theirs != ours:
        problem = 'has heat-lifecycle-plugins %s, this check is %s' % (
            theirs, ours)
    else:
        return []
    return [checks.Finding(checks.FAIL, TOPIC, (
        '%s runs %s, which %s (a Heat upgrade that rebuilt its venv or '
        'changed its Python?): its loader logs an error and Heat\'s '
        'in-tree types take over. Install the wheel with %s -m pip, then '
        'run that Python\'s heat-lifecycle-plugins check'
        % (script, python, problem, python)))]
