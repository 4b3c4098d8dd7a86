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
"""`check`: can a reader read a deployment's credentials, can servers read?

Judged by oslo.policy itself from the configuration `check` loaded
(heat.conf: [oslo_policy] policy_file and policy_dirs, found beside it as
heat-api finds them), with Heat's registered defaults: for each rule of
heat_policy.RULES, a user with only the reader role must be refused, and
the stack user (role heat_stack_user) allowed the server's own reads.
"""

from oslo_config import cfg

from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import heat_policy
from heat_lifecycle_plugins.host_checks import checks

TOPIC = 'policy'
PROJECT = 'checked-project'
READER = {'roles': ['reader'], 'project_id': PROJECT, 'user_id': 'r'}
STACK_USER = {'roles': ['heat_stack_user'], 'project_id': PROJECT,
              'user_id': 's'}
CFN_READS = ('cloudformation:DescribeStackResource',)
INSTALL = ('heat-lifecycle-plugins install-policy --policy-dir '
           '/etc/heat/policy.d (or merge its output into policy.yaml), '
           'then restart heat-api and heat-api-cfn')


def enforcer(conf=None):
    """oslo.policy's Enforcer as heat-api builds it, rules loaded."""
    from oslo_policy import policy
    found = policy.Enforcer(conf or cfg.CONF)
    found.register_defaults(heat_internals.policy_defaults())
    found.load_rules(force_reload=True)
    return found


def allowed(found, rule, creds):
    """As heat-api checks (the project) or heat-api-cfn (no target)."""
    target = ({} if rule.startswith('cloudformation:') else
              {'project_id': PROJECT})
    return bool(found.enforce(rule, target, creds))


def findings(conf=None):
    """Findings of the policy heat.conf makes heat-api load."""
    try:
        found = enforcer(conf)
    except Exception as exc:  # a file oslo.policy cannot read
        return [checks.Finding(checks.FAIL, TOPIC, 'Heat\'s policy cannot '
                               'be loaded: %s' % exc)]
    result = []
    readable = sorted(rule for rule in heat_policy.RULES
                      if allowed(found, rule, READER))
    if readable:
        result.append(checks.Finding(checks.WARN, TOPIC, (
            'a user with only the reader role may read deployments\' '
            'credentials and signal as their servers (%s): %s' % (
                ', '.join(readable), INSTALL))))
    blind = [rule for rule in heat_policy.SERVER_READS
             if not allowed(found, rule, STACK_USER)]
    heat_api = [rule for rule in blind if rule not in CFN_READS]
    if heat_api:
        result.append(checks.Finding(checks.FAIL, TOPIC, (
            'servers\' stack users (role heat_stack_user) may not read '
            'their metadata (%s): their agents get no deployments' % (
                ', '.join(heat_api)))))
    if set(CFN_READS) & set(blind):
        result.append(checks.Finding(checks.WARN, TOPIC, (
            'servers polling heat-api-cfn (POLL_SERVER_CFN) may not read '
            'their metadata (cloudformation:DescribeStackResource; '
            'heat-api-cfn checks it without a project, which Heat\'s '
            'default denies to everyone): %s' % INSTALL)))
    if not result:
        result.append(checks.Finding(checks.OK, TOPIC, (
            'readers cannot read deployments\' credentials (%d rules of '
            '%s hold); servers read their metadata' % (
                len(heat_policy.RULES), heat_policy.POLICY_FILENAME))))
    return result
