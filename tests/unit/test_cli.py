"""The heat-lifecycle-plugins command, run as a real subprocess."""

import os

from heat_lifecycle_plugins import cli
from tests.plugin_env import BROKEN_DIST
from tests.plugin_env import PROBE_DIST
from tests.plugin_env import run_cli
from tests.plugin_env import write_heat_conf


def test_install_loader_writes_then_is_idempotent(tmp_path):
    plugin_dir = str(tmp_path / 'plugins')
    first = run_cli('install-loader', '--plugin-dir', plugin_dir)
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith('written ')
    path = os.path.join(plugin_dir, cli.LOADER_FILENAME)
    with open(path) as f:
        assert f.read() == cli.loader_source()
    again = run_cli('install-loader', '--plugin-dir', plugin_dir)
    assert again.returncode == 0
    assert again.stdout.startswith('unchanged ')


def test_install_loader_refuses_a_different_file_without_force(tmp_path):
    path = tmp_path / cli.LOADER_FILENAME
    path.write_text('# somebody else\'s file\n')
    refused = run_cli('install-loader', '--plugin-dir', str(tmp_path))
    assert refused.returncode == 1
    assert 'use --force' in refused.stderr
    assert path.read_text() == '# somebody else\'s file\n'
    forced = run_cli('install-loader', '--plugin-dir', str(tmp_path),
                     '--force')
    assert forced.returncode == 0, forced.stderr
    assert path.read_text() == cli.loader_source()


def test_list_shows_every_type_of_the_group():
    listed = run_cli('list')
    assert listed.returncode == 0, listed.stderr
    assert ('Test::Lifecycle::Probe' in listed.stdout and
            'lifecycle_probe:LifecycleProbe' in listed.stdout)


def test_check_reports_our_types_as_winners(tmp_path):
    plugin_dir = str(tmp_path / 'plugins')
    assert run_cli('install-loader', '--plugin-dir',
                   plugin_dir).returncode == 0
    conf = write_heat_conf(str(tmp_path / 'heat.conf'), plugin_dir)
    checked = run_cli('check', '--config-file', conf)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert 'ok   Test::Lifecycle::Probe' in checked.stdout
    assert 'FAIL' not in checked.stdout


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
