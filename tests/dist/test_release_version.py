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
"""A release build: the version set, the wheel's name and --version.

The contributor guide's release story ("Releases"): pbr takes the version
from PBR_VERSION when it is set (else from a release tag, else a .devN of
setup.cfg's next version). The sdist under test is unpacked into the
test's temporary directory and built there, so the checkout's build/ and
dist/ are not touched.
"""

import os
import subprocess
import sys
import tarfile

RELEASE = '1.2.3'


def _build_wheel(sdist, workdir):
    with tarfile.open(sdist) as tar:
        tar.extractall(workdir)
    [source] = [os.path.join(workdir, name) for name in os.listdir(workdir)]
    out = os.path.join(workdir, 'wheels')
    env = dict(os.environ, PBR_VERSION=RELEASE)
    proc = subprocess.run(
        [sys.executable, '-m', 'pip', 'wheel', '--no-deps',
         '--no-build-isolation', '--wheel-dir', out, source],
        env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def test_a_release_version_names_the_wheel_and_version(sdist, tmp_path):
    out = _build_wheel(sdist, str(tmp_path))
    name = 'heat_lifecycle_plugins-%s-py3-none-any.whl' % RELEASE
    assert os.listdir(out) == [name]
    # The wheel on sys.path first: --version reads its metadata, as it
    # does once pip has installed it.
    env = dict(os.environ, PYTHONPATH=os.path.join(out, name))
    shown = subprocess.run(
        [sys.executable, '-m', 'heat_lifecycle_plugins.cmd.cli',
         '--version'], env=env, capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == 'heat-lifecycle-plugins %s\n' % RELEASE
