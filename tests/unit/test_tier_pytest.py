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
"""Which tests run on the installed wheel, in a copy without the tree."""

import os

import pytest

from tests import conftest
from tools import matrix
from tools import tier_pytest


@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(tier_pytest.ROOT)


@pytest.mark.parametrize('args', [
    ['tests/functional/test_harness.py'],
    ['-x', 'tests/e2e', '-k', 'backup'],
    ['tests/fault/test_chain_faults.py::test_a_broker_restart_mid_create'],
    [os.path.join(tier_pytest.ROOT, 'tests', 'dist')],
    ['tests/unit', './tests/fuzz'],
])
def test_tests_of_a_wheel_tier_are_staged(at_root, args):
    assert tier_pytest.needs_wheel(args)


@pytest.mark.parametrize('args', [
    ['tests/unit'], ['tests/agent/test_milestones.py', '-x'],
    ['-k', 'functional'], ['tests/functionally_nothing'], [],
])
def test_the_unit_tier_runs_in_the_tree(at_root, args):
    assert not tier_pytest.needs_wheel(args)


def test_checkout_paths_become_the_copys():
    test = os.path.join(tier_pytest.ROOT, 'tests', 'e2e', 'test_x.py')
    assert tier_pytest.staged_args(
        ['-k', 'x', test + '::t', 'tests/e2e'], '/tmp/s') == [
        '-k', 'x', '/tmp/s/tests/e2e/test_x.py::t', 'tests/e2e']


def test_the_guard_knows_the_wheel_tiers():
    assert set(conftest.WHEEL_TIERS) == {
        tier.paths[0].split('/')[1] for tier in matrix.TIERS.values()
        if tier.wheel}


def test_the_unit_tier_imports_the_tree():
    assert conftest.package_from_the_tree() == os.path.join(
        os.path.realpath(tier_pytest.ROOT), 'heat_lifecycle_plugins',
        '__init__.py')


def test_the_guard_refuses_a_wheel_tier_collected_from_the_checkout():
    """pytest in the checkout, on a functional test: the guard stops it.

    The checkout is first on sys.path there, so heat_lifecycle_plugins
    is the tree's (test_the_unit_tier_imports_the_tree): collecting a
    wheel tier must end with a usage error naming the tier.
    """
    import subprocess
    import sys
    proc = subprocess.run(
        [sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider',
         '--collect-only', '-q', 'tests/functional/test_harness.py'],
        cwd=tier_pytest.ROOT, capture_output=True, text=True, timeout=300)
    output = proc.stdout + proc.stderr
    assert proc.returncode == pytest.ExitCode.USAGE_ERROR, output[-3000:]
    assert 'tests/functional must test the installed wheel' in output, \
        output[-3000:]
