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

Thin: its arguments, printing and exit status over user_side.cause, which
reads the stack as its user and explains it (for a stack still in
progress, what it waits for). `openstack lifecycle cause list` and the
dashboard show the same findings.

Exit status: 0 when the stack is not failed, 1 when failures were printed,
2 on bad arguments or when Heat cannot be reached (one line on stderr).
"""

import json
import sys

from heat_lifecycle_plugins.cmd import cloud_options
from heat_lifecycle_plugins.user_side import cause
from heat_lifecycle_plugins.user_side import diagnosis
from heat_lifecycle_plugins.user_side import errors
from heat_lifecycle_plugins.user_side import heat_api
from heat_lifecycle_plugins.user_side import report


def add_arguments(parser, argv):
    """Our arguments, and the cloud's if `argv` runs this command.

    The cloud options come from openstack.config, which reads clouds.yaml
    when they are registered: only a `why` command line pays for that.
    """
    parser.add_argument('stack', metavar='STACK',
                        help='name or id of the stack')
    parser.add_argument('--json', action='store_true',
                        help='print the report as JSON (for CI)')
    cloud_options.add_cloud_arguments(parser, argv)


def exit_status(stack):
    if diagnosis.stack_failed(stack):
        return cloud_options.EXIT_FAILED
    return cloud_options.EXIT_OK


def run(args, client=None):
    """The command's exit status.

    client: a callable giving python-heatclient (from the cloud options
    in args when not given).
    """
    try:
        with heat_api.heat_errors(args.stack):
            hc = client() if client else cloud_options.heat_client(args)
            stack, findings = cause.diagnose(hc, args.stack)
    except errors.UserSideError as exc:
        print('error: %s' % exc, file=sys.stderr)
        return cloud_options.EXIT_ERROR
    if args.json:
        print(json.dumps(report.as_dict(stack, findings), indent=2,
                         sort_keys=True))
    else:
        print('\n'.join(report.render(stack, findings)))
    return exit_status(stack)
