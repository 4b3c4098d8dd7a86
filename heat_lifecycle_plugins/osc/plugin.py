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
"""The OpenStackClient plugin: `openstack lifecycle ...`.

OSC builds our client from its client manager, so the cloud is chosen as
for every other command: clouds.yaml, OS_* variables, --os-* options,
region, interface, cacert and insecure. The client is python-heatclient's
(we read and update stacks through heat-api); the command group is our
own, `openstack.lifecycle.v1`.
"""

from osc_lib import utils

API_NAME = 'lifecycle'
API_VERSION_OPTION = 'os_lifecycle_api_version'
DEFAULT_API_VERSION = '1'
API_VERSIONS = {'1': 'heatclient.v1.client.Client'}
SERVICE_TYPE = 'orchestration'


def make_client(instance):
    """python-heatclient on OSC's authenticated session."""
    client_class = utils.get_client_class(
        API_NAME, instance._api_version[API_NAME], API_VERSIONS)
    return client_class(session=instance.session, service_type=SERVICE_TYPE,
                        region_name=instance.region_name,
                        interface=instance.interface)


def build_option_parser(parser):
    parser.add_argument(
        '--os-lifecycle-api-version', metavar='<lifecycle-api-version>',
        default=utils.env('OS_LIFECYCLE_API_VERSION',
                          default=DEFAULT_API_VERSION),
        help='heat-lifecycle-plugins command API version, default=%s '
             '(Env: OS_LIFECYCLE_API_VERSION)' % DEFAULT_API_VERSION)
    return parser
