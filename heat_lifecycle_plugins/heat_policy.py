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
"""The policy rules that keep a deployment's credentials from readers.

Heat's default policy lets a user with only the reader role read what the
server reads: resource show and list (with details) hold a server's
metadata, and resource metadata, the server's deployments metadata and
heat-api-cfn's DescribeStackResource(s) answer with it. That metadata
holds each deployment's credentials (deploy_password, the never-expiring
signed heat-api-cfn URL); so do a derived software config's inputs and a
stack snapshot's resource data. With them a reader could signal as the
server. Showing a running TEMP_URL_SIGNAL deployment makes Heat read
Swift with the caller's token: a reader gets an HTTP 500. These rules give
those reads to members and, where the server reads, to its stack user
(role heat_stack_user), exactly as Heat's own defaults name them; readers
keep stacks, outputs, events, templates and the list of software
deployments. Heat's policy is enforced by heat-api and
heat-api-cfn: the file goes where they load policy (policy.d, or merged
into policy.yaml). `heat-lifecycle-plugins install-policy` writes it;
`check` verifies what heat.conf's policy makes of it.
"""

from heat_lifecycle_plugins import plugin_dir_installer

POLICY_FILENAME = 'heat-lifecycle-plugins.yaml'

# Heat's own check strings (heat/policies/base.py, 2025.1 and 2026.2).
PROJECT_MEMBER = 'role:member and project_id:%(project_id)s'
PROJECT_STACK_USER = 'role:heat_stack_user and project_id:%(project_id)s'
MEMBER_OR_STACK_USER = '(%s) or (%s)' % (PROJECT_MEMBER, PROJECT_STACK_USER)
# heat-api-cfn checks its rules with no target (heat/api/cfn/v1/stacks.py
# _enforce): a project_id check never matches there, so Heat's defaults
# refuse everyone, the servers' POLL_SERVER_CFN included (oslo.policy's
# enforce_new_defaults is on in both series). Roles only; the engine finds
# the stack in the caller's own project.
CFN_MEMBER = 'role:member'
CFN_MEMBER_OR_STACK_USER = 'role:member or role:heat_stack_user'

# rule: (check string, what a reader could read through it). The server's
# own reads keep its stack user; the others need a member.
RULES = {
    'resource:metadata': (
        MEMBER_OR_STACK_USER, 'the server\'s metadata (its agent reads it '
        'with POLL_SERVER_HEAT)'),
    'resource:show': (PROJECT_MEMBER, 'a server\'s metadata and '
                                      'os_collect_config credentials'),
    'resource:index': (PROJECT_MEMBER, 'servers\' metadata (with_detail)'),
    'software_deployments:metadata': (
        MEMBER_OR_STACK_USER, 'the server\'s deployments with their '
        'credentials'),
    'software_configs:show': (PROJECT_MEMBER, 'a derived config\'s inputs '
                              '(deploy_password, deploy_signal_id)'),
    # Heat reads a running TEMP_URL_SIGNAL deployment's signal from Swift
    # with the caller's token (_show_software_deployment), which Swift
    # refuses to a reader: an HTTP 500 naming the signal's object.
    'software_deployments:show': (
        PROJECT_MEMBER, 'the path of a running TEMP_URL_SIGNAL deployment\'s '
        'signal object, in the HTTP 500 Heat answers when Swift refuses '
        'the reader\'s token'),
    'cloudformation:DescribeStackResource': (
        CFN_MEMBER_OR_STACK_USER, 'the server\'s metadata through '
        'heat-api-cfn (its agent reads it with POLL_SERVER_CFN)'),
    'cloudformation:DescribeStackResources': (
        CFN_MEMBER, 'servers\' metadata through heat-api-cfn'),
    'stacks:show_snapshot': (PROJECT_MEMBER, 'a snapshot\'s resource data '
                             '(stack users\' passwords and keys)'),
    'stacks:list_snapshots': (PROJECT_MEMBER, 'the snapshots\' resource '
                              'data'),
}
# The reads the server itself makes (through heat-api or heat-api-cfn).
SERVER_READS = tuple(name for name, (check, _) in sorted(RULES.items())
                     if check in (MEMBER_OR_STACK_USER,
                                  CFN_MEMBER_OR_STACK_USER))


def policy_text():
    """The rules as a YAML mapping (a policy.d file, or to merge)."""
    lines = ['# heat-lifecycle-plugins: a reader cannot read a deployment\'s',
             '# credentials (doc/source/install). Members and, for the',
             '# server\'s own reads, its stack user keep these reads.']
    for name in sorted(RULES):
        check, why = RULES[name]
        lines.append('# a reader could read %s' % why)
        lines.append('"%s": "%s"' % (name, check))
    return '\n'.join(lines) + '\n'


def install_policy(policy_dir, force=False):
    """Write the rules into policy_dir; return (path, 'written'|'unchanged').

    Raises FileExistsError if a different file is there and force is False.
    """
    return plugin_dir_installer.install_file(
        policy_dir, POLICY_FILENAME, policy_text(), 'policy', force)
