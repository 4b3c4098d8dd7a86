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
"""The console script's cloud: options and client, and its exit statuses.

The cloud is chosen as the openstack client chooses it (clouds.yaml, the
OS_* variables and --os-* options, through openstack.config and
keystoneauth1). A failure is the library's UserSideError: one line for
the user, exit status 2.
"""

import argparse

from heat_lifecycle_plugins.user_side import errors
from heat_lifecycle_plugins.user_side import heat_api

EXIT_OK, EXIT_FAILED, EXIT_ERROR = 0, 1, 2
# The dests of the why command's own arguments; every other one is a cloud
# option.
OWN_ARGUMENTS = ('command', 'func', 'stack', 'json')


def add_cloud_arguments(parser, argv):
    """The openstack client's cloud options, if `argv` runs the command."""
    if argv is None:
        return
    from openstack import config
    try:
        config.OpenStackConfig().register_argparse_arguments(
            parser, argv, service_keys=[heat_api.SERVICE_TYPE])
    except Exception as exc:
        # Registering only reads the configuration: an unknown --os-cloud,
        # a clouds.yaml that is not YAML or not a map of clouds, ...
        raise errors.UserSideError('cloud configuration: %s'
                                   % heat_api.one_line(exc))


def heat_client(args, own=OWN_ARGUMENTS):
    """python-heatclient for the cloud the user's options name.

    own: the command's own argument names (all others are cloud options).
    """
    from heatclient import client
    from openstack import config
    service = heat_api.SERVICE_TYPE
    options = argparse.Namespace(**{
        key: value for key, value in vars(args).items()
        if key not in own})
    cloud = config.OpenStackConfig().get_one(argparse=options)
    return heat_api.reads_retried(client.Client(
        '1', session=cloud.get_session(), service_type=service,
        interface=cloud.get_interface(service),
        region_name=cloud.get_region_name(service),
        endpoint_override=cloud.get_endpoint(service)))
