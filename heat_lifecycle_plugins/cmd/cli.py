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
"""The heat-lifecycle-plugins command: install-loader, install-policy,
list, check, why, run-action.

Each command prints only what it is about: Heat's notices and warnings
while its environment is built are not shown (quiet.heat_kept_quiet).
"""

import argparse
import sys

import pbr.version

from heat_lifecycle_plugins.cmd import check
from heat_lifecycle_plugins.cmd import cloud_options
from heat_lifecycle_plugins.cmd import run_action
from heat_lifecycle_plugins.cmd import why
from heat_lifecycle_plugins import heat_policy
from heat_lifecycle_plugins import plugin_dir_installer
from heat_lifecycle_plugins import quiet
from heat_lifecycle_plugins import registry
from heat_lifecycle_plugins.user_side import errors

DISTRIBUTION = 'heat-lifecycle-plugins'
WHY_HELP = ('Walk a stack through heat-api as its user (clouds.yaml, OS_* '
            'variables or --os-* options, as the openstack client), '
            'including the nested stacks of chains and groups, and print '
            'the deepest failing resources first with what explains them; '
            'for a stack in progress, the deployments it waits for. Exit '
            'status 0: the stack is not failed; 1: failures printed; 2: bad '
            'arguments or Heat cannot be reached.')
RUN_ACTION_HELP = (
    'Request ACTION of RESOURCE through heat-api as the stack\'s user '
    '(clouds.yaml, OS_* variables or --os-* options): a stack update '
    '--existing that changes the parameters the template wires to the '
    'resource\'s action_request (and extended_action, action_inputs). '
    'RESOURCE may be a path into nested stacks (chain.1.deploy). Prints '
    'the resource\'s events while it runs, then its outputs or why it '
    'failed. Exit status 0: the action succeeded; 1: it failed; 2: bad '
    'arguments, a resource not wired for requests or an action it does '
    'not define, or Heat cannot be reached.')


def _file_written(write, *args):
    """Print what write(*args) -> (path, what) did; 1 if it failed."""
    try:
        path, what = write(*args)
    except (FileExistsError, OSError) as exc:
        print('error: %s' % exc, file=sys.stderr)
        return 1
    print('%s %s' % (what, path))
    return 0


def cmd_install_loader(args):
    if args.remove:
        return _file_written(plugin_dir_installer.remove_loader,
                             args.plugin_dir)
    return _file_written(plugin_dir_installer.install_loader,
                         args.plugin_dir, args.force)


def cmd_install_policy(args):
    if not args.policy_dir:  # to merge into a policy.yaml
        sys.stdout.write(heat_policy.policy_text())
        return 0
    return _file_written(heat_policy.install_policy, args.policy_dir,
                         args.force)


def cmd_list(args):
    for name, target in registry.entry_points():
        print('%-40s %s' % (name, target))
    return 0


def cmd_why(args):
    with quiet.heat_kept_quiet():
        return why.run(args)


def cmd_run_action(args):
    with quiet.heat_kept_quiet():
        return run_action.run(args)


def package_version():
    """The installed version, which pbr took from git when it was built."""
    return pbr.version.VersionInfo(DISTRIBUTION).version_string_with_vcs()


def _runs(argv, command):
    return argv if argv and argv[0] == command else None


def _add_operator_commands(sub):
    p = sub.add_parser('install-loader',
                       help='write the loader module into a plugin dir')
    p.add_argument('--plugin-dir', required=True,
                   help='a directory listed in heat.conf plugin_dirs')
    p.add_argument('--force', action='store_true',
                   help='overwrite a different file of the same name')
    p.add_argument('--remove', action='store_true',
                   help='delete the loader from the plugin dir instead '
                        '(before uninstalling the package)')
    p.set_defaults(func=cmd_install_loader)
    p = sub.add_parser('install-policy',
                       help='write the policy rules that keep deployments\' '
                            'credentials from readers into heat-api\'s '
                            'policy.d, or print them (no --policy-dir)')
    p.add_argument('--policy-dir',
                   help='a directory of [oslo_policy] policy_dirs '
                        '(/etc/heat/policy.d)')
    p.add_argument('--force', action='store_true',
                   help='overwrite a different file of the same name')
    p.set_defaults(func=cmd_install_policy)
    p = sub.add_parser('list', help='list the declared resource types')
    p.set_defaults(func=cmd_list)
    p = sub.add_parser('check', help='show the Heat release found, its '
                                     'known issues, the signal path '
                                     'configured and which class Heat '
                                     'uses for each of our types; non-zero '
                                     'if not ours or a setting is broken')
    check.add_arguments(p)
    p.set_defaults(func=check.run)


def _add_user_commands(sub, argv):
    p = sub.add_parser(
        'why', help='explain why a stack failed (its failing resources, '
                    'deepest first, with their causes) or what it waits for',
        description=WHY_HELP)
    why.add_arguments(p, _runs(argv, 'why'))
    p.set_defaults(func=cmd_why)
    p = sub.add_parser(
        'run-action', help='run a day-two action (BACKUP, or UPDATE to '
                           're-apply) of a deployment or external resource '
                           'on a running stack, and wait for its result',
        description=RUN_ACTION_HELP)
    run_action.add_arguments(p, _runs(argv, 'run-action'))
    p.set_defaults(func=cmd_run_action)


def build_parser(argv=None):
    """The parser; cloud options only for the command that argv runs."""
    parser = argparse.ArgumentParser(
        prog=DISTRIBUTION,
        description='Install and check the heat-lifecycle-plugins types in '
                    'a heat-engine; explain why a stack failed.')
    parser.add_argument('--version', action='version',
                        version='%(prog)s ' + package_version())
    sub = parser.add_subparsers(dest='command', required=True)
    _add_operator_commands(sub)
    _add_user_commands(sub, argv)
    return parser


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser(argv)
    except errors.UserSideError as exc:
        print('error: %s' % exc, file=sys.stderr)
        return cloud_options.EXIT_ERROR
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == '__main__':
    sys.exit(main())
