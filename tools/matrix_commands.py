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
"""The command, directory and environment of one job of tools/matrix.py.

A job runs pytest (or its tier's command) in a series' venv, on the
machine or in a Debian root (tools/matrix_roots.py). A tier marked `wheel`
runs in a staged copy of the repo without heat_lifecycle_plugins/, so that
it imports the wheel installed in the venv. Standard library only.
"""

import os
import shutil
import subprocess

from tools import matrix_report
from tools import matrix_roots

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def job_command(job, tier, wheel, venv, base, xml, extra_args):
    """(argv, cwd, env) of a job on the machine."""
    env = dict(os.environ, TMPDIR=base)
    command = tier.command
    cwd = ROOT
    if tier.wheel:
        cwd = stage_without_package(os.path.join(base, 'src'))
        env['HLP_INSTALLED_WHEEL'] = wheel
        env['HLP_SOURCE_ROOT'] = ROOT  # the checkout, for its git
    if command:
        if venv:
            env['HLP_VENV'] = venv
        return command, cwd, env
    env.update(HLP_VENV=venv, HLP_SERIES=job.series,
               HLP_FAULT_ROWS=matrix_report.fault_rows_file(
                   os.path.dirname(xml), job.series))
    return pytest_argv(venv, base, xml, extra_args, job.paths), cwd, env


def pytest_argv(venv, base, xml, extra_args, paths):
    return [os.path.join(venv, 'bin', 'python'), '-m', 'pytest',
            '-p', 'no:cacheprovider', '-q', '-rfE',
            '--basetemp', os.path.join(base, 'pytest'),
            '--junitxml', xml] + extra_args + paths


def root_job_command(job, tier, wheel, venv, inside, extra_args):
    """(argv, cwd, env) of a pytest job in a root.

    `inside`: its scratch directory as the root sees it (the checkout is
    at its own path there).
    """
    outside = matrix_roots.root_dir(job.suite) + inside
    cwd = ROOT
    env = {'TMPDIR': inside, 'HLP_VENV': venv, 'HLP_SERIES': job.series}
    if tier.wheel:
        stage_without_package(os.path.join(outside, 'src'))
        cwd = inside + '/src'
        env.update(HLP_INSTALLED_WHEEL=wheel, HLP_SOURCE_ROOT=ROOT)
    argv = pytest_argv(venv, inside, inside + '/junit.xml', extra_args,
                       job.paths)
    return matrix_roots.argv(job.suite, cwd, env, argv), ROOT, os.environ


# The wheel's packages (setup.cfg's [files] packages).
WHEEL_PACKAGES = ('heat_lifecycle_plugins/', 'heat_lifecycle_dashboard/')


def stage_without_package(dest):
    """A copy of the repo's files without the wheel's packages.

    Tests, fixtures, examples and tools are there; our packages are not,
    so they are imported from the venv's installed wheel, and whatever the
    wheel lacks fails the tests that need it.
    """
    files = subprocess.run(
        ['git', 'ls-files', '-co', '--exclude-standard', '-z'], cwd=ROOT,
        capture_output=True, check=True).stdout.decode().split('\0')
    for path in files:
        if not path or path.startswith(WHEEL_PACKAGES):
            continue
        source = os.path.join(ROOT, path)
        if not os.path.isfile(source):
            continue  # deleted in the work tree
        target = os.path.join(dest, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(source, target)
    return dest


def write_versions(results, series, venv, suite=None):
    """Heat's, Mistral's and Keystone's versions in the series' venv."""
    argv = [os.path.join(venv, 'bin', 'python'), '-c',
            'import importlib.metadata as m; print(", ".join("%s %s" % '
            '(n, m.version(n)) for n in ("openstack-heat", "mistral", '
            '"keystone")))']
    if suite:
        argv = matrix_roots.argv(suite, '/', {}, argv)
    out = subprocess.run(argv, capture_output=True, text=True)
    with open(os.path.join(results, '%s-versions.txt' % series), 'w') as f:
        f.write(out.stdout.strip().replace('openstack-heat', 'heat'))


def python_version(venv):
    return subprocess.run(
        [os.path.join(venv, 'bin', 'python'), '-c',
         'import platform; print(platform.python_version())'],
        capture_output=True, text=True).stdout.strip()
