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
"""Subprocess helpers: run our command with test-only plugin dists visible."""

import os
import subprocess
import sys

from tests.conftest import BROKEN_DIST
from tests.conftest import PROBE_DIST


def run_cli(*args, dists=(PROBE_DIST,), timeout=120, env=None):
    """The command in a subprocess; env replaces os.environ if given."""
    env = dict(os.environ if env is None else env)
    env['PYTHONPATH'] = os.pathsep.join(
        list(dists) + [env.get('PYTHONPATH', '')]).rstrip(os.pathsep)
    return subprocess.run(
        [sys.executable, '-m', 'heat_lifecycle_plugins.cmd.cli'] + list(args),
        env=env, capture_output=True, text=True, timeout=timeout)


# A signal path `check` finds nothing wrong with on Heat 25.0 to 27.x
# (the [heat_lifecycle_plugins] section is for those releases only), for
# servers and for Mistral's notifications (the stack domain).
SIGNAL_PATH = """
heat_metadata_server_url = http://cfn.example.org:8000
heat_waitcondition_server_url = http://cfn.example.org:8000/v1/waitcondition
stack_user_domain_name = heat
stack_domain_admin = heat_domain_admin
stack_domain_admin_password = secret

[heat_lifecycle_plugins]
forget_finished_threads = true

[ec2authtoken]
auth_type = password
auth_url = http://keystone.example.org:5000/v3
username = heat
password = secret
user_domain_name = Default
project_name = service
project_domain_name = Default
endpoint_override = http://keystone.example.org:5000
"""


def sound_signal_path():
    """SIGNAL_PATH for the installed Heat: the remedy where it acts."""
    from heat_lifecycle_plugins import heat_internals
    from heat_lifecycle_plugins import releases
    keys = {issue.key for issue in releases.issues_of(
        heat_internals.heat_version())}
    if 'per-stack-thread-budget' in keys:
        return SIGNAL_PATH
    section = SIGNAL_PATH.index('[heat_lifecycle_plugins]')
    return SIGNAL_PATH[:section] + SIGNAL_PATH[SIGNAL_PATH.index(
        '[ec2authtoken]'):]


def write_heat_conf(path, plugin_dir, signal_path=None):
    if signal_path is None:
        signal_path = sound_signal_path()
    with open(path, 'w') as f:
        f.write('[DEFAULT]\nplugin_dirs = %s\nenvironment_dir = %s\n%s'
                % (plugin_dir, os.path.dirname(path), signal_path))
    return path


__all__ = ['run_cli', 'write_heat_conf', 'BROKEN_DIST', 'PROBE_DIST',
           'SIGNAL_PATH']
