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
"""The heat-lifecycle-plugins command, run as a real subprocess."""

import importlib.metadata
import os
import re
import subprocess
import sys

from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins.host_checks import checks
from heat_lifecycle_plugins import plugin_dir_installer
from heat_lifecycle_plugins import releases
from tests.plugin_env import BROKEN_DIST
from tests.plugin_env import PROBE_DIST
from tests.plugin_env import run_cli
from tests.plugin_env import write_heat_conf


def test_install_loader_writes_then_is_idempotent(tmp_path):
    plugin_dir = str(tmp_path / 'plugins')
    first = run_cli('install-loader', '--plugin-dir', plugin_dir)
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith('written ')
    path = os.path.join(plugin_dir, plugin_dir_installer.LOADER_FILENAME)
    with open(path) as f:
        assert f.read() == plugin_dir_installer.loader_source()
    again = run_cli('install-loader', '--plugin-dir', plugin_dir)
    assert again.returncode == 0
    assert again.stdout.startswith('unchanged ')


def test_install_loader_refuses_a_different_file_without_force(tmp_path):
    path = tmp_path / plugin_dir_installer.LOADER_FILENAME
    path.write_text('# somebody else\'s file\n')
    refused = run_cli('install-loader', '--plugin-dir', str(tmp_path))
    assert refused.returncode == 1
    assert 'use --force' in refused.stderr
    assert path.read_text() == '# somebody else\'s file\n'
    forced = run_cli('install-loader', '--plugin-dir', str(tmp_path),
                     '--force')
    assert forced.returncode == 0, forced.stderr
    assert path.read_text() == plugin_dir_installer.loader_source()


def test_install_loader_remove_deletes_the_loader_alone(tmp_path):
    plugin_dir = tmp_path / 'plugins'
    run_cli('install-loader', '--plugin-dir', str(plugin_dir))
    (plugin_dir / 'other_plugin.py').write_text('# another plugin\n')
    removed = run_cli('install-loader', '--remove', '--plugin-dir',
                      str(plugin_dir))
    assert removed.returncode == 0, removed.stderr
    path = plugin_dir / plugin_dir_installer.LOADER_FILENAME
    assert removed.stdout == 'removed %s\n' % path
    assert sorted(os.listdir(plugin_dir)) == ['other_plugin.py']
    again = run_cli('install-loader', '--remove', '--plugin-dir',
                    str(plugin_dir))
    assert (again.returncode, again.stdout) == (0, 'absent %s\n' % path)


def test_list_shows_every_type_of_the_group():
    listed = run_cli('list')
    assert listed.returncode == 0, listed.stderr
    assert ('Test::Lifecycle::Probe' in listed.stdout and
            'lifecycle_probe:LifecycleProbe' in listed.stdout)


def test_list_prints_the_types_and_nothing_else():
    """Not Heat's or eventlet's notices: list imports none of the types."""
    listed = run_cli('list', dists=(PROBE_DIST, BROKEN_DIST))
    assert listed.stderr == ''
    lines = listed.stdout.splitlines()
    assert all(re.match(r'^\S+ +[\w.]+:\w+$', line) for line in lines), lines
    assert {line.split()[0] for line in lines} >= {
        'OS::Heat::ResourceChain', 'OS::Heat::SoftwareComponent',
        'OS::Heat::SoftwareDeployment', 'OS::Mistral::ExternalResource',
        'Test::Lifecycle::Probe', 'Test::Lifecycle::Broken'}


def test_check_reports_our_types_as_winners(tmp_path):
    plugin_dir = str(tmp_path / 'plugins')
    assert run_cli('install-loader', '--plugin-dir',
                   plugin_dir).returncode == 0
    conf = write_heat_conf(str(tmp_path / 'heat.conf'), plugin_dir)
    checked = run_cli('check', '--config-file', conf)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert 'ok   Test::Lifecycle::Probe' in checked.stdout
    assert 'FAIL' not in checked.stdout


def test_check_prints_its_findings_then_the_types_and_nothing_else(
        tmp_path):
    plugin_dir = str(tmp_path / 'plugins')
    run_cli('install-loader', '--plugin-dir', plugin_dir)
    conf = write_heat_conf(str(tmp_path / 'heat.conf'), plugin_dir)
    run_cli('install-policy', '--policy-dir', str(tmp_path / 'policy.d'))
    checked = run_cli('check', '--config-file', conf)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stderr == ''
    lines = checked.stdout.splitlines()
    assert all(line[:5] in ('ok   ', 'warn ') for line in lines), lines
    version = heat_internals.heat_version()
    series = releases.series_of(version)
    assert lines[0].startswith('ok   heat: openstack-heat %s, series %s' % (
        '.'.join(map(str, version)), series.name))
    topics = [line[5:].split(':')[0] for line in lines]
    issues = [i.key for i in releases.issues_of(version)]
    assert topics[1:len(issues) + 2] == issues + ['boundary']
    assert lines[len(issues) + 1].startswith('ok   boundary: the ')
    paths = topics[len(issues) + 2:-5]  # then our 4 types + the probe
    notify = paths.index('mistral-notify')
    assert notify and set(paths[:notify]) == {'signals'}
    assert set(paths[notify:-1]) == {'mistral-notify'}
    assert paths[-1] == 'policy'
    assert [line for line in lines if line.startswith('warn')] == [
        line for line in lines[1:len(issues) + 1]]


def test_check_names_a_config_file_it_cannot_read(tmp_path):
    missing = str(tmp_path / 'nowhere.conf')
    checked = run_cli('check', '--config-file', missing)
    assert checked.returncode == 1
    assert checked.stderr == ''
    assert checked.stdout.splitlines()[-1] == (
        'FAIL config: Failed to find some config files: %s' % missing)


def test_check_names_an_unsupported_heat_release():
    found = checks.release_findings((28, 0, 0))
    assert checks.render(found[0]) == (
        'warn heat: openstack-heat 28.0.0 is not a supported series '
        '(supported: 2025.1 (Heat 24.x) .. 2026.2 (Heat 27.x)); engine on '
        'native threads')


def test_check_fails_naming_an_internal_heat_name_that_moved(monkeypatch):
    from heat.db import api as db_api
    monkeypatch.delattr(db_api, 'software_deployment_get')
    found = checks.boundary_findings(heat_internals.heat_version())
    assert [(f.level, f.topic) for f in found] == [('FAIL', 'boundary')]
    assert checks.render(found[0]).startswith(
        'FAIL boundary: heat.db.api:software_deployment_get is missing')


def test_check_fails_naming_the_type_without_the_loader(tmp_path):
    plugin_dir = tmp_path / 'plugins'
    plugin_dir.mkdir()
    conf = write_heat_conf(str(tmp_path / 'heat.conf'), str(plugin_dir))
    checked = run_cli('check', '--config-file', conf)
    assert checked.returncode == 1
    assert 'FAIL Test::Lifecycle::Probe' in checked.stdout
    assert 'not the winner' in checked.stdout


def test_check_fails_naming_a_type_that_does_not_import(tmp_path):
    plugin_dir = str(tmp_path / 'plugins')
    run_cli('install-loader', '--plugin-dir', plugin_dir)
    conf = write_heat_conf(str(tmp_path / 'heat.conf'), plugin_dir)
    checked = run_cli('check', '--config-file', conf,
                      dists=(PROBE_DIST, BROKEN_DIST))
    assert checked.returncode == 1
    assert 'ok   Test::Lifecycle::Probe' in checked.stdout
    broken = [line for line in checked.stdout.splitlines()
              if 'Test::Lifecycle::Broken' in line]
    assert broken and broken[0].startswith('FAIL')
    assert 'heat_lifecycle_plugins_missing_dependency' in broken[0]


def test_loader_in_a_python_without_the_package_names_that_python(
        tmp_path):
    plugin_dir = str(tmp_path / 'plugins')
    assert run_cli('install-loader', '--plugin-dir',
                   plugin_dir).returncode == 0
    # -I -S: no site-packages and no cwd, so our package is not importable,
    # as in a heat-engine whose Python is not the one pip installed into.
    code = ('import logging, runpy, sys; logging.basicConfig(); '
            'mapping = runpy.run_path(sys.argv[1])["resource_mapping"](); '
            'sys.exit(len(mapping))')
    proc = subprocess.run(
        [sys.executable, '-I', '-S', '-c', code,
         os.path.join(plugin_dir, plugin_dir_installer.LOADER_FILENAME)],
        capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert ('heat-lifecycle-plugins could not be loaded by %s'
            % sys.executable) in proc.stderr


def test_version_is_the_installed_distributions():
    shown = run_cli('--version')
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == 'heat-lifecycle-plugins %s\n' % (
        importlib.metadata.version('heat-lifecycle-plugins'))


def test_a_loader_of_another_version_is_found_stale(tmp_path):
    current, old = tmp_path / 'current', tmp_path / 'old'
    plugin_dir_installer.install_loader(str(current))
    old.mkdir()
    (old / plugin_dir_installer.LOADER_FILENAME).write_text('# older\n')
    assert plugin_dir_installer.stale_loaders(
        [str(current), str(old), str(tmp_path / 'none')]) == [
        str(old / plugin_dir_installer.LOADER_FILENAME)]
