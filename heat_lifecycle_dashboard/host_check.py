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
"""`heat-lifecycle-dashboard-check`: will Horizon show the Lifecycle tab?

Run on the dashboard host with the Python Horizon runs in, as the user
that runs its manage.py. read() loads Horizon's Django settings as
manage.py does and reads the packages, the enabled files, EXTRA_TABS,
STATIC_ROOT, the offline compression manifest and the orchestration
policy; findings() judges that reading
(no I/O); main() prints one line each, as `heat-lifecycle-plugins check`
does (host_checks.checks). Exit status 0: no FAIL line; 1: one or more.

An operator command, not part of the tab: besides lifecycle_data, it is
the one dashboard module that imports the project's library, and only its
line format (no Heat, no Mistral).
"""

import argparse
import collections
import glob
import importlib
import importlib.metadata
import json
import os
import sys
import warnings

from heat_lifecycle_plugins.host_checks import checks

SETTINGS = 'openstack_dashboard.settings'
# (distribution, module imported) in the order judged.
PACKAGES = (('heat-lifecycle-plugins', 'heat_lifecycle_dashboard'),
            ('horizon', 'openstack_dashboard'),
            ('heat-dashboard', 'heat_dashboard'))
# Where Horizon's settings.py loads enabled files from (update_dashboards).
HORIZON_ENABLED = ('openstack_dashboard.local.enabled',
                   'openstack_dashboard.enabled')
OUR_ENABLED = 'heat_lifecycle_dashboard.enabled'
COPY = ('copy heat_lifecycle_dashboard/enabled/%s into '
        'openstack_dashboard/local/enabled/')
COLLECT = ('run manage.py collectstatic --noinput and compress --force, '
           'then restart the web server')
COMPRESS = ('run manage.py compress --force (after collectstatic), then '
            'restart the web server')
# The template whose compress block holds HORIZON_CONFIG['js_files'] (our
# ADD_JS_FILES): every page includes it (base.html).
SCRIPTS_TEMPLATE = 'horizon/_scripts.html'
POLICY = ('copy heat_dashboard/local_settings.d/'
          '_1699_orchestration_settings.py into openstack_dashboard/local/'
          'local_settings.d/ (or set POLICY_FILES and DEFAULT_POLICY_FILES '
          '[\'orchestration\'] in local_settings.py)')

# A package: its version and module path, or the import error.
Package = collections.namedtuple('Package', 'distribution version where '
                                            'error')
# One of our enabled files: its name and text, the copy Horizon loads
# (path and text, None when there is none), and what it adds: EXTRA_TABS,
# ADD_INSTALLED_APPS, ADD_JS_FILES.
Enabled = collections.namedtuple('Enabled', 'name text installed '
                                            'installed_text tabs apps scripts')
# A static file of ours: its name, whether it is in STATIC_ROOT ('same',
# 'differs' or 'missing') and where.
Static = collections.namedtuple('Static', 'name state path')
# Offline compression: whether it is on (COMPRESS_ENABLED and
# COMPRESS_OFFLINE), the manifest (where, whether it exists), the key of
# each compress block naming a script of ours (one per offline context)
# with whether the manifest has it, and the error that stopped the reading.
Compress = collections.namedtuple('Compress', 'offline manifest exists '
                                              'blocks error',
                                  defaults=(None, False, (), None))
# Horizon's policy for heat-dashboard: POLICY_CHECK_FUNCTION, the files
# named for 'orchestration' (None when not named) and whether they exist,
# and how many rules Horizon's policy engine holds for it.
Policy = collections.namedtuple('Policy', 'check_function file file_exists '
                                          'default_file default_exists rules')
# What read() found; the fields after settings_error are None when the
# packages or the settings could not be loaded.
Reading = collections.namedtuple(
    'Reading', 'python packages settings_module settings_error '
               'enabled_dirs enabled registered apps_missing load_errors '
               'static policy compress',
    defaults=(None,) * 10)


def _error(exc):
    return '%s: %s' % (type(exc).__name__, exc)


def read_package(distribution, module):
    try:
        where = os.path.dirname(importlib.import_module(module).__file__)
    except Exception as exc:  # not installed, or broken on import
        return Package(distribution, None, None, _error(exc))
    try:
        version = importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        version = '(version unknown)'
    return Package(distribution, version, where, None)


def load_settings(module):
    """Horizon's settings, set up as manage.py does: (settings, error)."""
    os.environ.setdefault('DJANGO_SETTINGS_MODULE', module)
    try:
        import django
        from django.conf import settings
        django.setup()
        settings.INSTALLED_APPS  # raises if the module does not load
    except Exception as exc:
        return None, _error(exc)
    return settings, None


def horizon_enabled_dirs():
    dirs = []
    for name in HORIZON_ENABLED:
        dirs.extend(importlib.import_module(name).__path__)
    return dirs


def _text(path):
    try:
        with open(path, encoding='utf-8') as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def read_enabled(dirs):
    """Our enabled files: each with the copy Horizon's directories have."""
    package = importlib.import_module(OUR_ENABLED)
    found = []
    for path in sorted(glob.glob(os.path.join(package.__path__[0],
                                              '_*.py'))):
        name = os.path.basename(path)
        if name == '__init__.py':
            continue
        config = importlib.import_module('%s.%s' % (OUR_ENABLED, name[:-3]))
        copies = [os.path.join(d, name) for d in dirs
                  if os.path.isfile(os.path.join(d, name))]
        installed = copies[0] if copies else None
        found.append(Enabled(name, _text(path), installed,
                             installed and _text(installed),
                             getattr(config, 'EXTRA_TABS', {}),
                             getattr(config, 'ADD_INSTALLED_APPS', []),
                             getattr(config, 'ADD_JS_FILES', [])))
    return found


def _load_error(path):
    module, _, name = path.rpartition('.')
    try:
        getattr(importlib.import_module(module), name)
    except Exception as exc:
        return _error(exc)
    return None


def _tab_path(entry):
    """A tab of HORIZON_CONFIG['extra_tabs']: 'path' or (priority, path)."""
    return entry if isinstance(entry, str) else tuple(entry)[-1]


def read_registration(settings, enabled):
    """({tab group: its tabs}, [our apps not installed], {path: error}).

    The tabs Horizon's EXTRA_TABS gives each tab group of ours, the apps
    of ours INSTALLED_APPS lacks, and the import error (or None) of each
    tab group and tab class our enabled files name.
    """
    extra_tabs = settings.HORIZON_CONFIG.get('extra_tabs', {})
    registered, errors = {}, {}
    for entry in enabled:
        for group, tabs in entry.tabs.items():
            registered[group] = [_tab_path(t) for t in extra_tabs.get(group,
                                                                      ())]
            for path in [group] + [_tab_path(t) for t in tabs]:
                errors[path] = _load_error(path)
    missing = [app for entry in enabled for app in entry.apps
               if app not in settings.INSTALLED_APPS]
    return registered, missing, errors


def read_static(settings, enabled):
    found = []
    for entry in enabled:
        for name in entry.scripts:
            ours = os.path.join(os.path.dirname(__file__), 'static', name)
            path = os.path.join(settings.STATIC_ROOT or '', name)
            collected = _text(path)
            state = ('missing' if collected is None else
                     'same' if collected == _text(ours) else 'differs')
            found.append(Static(name, state, path))
    return found


def _offline_contexts(settings):
    """COMPRESS_OFFLINE_CONTEXT as `manage.py compress` takes it."""
    contexts = settings.COMPRESS_OFFLINE_CONTEXT
    if isinstance(contexts, str):
        module, _, name = contexts.rpartition('.')
        contexts = getattr(importlib.import_module(module), name)()
    elif not isinstance(contexts, (list, tuple)):
        contexts = [contexts]
    return contexts


def _script_blocks(scripts, settings):
    """The offline keys of the compress blocks that name our scripts.

    SCRIPTS_TEMPLATE's blocks that name one of `scripts`, each key
    computed as `manage.py compress` computes it.
    """
    from compressor import cache
    from compressor.offline import django as offline
    from django import template
    parser = offline.DjangoParser(charset='utf-8')
    compressed = parser.parse(SCRIPTS_TEMPLATE)
    keys = []
    for context_dict in _offline_contexts(settings):
        context = template.Context(parser.get_init_context(context_dict))
        for node in parser.walk_nodes(compressed, context=context):
            context.push()
            with context.render_context.push_state(compressed):
                rendered = parser.render_nodelist(compressed, context, node)
            context.pop()
            if any(name in rendered for name in scripts):
                keys.append(cache.get_offline_hexdigest(rendered))
    return keys


def read_compress(settings, enabled):
    """Whether the offline manifest has the blocks with our scripts.

    Offline, Horizon's pages take each compress block from the manifest
    `manage.py compress` wrote, by a key of the block's content: a block
    that names our script since is missing from an older manifest.
    """
    if not (settings.COMPRESS_ENABLED and settings.COMPRESS_OFFLINE):
        return Compress(False)
    from compressor import storage
    name = settings.COMPRESS_OFFLINE_MANIFEST
    found = Compress(True, name)
    try:
        store = storage.DefaultOfflineManifestStorage()
        found = found._replace(manifest=store.path(name),
                               exists=store.exists(name))
        manifest = {}
        if found.exists:
            with store.open(name) as f:
                manifest = json.loads(f.read().decode('utf-8'))
        keys = _script_blocks(
            [n for entry in enabled for n in entry.scripts], settings)
    except Exception as exc:  # a template, context or manifest unreadable
        return found._replace(error=_error(exc))
    return found._replace(blocks=tuple((key, key in manifest)
                                       for key in keys))


def read_policy(settings):
    """heat-dashboard's policy as openstack_auth loads it."""
    base = settings.POLICY_FILES_PATH
    named = settings.POLICY_FILES.get('orchestration')
    default = getattr(settings, 'DEFAULT_POLICY_FILES', {}).get(
        'orchestration')
    file = named and os.path.join(base, named)
    default_file = default and os.path.join(base, default)
    rules = 0
    if named:
        from openstack_auth import policy
        # openstack_auth's own enforcers, which its check() uses: a
        # service whose files give no rules has none, and every rule of it
        # is allowed. reset(): built from these settings, and not kept.
        policy.reset()
        try:
            enforcer = policy._get_enforcer().get('orchestration')
        except Exception:  # a file oslo.policy cannot read: no rules
            enforcer = None
        finally:
            policy.reset()
        rules = len(enforcer.rules) if enforcer else 0
    return Policy(settings.POLICY_CHECK_FUNCTION, file,
                  bool(file) and os.path.isfile(file), default_file,
                  bool(default_file) and os.path.isfile(default_file), rules)


def read(settings_module=SETTINGS, settings=None, enabled_dirs=None):
    """A Reading of this host.

    settings and enabled_dirs, when given, are read instead of Horizon's
    (tests).
    """
    packages = [read_package(d, m) for d, m in PACKAGES]
    reading = Reading(sys.executable, packages, settings_module)
    if any(p.error for p in packages):
        return reading
    if settings is None:
        settings, error = load_settings(settings_module)
        if error:
            return reading._replace(settings_error=error)
    dirs = enabled_dirs if enabled_dirs is not None else (
        horizon_enabled_dirs())
    enabled = read_enabled(dirs)
    registered, missing, errors = read_registration(settings, enabled)
    return reading._replace(
        enabled_dirs=dirs, enabled=enabled, registered=registered,
        apps_missing=missing, load_errors=errors,
        static=read_static(settings, enabled), policy=read_policy(settings),
        compress=read_compress(settings, enabled))


def package_findings(python, packages):
    found = []
    for package in packages:
        if package.error:
            found.append(checks.Finding(checks.FAIL, 'packages', (
                '%s is not importable in %s (%s): run this check with the '
                'Python Horizon runs in, where %s is installed' % (
                    package.distribution, python, package.error,
                    package.distribution))))
        else:
            found.append(checks.Finding(checks.OK, 'packages', '%s %s (%s)' % (
                package.distribution, package.version, package.where)))
    return found


def enabled_findings(enabled, dirs):
    found = []
    for entry in enabled:
        tabs = [_tab_path(t) for group in entry.tabs.values()
                for t in group]
        if entry.installed is None:
            found.append(checks.Finding(checks.FAIL, 'enabled', (
                '%s is not in Horizon\'s enabled directories (%s): %s, '
                'then restart the web server' % (
                    entry.name, ', '.join(dirs), COPY % entry.name))))
        elif entry.installed_text == entry.text:
            found.append(checks.Finding(checks.OK, 'enabled', (
                '%s is the packaged one' % entry.installed)))
        elif all(t in (entry.installed_text or '') for t in tabs):
            found.append(checks.Finding(checks.WARN, 'enabled', (
                '%s differs from the packaged one (of another version?): '
                '%s again' % (entry.installed, COPY % entry.name))))
        else:
            found.append(checks.Finding(checks.FAIL, 'enabled', (
                '%s is not ours: it does not add %s; %s' % (
                    entry.installed, ', '.join(tabs), COPY % entry.name))))
    return found


def tab_findings(enabled, registered, apps_missing, load_errors):
    found = [checks.Finding(checks.FAIL, 'tab', '%s does not load: %s' % (
        path, error)) for path, error in sorted(load_errors.items()) if error]
    for entry in enabled:
        for group, tabs in sorted(entry.tabs.items()):
            for tab in map(_tab_path, tabs):
                if tab in registered.get(group, ()):
                    found.append(checks.Finding(checks.OK, 'tab', (
                        'Horizon\'s EXTRA_TABS adds %s to %s' % (
                            tab, group))))
                else:
                    found.append(checks.Finding(checks.FAIL, 'tab', (
                        'Horizon\'s EXTRA_TABS does not add %s to %s (its '
                        'settings loaded no enabled file of ours)' % (
                            tab, group))))
    if apps_missing:
        found.append(checks.Finding(checks.FAIL, 'tab', (
            'INSTALLED_APPS lacks %s: its templates and static files are '
            'not found' % ', '.join(apps_missing))))
    return found


def static_findings(static):
    found = []
    for item in static:
        if item.state == 'same':
            found.append(checks.Finding(checks.OK, 'static', (
                '%s is collected' % item.path)))
        else:
            found.append(checks.Finding(checks.WARN, 'static', (
                '%s %s in STATIC_ROOT (%s): Horizon does not serve the '
                'tab\'s script (its refresh and action form); %s' % (
                    item.name, 'is not' if item.state == 'missing' else
                    'is of another version', item.path, COLLECT))))
    return found


def compress_findings(compress, enabled):
    scripts = ', '.join(n for entry in enabled for n in entry.scripts)
    if not compress.offline:
        return [checks.Finding(checks.NA, 'compress', (
            'offline compression is off (COMPRESS_OFFLINE): Horizon '
            'compresses %s when a page first asks for it' % scripts))]
    if compress.error:
        return [checks.Finding(checks.WARN, 'compress', (
            'COMPRESS_OFFLINE is on and the compress blocks of %s could not '
            'be read (%s): if pages fail with OfflineGenerationError, %s' % (
                SCRIPTS_TEMPLATE, compress.error, COMPRESS)))]
    if not compress.blocks:
        return [checks.Finding(checks.WARN, 'compress', (
            'COMPRESS_OFFLINE is on and no compress block of %s names %s: '
            'the tab\'s script is not loaded (see the tab line)' % (
                SCRIPTS_TEMPLATE, scripts)))]
    if all(has for _key, has in compress.blocks):
        return [checks.Finding(checks.OK, 'compress', (
            'the offline manifest %s has the compressed scripts with %s' % (
                compress.manifest, scripts)))]
    problem = ('lacks the compressed scripts with %s' % scripts
               if compress.exists else 'is missing')
    return [checks.Finding(checks.FAIL, 'compress', (
        'COMPRESS_OFFLINE is on and the offline manifest %s %s: Horizon\'s '
        'pages fail (OfflineGenerationError) until you %s' % (
            compress.manifest, problem, COMPRESS)))]


def policy_findings(policy):
    if not policy.check_function:
        return [checks.Finding(checks.WARN, 'policy', (
            'POLICY_CHECK_FUNCTION is not set: Horizon allows every rule, '
            'and users with only the reader role are offered the tab\'s '
            'action button (heat-api still refuses them)'))]
    if not policy.file:
        problem = 'POLICY_FILES has no \'orchestration\' entry'
    elif not policy.rules:
        problem = ('%s (%s) and %s (%s) give no rules' % (
            policy.file, 'found' if policy.file_exists else 'missing',
            policy.default_file,
            'found' if policy.default_exists else 'missing'))
    else:
        return [checks.Finding(checks.OK, 'policy', (
            'heat-dashboard\'s orchestration policy is in force (%d rules; '
            '%s)' % (policy.rules, policy.file if policy.file_exists else
                     policy.default_file)))]
    return [checks.Finding(checks.WARN, 'policy', (
        '%s: Horizon allows every orchestration rule, and users with only '
        'the reader role are offered the tab\'s action button (heat-api '
        'still refuses them); %s' % (problem, POLICY)))]


def findings(reading):
    """Every finding of a Reading (no I/O)."""
    found = package_findings(reading.python, reading.packages)
    if any(p.error for p in reading.packages):
        return found
    if reading.settings_error:
        return found + [checks.Finding(checks.FAIL, 'settings', (
            'Horizon\'s settings (%s) do not load: %s; run this check as '
            'Horizon\'s manage.py runs (its DJANGO_SETTINGS_MODULE, '
            'PYTHONPATH and user)' % (reading.settings_module,
                                      reading.settings_error)))]
    return (found + enabled_findings(reading.enabled, reading.enabled_dirs) +
            tab_findings(reading.enabled, reading.registered,
                         reading.apps_missing, reading.load_errors) +
            static_findings(reading.static) +
            compress_findings(reading.compress, reading.enabled) +
            policy_findings(reading.policy))


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='heat-lifecycle-dashboard-check',
        description='Check that Horizon on this host shows the Lifecycle '
                    'tab: run with the Python Horizon runs in, as the user '
                    'that runs its manage.py. Exit status 0: no FAIL line; '
                    '1: one or more.')
    parser.add_argument('--settings', default=os.environ.get(
        'DJANGO_SETTINGS_MODULE', SETTINGS),
        help='Horizon\'s Django settings module (default: '
             'DJANGO_SETTINGS_MODULE, else %s)' % SETTINGS)
    args = parser.parse_args(argv)
    os.environ['DJANGO_SETTINGS_MODULE'] = args.settings
    with warnings.catch_warnings():
        # Not ours to fix: oslo.policy's on heat-dashboard's defaults.
        warnings.simplefilter('ignore', DeprecationWarning)
        found = findings(read(args.settings))
    for finding in found:
        print(checks.render(finding))
    return 1 if any(f.level == checks.FAIL for f in found) else 0


if __name__ == '__main__':
    sys.exit(main())
