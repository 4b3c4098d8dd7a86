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
"""`heat-lifecycle-plugins check`: will heat-engine use our types, and can
its servers signal?

Run where heat-engine runs: the Heat release and its known issues, the
boundary to Heat's internals, the signal path of heat.conf (and of the
agent's and Keystone's files), whether Mistral can tell an
OS::Mistral::ExternalResource that its execution ended, then which class
Heat's global environment gives each of our types.
"""

import importlib.metadata
import os
import sys

from oslo_config import cfg

from heat_lifecycle_plugins.cmd import quiet
from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins.host_checks import check_engine_python
from heat_lifecycle_plugins.host_checks import check_policy
from heat_lifecycle_plugins.host_checks import checks
from heat_lifecycle_plugins.host_checks import notify_path
from heat_lifecycle_plugins.host_checks import signal_path
from heat_lifecycle_plugins import plugin_dir_installer
from heat_lifecycle_plugins import registry


def _class_path(cls):
    return '%s:%s' % (cls.__module__, cls.__qualname__)


def _load_error(target):
    """The error importing 'module:attr' raises, or None."""
    ep = importlib.metadata.EntryPoint(name='x', value=target, group='x')
    try:
        ep.load()
    except Exception as exc:
        return '%s: %s' % (type(exc).__name__, exc)
    return None


def check_winners(env):
    """[(type, expected, actual, problem-or-None)] for every type of ours."""
    rows = []
    for name, target in registry.entry_points():
        try:
            actual = _class_path(env.get_class(name))
        except Exception as exc:
            actual = '(none: %s)' % exc
        problem = None
        if actual != target:
            error = _load_error(target)
            problem = ('failed to load: %s' % error if error else
                       'not the winner; is the loader in plugin_dirs?')
        rows.append((name, target, actual, problem))
    return rows


def signal_path_findings(version, args):
    """The signal path of heat.conf, and Mistral's notifications.

    heat.conf: --config-file, else the files heat-engine would read; the
    agent's and Keystone's files where given. Mistral's notifications to
    ExternalResource: notify_path.
    """
    paths = ([args.config_file] if args.config_file else
             cfg.find_config_files('heat', 'heat-engine'))
    if not paths:
        return [checks.Finding(checks.WARN, signal_path.TOPIC, (
            'no heat.conf given (--config-file) or found: the signal path '
            'is not diagnosed'))]
    try:
        heat = {}
        for path in paths:  # later files win, as in oslo.config
            for section, options in signal_path.read_ini(path).items():
                heat.setdefault(section, {}).update(options)
        agent = signal_path.agent_settings(
            signal_path.read_ini(args.agent_config_file)
            if args.agent_config_file else None)
        auth_ttl = (signal_path.keystone_auth_ttl(signal_path.read_ini(
            args.keystone_config_file)) if args.keystone_config_file
            else None)
        cfn = (signal_path.read_ini(args.cfn_config_file)
               if args.cfn_config_file else None)
    except (signal_path.ConfigFileError, ValueError) as exc:
        return [checks.Finding(checks.FAIL, signal_path.TOPIC, exc)]
    return (signal_path.findings(version, heat, agent, auth_ttl, cfn) +
            notify_path.findings(version, heat, cfn))


def loader_findings(plugin_dirs):
    """A FAIL for each loader copy of another version in plugin_dirs."""
    return [checks.Finding(checks.FAIL, 'loader', (
        '%s is not this version\'s loader (an upgrade keeps the old copy): '
        'run heat-lifecycle-plugins install-loader --force --plugin-dir %s'
        % (path, os.path.dirname(path))))
        for path in plugin_dir_installer.stale_loaders(plugin_dirs)]


def add_arguments(parser):
    parser.add_argument('--config-file', help='heat.conf (default: Heat\'s '
                                              'usual search path)')
    parser.add_argument('--agent-config-file',
                        help='the servers\' heat-lifecycle-agent '
                             'configuration (default: the agent\'s '
                             'defaults)')
    parser.add_argument('--keystone-config-file',
                        help='keystone.conf, for [credential] auth_ttl')
    parser.add_argument('--cfn-config-file',
                        help='heat-api-cfn\'s own configuration file, where '
                             'it has one (split deployments): its '
                             '[ec2authtoken] is judged instead of the '
                             'engine\'s')
    parser.add_argument('--heat-engine',
                        help='the heat-engine script that runs (default: '
                             'the one on PATH): its Python must have this '
                             'version of the package')


def run(args):
    try:
        version = heat_internals.heat_version()
    except importlib.metadata.PackageNotFoundError:
        print(checks.render(checks.Finding(
            checks.FAIL, 'heat', 'openstack-heat is not installed in %s'
            % sys.executable)))
        return 1
    findings = checks.release_findings(version)
    with quiet.heat_kept_quiet():
        heat_internals.select_engine_runtime()
        findings += checks.boundary_findings(version)
        try:
            env = heat_internals.global_environment(args.config_file)
        except cfg.Error as exc:
            findings.append(checks.Finding(checks.FAIL, 'config', exc))
            env = None
        rows = check_winners(env) if env else []
    if env is not None:
        findings += loader_findings(cfg.CONF.plugin_dirs)
        findings += check_engine_python.findings(args.heat_engine)
        findings += signal_path_findings(version, args)
        findings += check_policy.findings()
    for finding in findings:
        print(checks.render(finding))
    if env is None:
        return 1
    failed = (any(row[3] for row in rows) or
              any(f.level == checks.FAIL for f in findings))
    for name, target, actual, problem in rows:
        if problem:
            print('FAIL %-36s %s (Heat uses %s)' % (name, problem, actual))
        else:
            print('ok   %-36s %s' % (name, actual))
    if not rows:
        print('FAIL no resource types are declared in %s' % registry.NAMESPACE)
        return 1
    return 1 if failed else 0
