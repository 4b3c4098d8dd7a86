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
"""Loading the entry-point group: broken plugins are skipped, not fatal."""

import os
import subprocess
import sys

from heat_lifecycle_plugins import plugin_dir_installer
from tests.plugin_env import BROKEN_DIST
from tests.plugin_env import PROBE_DIST

LOAD_THROUGH_HEAT = '''
import heat.tests.common
from oslo_config import cfg
from heat.common import config
from heat.engine import resources
from heat_lifecycle_plugins import plugin_dir_installer
plugin_dir_installer.install_loader(%(plugin_dir)r)
cfg.CONF([], project='heat')
cfg.CONF.set_override('plugin_dirs', [%(plugin_dir)r])
cfg.CONF.set_override('environment_dir', %(env_dir)r)
resources.initialise()
env = resources.global_env()
print('PROBE', env.get_class('Test::Lifecycle::Probe').__module__)
for name in ('Test::Lifecycle::Broken', 'Test::Lifecycle::NotAResource'):
    print(name, name in env.registry.get_types())
print('NONE', env.get_class('OS::Heat::None').__module__)
'''


def test_broken_type_is_skipped_with_a_logged_error(tmp_path):
    (tmp_path / 'env').mkdir()
    code = LOAD_THROUGH_HEAT % {'plugin_dir': str(tmp_path / 'plugins'),
                                'env_dir': str(tmp_path / 'env')}
    env = dict(os.environ, PYTHONPATH='%s:%s' % (PROBE_DIST, BROKEN_DIST))
    proc = subprocess.run([sys.executable, '-c', code], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout.splitlines()
    assert 'PROBE lifecycle_probe' in out
    assert 'Test::Lifecycle::Broken False' in out
    assert 'Test::Lifecycle::NotAResource False' in out
    assert 'NONE heat.engine.resources.openstack.heat.none_resource' in out
    assert ('resource type Test::Lifecycle::Broken '
            '(lifecycle_broken:Broken) was not loaded' in proc.stderr)
    assert 'heat_lifecycle_plugins_missing_dependency' in proc.stderr
    assert ('Test::Lifecycle::NotAResource points at' in proc.stderr and
            'not a heat Resource class' in proc.stderr)


def test_loader_returns_nothing_when_the_package_cannot_import(tmp_path):
    """The loader copy in plugin_dirs never raises into heat-engine."""
    shadow = tmp_path / 'shadow' / 'heat_lifecycle_plugins'
    shadow.mkdir(parents=True)
    (shadow / '__init__.py').write_text(
        'raise ImportError("half-installed")\n')
    plugin_dir_installer.install_loader(str(tmp_path / 'plugins'))
    code = ('import sys; sys.path.insert(0, %r); '
            'import heat_lifecycle_plugins_loader as l; '
            'print(l.resource_mapping())' % str(tmp_path / 'plugins'))
    env = dict(os.environ, PYTHONPATH=str(tmp_path / 'shadow'))
    proc = subprocess.run([sys.executable, '-c', code], env=env,
                          cwd=str(tmp_path), capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == '{}'
    assert 'half-installed' in proc.stderr
    assert 'continues without its resource types' in proc.stderr
