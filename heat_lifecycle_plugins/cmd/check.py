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

Run where heat-engine runs. Thin: its arguments, printing and exit status
over host_checks.engine_host, which judges the Heat release and its known
issues, the boundary to Heat's internals, the signal path of heat.conf
(and of the agent's and Keystone's files), whether Mistral can tell an
OS::Mistral::ExternalResource that its execution ended, then which class
Heat's global environment gives each of our types.
"""

from heat_lifecycle_plugins.host_checks import checks
from heat_lifecycle_plugins.host_checks import engine_host
from heat_lifecycle_plugins import registry


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
    report = engine_host.check(
        args.config_file, args.agent_config_file, args.keystone_config_file,
        args.cfn_config_file, args.heat_engine)
    for finding in report.findings:
        print(checks.render(finding))
    if not report.environment:
        return 1
    rows = report.rows
    failed = (any(row[3] for row in rows) or
              any(f.level == checks.FAIL for f in report.findings))
    for name, target, actual, problem in rows:
        if problem:
            print('FAIL %-36s %s (Heat uses %s)' % (name, problem, actual))
        else:
            print('ok   %-36s %s' % (name, actual))
    if not rows:
        print('FAIL no resource types are declared in %s' % registry.NAMESPACE)
        return 1
    return 1 if failed else 0
