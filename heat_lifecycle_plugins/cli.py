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
"""The heat-lifecycle-plugins command: install-loader, list, check, why,
run-action.

Each command prints only what it is about: Heat's notices and warnings
while its environment is built are not shown.
"""

import argparse
import contextlib
import importlib.metadata
import logging
import os
import sys
import warnings

from oslo_config import cfg
import pbr.version

from heat_lifecycle_plugins import checks
from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import plugin_dir_loader
from heat_lifecycle_plugins import registry
from heat_lifecycle_plugins import run_action_command
from heat_lifecycle_plugins import signal_path
from heat_lifecycle_plugins import why_command

DISTRIBUTION = 'heat-lifecycle-plugins'
LOADER_FILENAME = 'heat_lifecycle_plugins_loader.py'


def loader_source():
    with open(plugin_dir_loader.__file__, encoding='utf-8') as f:
        return f.read()


def install_loader(plugin_dir, force=False):
    """Write the loader into plugin_dir; return (path, 'written'|'unchanged').

    Raises FileExistsError if a different file is there and force is False.
    """
    os.makedirs(plugin_dir, exist_ok=True)
    path = os.path.join(plugin_dir, LOADER_FILENAME)
    source = loader_source()
    if os.path.exists(path):
        with open(path, encoding='utf-8') as f:
            if f.read() == source:
                return path, 'unchanged'
        if not force:
            raise FileExistsError(
                '%s exists and differs from this version\'s loader; '
                'use --force to overwrite it' % path)
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(source)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return path, 'written'


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


@contextlib.contextmanager
def heat_kept_quiet():
    """Silence Heat's and the clients' logging and warnings.

    Heat logs a notice for each of its deprecated types while its environment
    is built, an old engine runtime warns when imported, keystoneauth logs
    its version discovery: none of that is what a command is about.
    """
    root = logging.getLogger()
    silent = logging.NullHandler()
    root.addHandler(silent)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            yield
    finally:
        root.removeHandler(silent)


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


def cmd_install_loader(args):
    try:
        path, what = install_loader(args.plugin_dir, args.force)
    except (FileExistsError, OSError) as exc:
        print('error: %s' % exc, file=sys.stderr)
        return 1
    print('%s %s' % (what, path))
    return 0


def cmd_list(args):
    for name, target in registry.entry_points():
        print('%-40s %s' % (name, target))
    return 0


def signal_path_findings(version, args):
    """The signal path of heat.conf (and the agent's and Keystone's files).

    heat.conf: --config-file, else the files heat-engine would read.
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
    return signal_path.findings(version, heat, agent, auth_ttl, cfn)


def cmd_check(args):
    try:
        version = heat_internals.heat_version()
    except importlib.metadata.PackageNotFoundError:
        print(checks.render(checks.Finding(
            checks.FAIL, 'heat', 'openstack-heat is not installed in %s'
            % sys.executable)))
        return 1
    findings = checks.release_findings(version)
    with heat_kept_quiet():
        heat_internals.select_engine_runtime()
        findings += checks.boundary_findings(version)
        try:
            env = heat_internals.global_environment(args.config_file)
        except cfg.Error as exc:
            findings.append(checks.Finding(checks.FAIL, 'config', exc))
            env = None
        rows = check_winners(env) if env else []
    if env is not None:
        findings += signal_path_findings(version, args)
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


def cmd_why(args):
    with heat_kept_quiet():
        return why_command.run(args)


def cmd_run_action(args):
    with heat_kept_quiet():
        return run_action_command.run(args)


def package_version():
    """The installed version, which pbr took from git when it was built."""
    return pbr.version.VersionInfo(DISTRIBUTION).version_string_with_vcs()


def _runs(argv, command):
    return argv if argv and argv[0] == command else None


def build_parser(argv=None):
    """The parser; cloud options only for the command that argv runs."""
    parser = argparse.ArgumentParser(
        prog=DISTRIBUTION,
        description='Install and check the heat-lifecycle-plugins types in '
                    'a heat-engine; explain why a stack failed.')
    parser.add_argument('--version', action='version',
                        version='%(prog)s ' + package_version())
    sub = parser.add_subparsers(dest='command', required=True)
    p = sub.add_parser('install-loader',
                       help='write the loader module into a plugin dir')
    p.add_argument('--plugin-dir', required=True,
                   help='a directory listed in heat.conf plugin_dirs')
    p.add_argument('--force', action='store_true',
                   help='overwrite a different file of the same name')
    p.set_defaults(func=cmd_install_loader)
    p = sub.add_parser('list', help='list the declared resource types')
    p.set_defaults(func=cmd_list)
    p = sub.add_parser('check', help='show the Heat release found, its '
                                     'known issues, the signal path '
                                     'configured and which class Heat '
                                     'uses for each of our types; non-zero '
                                     'if not ours or a setting is broken')
    p.add_argument('--config-file', help='heat.conf (default: Heat\'s '
                                         'usual search path)')
    p.add_argument('--agent-config-file',
                   help='the servers\' heat-lifecycle-agent configuration '
                        '(default: the agent\'s defaults)')
    p.add_argument('--keystone-config-file',
                   help='keystone.conf, for [credential] auth_ttl')
    p.add_argument('--cfn-config-file',
                   help='heat-api-cfn\'s own configuration file, where it '
                        'has one (split deployments): its [ec2authtoken] is '
                        'judged instead of the engine\'s')
    p.set_defaults(func=cmd_check)
    p = sub.add_parser(
        'why', help='explain why a stack failed: its failing resources, '
                    'deepest first, with their causes',
        description='Walk a stack through heat-api as its user (clouds.yaml, '
                    'OS_* variables or --os-* options, as the openstack '
                    'client), including the nested stacks of chains and '
                    'groups, and print the deepest failing resources first '
                    'with what explains them. Exit status 0: the stack is '
                    'not failed; 1: failures printed; 2: bad arguments or '
                    'Heat cannot be reached.')
    why_command.add_arguments(p, _runs(argv, 'why'))
    p.set_defaults(func=cmd_why)
    p = sub.add_parser(
        'run-action', help='run a day-two action (BACKUP, or UPDATE to '
                           're-apply) of a deployment or external resource '
                           'on a running stack, and wait for its result',
        description='Request ACTION of RESOURCE through heat-api as the '
                    'stack\'s user (clouds.yaml, OS_* variables or --os-* '
                    'options): a stack update --existing that changes the '
                    'parameters the template wires to the resource\'s '
                    'action_request (and extended_action, action_inputs). '
                    'Prints the resource\'s events while it runs, then its '
                    'outputs or why it failed. Exit status 0: the action '
                    'succeeded; 1: it failed; 2: bad arguments, a resource '
                    'not wired for requests or an action it does not '
                    'define, or Heat cannot be reached.')
    run_action_command.add_arguments(p, _runs(argv, 'run-action'))
    p.set_defaults(func=cmd_run_action)
    return parser


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser(argv)
    except why_command.WhyError as exc:
        print('error: %s' % exc, file=sys.stderr)
        return why_command.EXIT_ERROR
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == '__main__':
    sys.exit(main())
