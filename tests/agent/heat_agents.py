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
"""heat-agents' own files, unchanged, from its sdist on PyPI.

Downloaded at test time (never committed) into the clone's ignored
.downloads/ directory, once for every test run and series: a lock keeps
two runs from fetching at the same time, and the sdist's checksum pins
it. build/ is not used: tools/build-dist.sh removes it.
"""

import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
DOWNLOADS = os.path.join(ROOT, '.downloads')
VERSION = '13.0.0'
SDIST = 'heat_agents-%s.tar.gz' % VERSION
SDIST_SHA256 = (
    '346099c6e9f16bd5e68913b825013acdd97b6743a1764ebcfc08d6528cefa9d6')
# Where each file we use lives in the sdist, by the name it gets here:
# hooks/<group> as heat-agents' elements install them.
FILES = {
    'hooks/script': 'heat-config-script/install.d/hook-script.py',
    'hooks/ansible': 'heat-config-ansible/install.d/hook-ansible.py',
    'configure.d/55-heat-config':
        'heat-config/os-refresh-config/configure.d/55-heat-config',
}


class NotAvailable(RuntimeError):
    """heat-agents could not be fetched; the message says why."""


@contextlib.contextmanager
def _locked(path):
    with open(path, 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _download(into):
    """The sdist's path, fetched by pip into directory `into`."""
    # pip's build of the sdist's metadata goes in `into`, not in /tmp.
    argv = [sys.executable, '-m', 'pip', 'download', '--quiet', '--no-deps',
            '--no-binary', ':all:', 'heat-agents==%s' % VERSION, '-d', into]
    if sys.version_info < (3, 11):
        # heat-agents declares >= 3.11, yet its hooks run on 3.9 (tested
        # in the bullseye root, doc/source/contributor/pythons.rst).
        argv.append('--ignore-requires-python')
    run = subprocess.run(
        argv,
        capture_output=True, text=True, timeout=600,
        env=dict(os.environ, TMPDIR=into))
    sdist = os.path.join(into, SDIST)
    if run.returncode or not os.path.exists(sdist):
        raise NotAvailable('pip could not download heat-agents %s from '
                           'PyPI (status %s): %s' % (
                               VERSION, run.returncode,
                               run.stderr.strip()[-500:]))
    with open(sdist, 'rb') as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    if digest != SDIST_SHA256:
        raise NotAvailable('heat-agents %s sdist has sha256 %s, expected %s'
                           % (VERSION, digest, SDIST_SHA256))
    return sdist


def _extract(sdist, into):
    prefix = 'heat_agents-%s/' % VERSION
    with tarfile.open(sdist) as tar:
        for name, member in FILES.items():
            source = tar.extractfile(prefix + member)
            target = os.path.join(into, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, 'wb') as f:
                shutil.copyfileobj(source, f)
            os.chmod(target, 0o755)


def files():
    """The directory holding FILES, downloaded on first use."""
    final = os.path.join(DOWNLOADS, 'heat-agents-%s' % VERSION)
    os.makedirs(DOWNLOADS, exist_ok=True)
    with _locked(os.path.join(DOWNLOADS, '.heat-agents.lock')):
        if all(os.path.exists(os.path.join(final, name)) for name in FILES):
            return final
        work = tempfile.mkdtemp(prefix='fetching-', dir=DOWNLOADS)
        try:
            unpacked = os.path.join(work, 'files')
            _extract(_download(work), unpacked)
            shutil.rmtree(final, ignore_errors=True)
            os.rename(unpacked, final)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return final
