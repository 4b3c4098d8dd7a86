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
"""check's engine-python finding: heat-engine's Python lacks the package."""

import os
import stat

from heat_lifecycle_plugins.host_checks import check_engine_python
from heat_lifecycle_plugins.host_checks import checks
from tests.plugin_env import run_cli
from tests.plugin_env import write_heat_conf


def _script(path, text):
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def _heat_engine(tmp_path, python_body):
    """A heat-engine script whose #! Python runs python_body (sh)."""
    bin_dir = tmp_path / 'new-venv' / 'bin'
    bin_dir.mkdir(parents=True)
    python = _script(bin_dir / 'python3', '#!/bin/sh\n%s\n' % python_body)
    return _script(bin_dir / 'heat-engine', '#!%s\nimport heat\n' % python)


def test_a_python_without_the_package_fails_naming_it(tmp_path):
    engine = _heat_engine(tmp_path, 'exit 1')
    found = check_engine_python.findings(engine)
    assert [(f.level, f.topic) for f in found] == [
        (checks.FAIL, 'engine-python')]
    text = checks.render(found[0])
    assert 'cannot import heat-lifecycle-plugins' in text
    assert "in-tree types take over" in text
    assert os.path.join(os.path.dirname(engine), 'python3') in text


def test_a_python_with_another_version_fails_naming_both(tmp_path):
    engine = _heat_engine(tmp_path, 'echo 0.0.1')
    found = check_engine_python.findings(engine)
    assert [f.level for f in found] == [checks.FAIL]
    assert ('has heat-lifecycle-plugins 0.0.1, this check is %s'
            % check_engine_python.own_version()) in found[0].text


def test_the_same_version_elsewhere_is_fine(tmp_path):
    engine = _heat_engine(
        tmp_path, 'echo %s' % check_engine_python.own_version())
    assert check_engine_python.findings(engine) == []


def test_env_shebangs_and_missing_scripts(tmp_path):
    env_script = _script(tmp_path / 'a', '#!/usr/bin/env sh\n')
    assert check_engine_python.interpreter_of(env_script).endswith('/sh')
    assert check_engine_python.interpreter_of(str(tmp_path / 'no')) is None
    assert check_engine_python.findings(str(tmp_path / 'no')) == []


def test_check_exits_non_zero_on_it(tmp_path):
    plugin_dir = str(tmp_path / 'plugins')
    run_cli('install-loader', '--plugin-dir', plugin_dir)
    conf = write_heat_conf(str(tmp_path / 'heat.conf'), plugin_dir)
    engine = _heat_engine(tmp_path, 'exit 1')
    checked = run_cli('check', '--config-file', conf, '--heat-engine', engine)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert 'FAIL engine-python: %s runs ' % engine in checked.stdout
