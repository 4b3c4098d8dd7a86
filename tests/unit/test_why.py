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
"""`heat-lifecycle-plugins why` without a cloud: its arguments and errors.

Each error is one line on stderr and exit status 2, never a traceback.
tests/e2e/test_why.py runs it against a real cloud.
"""

import os
import socket
import subprocess
import sys

import pytest

from tests.plugin_env import run_cli


@pytest.fixture
def without_cloud(tmp_path):
    """os.environ without OS_* variables, a clouds.yaml without clouds."""
    clouds = tmp_path / 'clouds.yaml'
    clouds.write_text('clouds: {}\n')

    def env(**variables):
        found = {k: v for k, v in os.environ.items()
                 if not k.startswith('OS_')}
        found['OS_CLIENT_CONFIG_FILE'] = str(clouds)
        found.update(variables)
        return found
    return env


def closed_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def assert_one_line_error(run, text):
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stdout == ''
    assert run.stderr.count('\n') == 1, run.stderr
    assert run.stderr.startswith('error: ') and text in run.stderr, (
        run.stderr)


def test_help_lists_the_openstack_client_options(without_cloud):
    shown = run_cli('why', '--help', env=without_cloud())
    assert shown.returncode == 0, shown.stderr
    for option in ('STACK', '--json', '--os-cloud', '--os-auth-url',
                   '--os-password', '--os-region-name', '--os-interface'):
        assert option in shown.stdout


def test_without_a_stack_argument(without_cloud):
    run = run_cli('why', env=without_cloud())
    assert run.returncode == 2
    assert 'the following arguments are required: STACK' in run.stderr


def test_without_credentials(without_cloud):
    run = run_cli('why', 'app', env=without_cloud())
    assert_one_line_error(run, 'cannot authenticate: ')
    assert 'auth_url' in run.stderr


def test_an_unknown_cloud_name(without_cloud):
    run = run_cli('why', '--os-cloud', 'nowhere', 'app',
                  env=without_cloud())
    assert_one_line_error(run, 'cloud configuration: Cloud nowhere was not '
                               'found')


@pytest.mark.parametrize('text, said', [
    ('clouds: 5\n', 'error: cloud configuration: '),
    # Not YAML: openstacksdk 4.4 refuses it, later ones skip the file.
    ('clouds: [\n', 'error: '),
])
def test_a_clouds_yaml_that_is_not_a_map_of_clouds(
        without_cloud, tmp_path, text, said):
    bad = tmp_path / 'bad-clouds.yaml'
    bad.write_text(text)
    run = run_cli('why', 'app', env=without_cloud(
        OS_CLIENT_CONFIG_FILE=str(bad)))
    assert_one_line_error(run, said)


def test_keystone_unreachable(without_cloud):
    url = 'http://127.0.0.1:%d/v3' % closed_port()
    run = run_cli('why', 'app', '--os-auth-url', url, '--os-username', 'u',
                  '--os-password', 'p', '--os-project-name', 'p',
                  '--os-user-domain-name', 'Default',
                  '--os-project-domain-name', 'Default',
                  env=without_cloud())
    assert_one_line_error(run, 'cannot reach the cloud: %s' % url)
    assert run.stderr.endswith('Connection refused\n'), run.stderr


def test_heat_unreachable_without_keystone(without_cloud):
    """auth_type none with an endpoint: straight to a heat-api that is down.

    Through OS_* variables, as the openstack client reads them.
    """
    endpoint = 'http://127.0.0.1:%d/v1/admin' % closed_port()
    run = run_cli('why', 'app', env=without_cloud(
        OS_AUTH_TYPE='none', OS_ENDPOINT=endpoint))
    assert_one_line_error(run, 'cannot reach the cloud: %s' % endpoint)


def test_list_and_check_do_not_load_the_cloud_clients(without_cloud):
    """Only `why` pays for openstack.config (and its clouds.yaml)."""
    code = ('import sys; from heat_lifecycle_plugins.cmd import cli; '
            'cli.main(["list"]); '
            'print(sorted(m for m in ("openstack", "heatclient") '
            'if m in sys.modules))')
    run = subprocess.run([sys.executable, '-c', code], capture_output=True,
                         text=True, env=without_cloud(), timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == '[]'
