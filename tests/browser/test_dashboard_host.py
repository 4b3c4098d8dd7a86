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
"""The dashboard host as the fixture serves it, without a browser."""

import os
import stat
import urllib.error
import urllib.request

import pytest

from heat_lifecycle_fixtures import process


def test_static_files_stay_in_static_root(horizon):
    """A collected file is served, a path out of STATIC_ROOT is not.

    local_settings.py, beside STATIC_ROOT, holds the SECRET_KEY.
    """
    with urllib.request.urlopen(
            horizon.url + '/static/dashboard/img/favicon.ico') as found:
        assert found.status == 200
    for path in ('/static/../local/local_settings.py',
                 '/static/%2e%2e/local/local_settings.py'):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(horizon.url + path).read()
        assert refused.value.code == 404, path


def gunicorn_major(horizon):
    """The major version of gunicorn in the dashboard host's venv."""
    return int(process.run([horizon.python, '-c', (
        'import importlib.metadata as m; '
        'print(m.version("gunicorn"))')], 'gunicorn\'s version').stdout
        .strip().split('.')[0])


def test_gunicorn_keeps_its_control_socket_in_the_work_directory(horizon):
    """Nothing in the user's home (~/.gunicorn/), no socket shared."""
    where = horizon.path('home', '.gunicorn')
    if gunicorn_major(horizon) >= 25:
        socket = os.path.join(where, 'gunicorn.ctl')
        assert os.path.exists(socket), 'no control socket in %s' % where
        assert stat.S_ISSOCK(os.stat(socket).st_mode)
    else:  # no control socket before gunicorn 25
        assert not os.path.exists(where)


def test_the_host_check_finds_the_tab_in_the_offline_manifest(horizon):
    """The check finds the tab's script in the offline manifest.

    The fixture compresses offline, as kolla and openstack-ansible do;
    the check runs as the operator would.
    """
    done = process.run([horizon.python, '-m',
                        'heat_lifecycle_dashboard.host_check'],
                       'heat-lifecycle-dashboard-check', env=horizon.env,
                       cwd=horizon.workdir)
    assert ('ok   compress: the offline manifest %s has the compressed '
            'scripts with heat_lifecycle_dashboard/js/lifecycle.js' %
            horizon.path('static', 'dashboard', 'manifest.json')
            in done.stdout.splitlines()), done.stdout
