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
"""heat-lifecycle-dashboard-check on good and broken dashboard hosts.

In this process, against the tests' Horizon settings (Horizon's and
heat-dashboard's, with our enabled file loaded) and a host built in a
temporary directory: its enabled directory, STATIC_ROOT and policy files.
In a child Python, against Horizon's own openstack_dashboard.settings of
this venv, with a `local` package of the test's first on PYTHONPATH (as
tests/browser's Horizon): nothing is written into the venv.
"""

import os
import shutil
import subprocess
import sys

from django.conf import settings
from django.test import override_settings
import heat_dashboard
import pytest

from heat_lifecycle_dashboard import host_check
from heat_lifecycle_plugins.host_checks import checks

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
OURS = os.path.dirname(os.path.abspath(host_check.__file__))
ENABLED = os.path.join(OURS, 'enabled', '_1690_lifecycle_tab.py')
SCRIPT = 'heat_lifecycle_dashboard/js/lifecycle.js'
TAB = 'heat_lifecycle_dashboard.tabs.LifecycleTab'
HEAT_CONF = os.path.join(os.path.dirname(heat_dashboard.__file__), 'conf')
# heat-dashboard's local_settings.d/_1699_orchestration_settings.py, with
# its files where the venv has them.
HEAT_POLICY = {
    'POLICY_FILES': dict(settings.POLICY_FILES, orchestration=os.path.join(
        HEAT_CONF, 'heat_policy.yaml')),
    'DEFAULT_POLICY_FILES': dict(
        getattr(settings, 'DEFAULT_POLICY_FILES', {}),
        orchestration=os.path.join(HEAT_CONF, 'default_policies',
                                   'heat.yaml')),
    'POLICY_CHECK_FUNCTION': 'openstack_auth.policy.check'}


def build_host(root, enabled=True, static=True):
    """An enabled directory and a STATIC_ROOT under root."""
    enabled_dir = os.path.join(root, 'enabled')
    static_root = os.path.join(root, 'static')
    os.makedirs(enabled_dir)
    os.makedirs(os.path.dirname(os.path.join(static_root, SCRIPT)))
    if enabled:
        shutil.copy(ENABLED, enabled_dir)
    if static:
        shutil.copy(os.path.join(OURS, 'static', SCRIPT),
                    os.path.join(static_root, SCRIPT))
    return enabled_dir, static_root


def check(tmp_path, enabled=True, static=True, **overrides):
    """The findings on a host built in tmp_path, by topic."""
    enabled_dir, static_root = build_host(str(tmp_path), enabled, static)
    with override_settings(**dict(HEAT_POLICY, STATIC_ROOT=static_root,
                                  **overrides)):
        found = host_check.findings(host_check.read(
            settings=settings, enabled_dirs=[enabled_dir]))
    by_topic = {}
    for finding in found:
        by_topic.setdefault(finding.topic, []).append(finding)
    return by_topic


def test_a_good_host_is_all_ok(tmp_path):
    found = check(tmp_path)
    [compress] = found.pop('compress')
    assert compress.level == checks.NA  # the tests' Horizon compresses live
    assert {f.level for fs in found.values() for f in fs} == {checks.OK}
    versions = ' '.join(f.text for f in found['packages'])
    assert 'horizon ' in versions and 'heat-dashboard ' in versions
    assert found['enabled'][0].text.endswith(
        '_1690_lifecycle_tab.py is the packaged one')
    assert found['tab'][0].text == (
        'Horizon\'s EXTRA_TABS adds %s to heat_dashboard.content.stacks.'
        'tabs.StackDetailTabs' % TAB)
    assert found['static'][0].text.endswith(SCRIPT + ' is collected')
    # heat-dashboard's heat_policy.yaml is all comments: its rules are
    # the defaults of default_policies/heat.yaml.
    assert 'orchestration policy is in force' in found['policy'][0].text


def test_without_the_enabled_file_it_fails(tmp_path):
    [finding] = check(tmp_path, enabled=False)['enabled']
    assert finding.level == checks.FAIL
    assert finding.text.startswith(
        '_1690_lifecycle_tab.py is not in Horizon\'s enabled directories '
        '(%s): copy' % (tmp_path / 'enabled'))


def test_an_enabled_file_of_another_version_warns(tmp_path):
    enabled_dir, _ = build_host(str(tmp_path / 'other'))
    copy = os.path.join(enabled_dir, '_1690_lifecycle_tab.py')
    with open(copy, 'a') as f:
        f.write('# an older version\n')
    with override_settings(**HEAT_POLICY):
        found = host_check.findings(host_check.read(
            settings=settings, enabled_dirs=[enabled_dir]))
    [finding] = [f for f in found if f.topic == 'enabled']
    assert finding.level == checks.WARN
    assert 'differs from the packaged one' in finding.text
    with open(copy, 'w') as f:
        f.write('PANEL = "lifecycle"\n')
    found = host_check.findings(host_check.read(
        settings=settings, enabled_dirs=[enabled_dir]))
    [finding] = [f for f in found if f.topic == 'enabled']
    assert finding.level == checks.FAIL
    assert 'is not ours: it does not add %s' % TAB in finding.text


def test_a_tab_horizon_did_not_register_fails(tmp_path):
    horizon_config = dict(settings.HORIZON_CONFIG, extra_tabs={})
    found = check(tmp_path, HORIZON_CONFIG=horizon_config)['tab']
    assert [f.level for f in found] == [checks.FAIL]
    assert 'EXTRA_TABS does not add %s' % TAB in found[0].text
    apps = [a for a in settings.INSTALLED_APPS
            if a != 'heat_lifecycle_dashboard']
    found = check(tmp_path / 'apps', INSTALLED_APPS=apps)['tab']
    assert found[-1].level == checks.FAIL
    assert 'INSTALLED_APPS lacks heat_lifecycle_dashboard' in found[-1].text


def test_static_files_not_collected_warn(tmp_path):
    [finding] = check(tmp_path, static=False)['static']
    assert finding.level == checks.WARN
    assert finding.text.startswith('%s is not in STATIC_ROOT' % SCRIPT)
    assert 'collectstatic --noinput and compress --force' in finding.text


def test_without_heat_dashboards_policy_it_warns(tmp_path):
    # Horizon's own POLICY_FILES: no 'orchestration'.
    found = check(tmp_path, POLICY_FILES={'identity': 'keystone.yaml'})
    [finding] = found['policy']
    assert finding.level == checks.WARN
    assert finding.text.startswith('POLICY_FILES has no \'orchestration\'')
    assert '_1699_orchestration_settings.py' in finding.text
    # heat_policy.yaml named, but not its defaults: no rule at all.
    defaults = dict(HEAT_POLICY['DEFAULT_POLICY_FILES'])
    del defaults['orchestration']
    [finding] = check(tmp_path / 'defaults',
                      DEFAULT_POLICY_FILES=defaults)['policy']
    assert finding.level == checks.WARN
    assert 'heat_policy.yaml (found) and None (missing) give no rules' in (
        finding.text)
    [finding] = check(tmp_path / 'off', POLICY_CHECK_FUNCTION=None)['policy']
    assert finding.level == checks.WARN
    assert finding.text.startswith('POLICY_CHECK_FUNCTION is not set')


LOCAL_SETTINGS = '''\
import openstack_dashboard.local.enabled
openstack_dashboard.local.enabled.__path__.append(%(enabled)r)
SECRET_KEY = 'test-host-check'
STATIC_ROOT = %(static)r
'''
POLICY_SETTINGS = '''\
from openstack_dashboard import defaults
POLICY_FILES = dict(defaults.POLICY_FILES, orchestration=%(file)r)
DEFAULT_POLICY_FILES = dict(defaults.DEFAULT_POLICY_FILES,
                            orchestration=%(default)r)
'''


def child_env(root, policy=True, settings='', **host):
    """A host in root for a child Python with Horizon's own settings.

    settings: more lines of its local_settings.py.
    """
    enabled_dir, static_root = build_host(root, **host)
    for name in os.listdir(os.path.join(os.path.dirname(
            heat_dashboard.__file__), 'enabled')):
        if name.startswith('_1') and name.endswith('.py'):
            shutil.copy(os.path.join(os.path.dirname(
                heat_dashboard.__file__), 'enabled', name), enabled_dir)
    local = os.path.join(root, 'local')
    os.makedirs(local)
    open(os.path.join(local, '__init__.py'), 'w').close()
    with open(os.path.join(local, 'local_settings.py'), 'w') as f:
        f.write(LOCAL_SETTINGS % {'enabled': enabled_dir,
                                  'static': static_root})
        if policy:
            f.write(POLICY_SETTINGS % {
                'file': HEAT_POLICY['POLICY_FILES']['orchestration'],
                'default': HEAT_POLICY['DEFAULT_POLICY_FILES'][
                    'orchestration']})
        f.write(settings)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, ROOT]),
               PYTHONDONTWRITEBYTECODE='1')
    env.pop('DJANGO_SETTINGS_MODULE', None)
    return env


def run_check(root, python_code=None, env=None, **host):
    """The check in a child Python with Horizon's own settings."""
    env = env or child_env(root, **host)
    code = python_code or ('import sys; from heat_lifecycle_dashboard '
                           'import host_check; sys.exit(host_check.main())')
    return subprocess.run([sys.executable, '-c', code], env=env, cwd=root,
                          capture_output=True, text=True, timeout=300)


def test_horizons_own_settings_on_a_good_host(tmp_path):
    done = run_check(str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    # Horizon compresses when a page asks, unless told otherwise.
    assert ('n/a  compress: offline compression is off (COMPRESS_OFFLINE): '
            'Horizon compresses %s when a page first asks for it' % SCRIPT
            in lines), done.stdout
    assert all(line.startswith('ok   ') for line in lines
               if ' compress: ' not in line), done.stdout
    assert 'ok   enabled: %s is the packaged one' % (
        tmp_path / 'enabled' / '_1690_lifecycle_tab.py') in lines


def test_horizons_own_settings_on_a_broken_host(tmp_path):
    done = run_check(str(tmp_path), enabled=False, static=False,
                     policy=False)
    assert done.returncode == 1, done.stdout + done.stderr
    assert 'Traceback' not in done.stderr
    levels = {line.split(':')[0] for line in done.stdout.splitlines()}
    assert {'FAIL enabled', 'FAIL tab', 'warn static',
            'warn policy'} <= levels


# As kolla-ansible and openstack-ansible run Horizon: compressed offline.
OFFLINE_SETTINGS = '''\
COMPRESS_OFFLINE = True
CACHES = {'default': {
    'BACKEND': 'django.core.cache.backends.locmem.LocMemCache'}}
'''


def manage(root, env, *command):
    subprocess.run([sys.executable, '-m', 'django'] + list(command),
                   env=dict(env, DJANGO_SETTINGS_MODULE=(
                       'openstack_dashboard.settings')),
                   cwd=root, check=True, capture_output=True, timeout=600)


def compress_line(done):
    [line] = [line for line in done.stdout.splitlines()
              if ' compress: ' in line]
    return line


def test_an_offline_manifest_without_the_tabs_script_fails(tmp_path):
    root = str(tmp_path)
    env = child_env(root, settings=OFFLINE_SETTINGS)
    manifest = tmp_path / 'static' / 'dashboard' / 'manifest.json'
    done = run_check(root, env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    assert compress_line(done) == (
        'FAIL compress: COMPRESS_OFFLINE is on and the offline manifest %s '
        'is missing: Horizon\'s pages fail (OfflineGenerationError) until '
        'you run manage.py compress --force (after collectstatic), then '
        'restart the web server' % manifest)
    manage(root, env, 'collectstatic', '--noinput')
    # Compressed before the enabled file was copied: no block with ours.
    ours = tmp_path / 'enabled' / '_1690_lifecycle_tab.py'
    os.rename(ours, tmp_path / 'aside.py')
    manage(root, env, 'compress', '--force')
    os.rename(tmp_path / 'aside.py', ours)
    line = compress_line(run_check(root, env=env))
    assert line.startswith(
        'FAIL compress: COMPRESS_OFFLINE is on and the offline manifest %s '
        'lacks the compressed scripts with %s: ' % (manifest, SCRIPT)), line
    manage(root, env, 'compress', '--force')
    done = run_check(root, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert compress_line(done) == (
        'ok   compress: the offline manifest %s has the compressed scripts '
        'with %s' % (manifest, SCRIPT))


@pytest.mark.parametrize('missing', ['openstack_dashboard', 'heat_dashboard'])
def test_a_python_without_horizon_fails_in_one_line(tmp_path, missing):
    # A None entry in sys.modules: its import raises ImportError, as in a
    # Python that does not have it.
    code = ('import sys; sys.modules[%r] = None; '
            'from heat_lifecycle_dashboard import host_check; '
            'sys.exit(host_check.main())' % missing)
    done = run_check(str(tmp_path), python_code=code)
    assert done.returncode == 1
    assert done.stderr == ''
    [failed] = [line for line in done.stdout.splitlines()
                if line.startswith('FAIL')]
    assert failed.startswith('FAIL packages: %s is not importable in %s' % (
        {'openstack_dashboard': 'horizon',
         'heat_dashboard': 'heat-dashboard'}[missing], sys.executable))
