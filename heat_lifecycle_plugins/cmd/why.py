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
"""`heat-lifecycle-plugins why STACK`: why a stack failed or what it waits for.

The thin side of diagnosis.py and waiting.py: heat_api reads the stack as
its user, with its nested stacks, events and software deployments; this
prints what diagnosis.explain finds (for a stack still in progress, what
waiting.explain finds). `openstack lifecycle cause list` runs the same
code.

Exit status: 0 when the stack is not failed, 1 when failures were printed,
2 on bad arguments or when Heat cannot be reached (one line on stderr).
"""

import json
import sys

from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.user_side import diagnosis
from heat_lifecycle_plugins.user_side import heat_api
from heat_lifecycle_plugins.user_side import report
from heat_lifecycle_plugins.user_side import waiting


def add_arguments(parser, argv):
    """Our arguments, and the cloud's if `argv` runs this command.

    The cloud options come from openstack.config, which reads clouds.yaml
    when they are registered: only a `why` command line pays for that.
    """
    parser.add_argument('stack', metavar='STACK',
                        help='name or id of the stack')
    parser.add_argument('--json', action='store_true',
                        help='print the report as JSON (for CI)')
    heat_api.add_cloud_arguments(parser, argv)


def diagnose(hc, stack_ref):
    """(stack, findings): why it failed, or what it waits for."""
    stack, resources, events, deployments = heat_api.read_stack(hc, stack_ref)
    if not waiting.stack_in_progress(stack):
        return stack, diagnosis.explain(stack, resources, events,
                                        deployments)
    settings, configs = {}, {}
    for resource in resources:
        ident = resource.get('physical_resource_id')
        deployment = deployments.get(ident)
        if (deployment and deployment.get('status') == protocol.IN_PROGRESS
                and diagnosis.may_be_deployment(resource)):
            settings[ident] = heat_api.deadline_settings(hc, resource)
            configs[ident] = heat_api.delivered_config(hc, deployment)
    return stack, waiting.explain(stack, resources, events, deployments,
                                  settings, configs)


def exit_status(stack):
    if diagnosis.stack_failed(stack):
        return heat_api.EXIT_FAILED
    return heat_api.EXIT_OK


def run(args, client=None):
    """The command's exit status.

    client: a callable giving python-heatclient (from the cloud options
    in args when not given).
    """
    try:
        with heat_api.heat_errors(args.stack):
            hc = client() if client else heat_api.heat_client(args)
            stack, findings = diagnose(hc, args.stack)
    except heat_api.CommandError as exc:
        print('error: %s' % exc, file=sys.stderr)
        return heat_api.EXIT_ERROR
    if args.json:
        print(json.dumps(report.as_dict(stack, findings), indent=2,
                         sort_keys=True))
    else:
        print('\n'.join(report.render(stack, findings)))
    return exit_status(stack)
