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
"""Benchmark-only Heat plugin module: Heat's in-tree types under other names.

Copied into the benchmark engine's plugin dir next to our loader, so the same
engine runs our OS::Heat::ResourceChain, OS::Mistral::ExternalResource and
OS::Heat::SoftwareDeployment and the in-tree classes side by side. Never
installed with the package.
"""

from heat.engine.resources.openstack.heat import resource_chain
from heat.engine.resources.openstack.heat import software_deployment
from heat.engine.resources.openstack.mistral import external_resource

UPSTREAM_CHAIN = 'Upstream::Heat::ResourceChain'
UPSTREAM_EXTERNAL = 'Upstream::Mistral::ExternalResource'
UPSTREAM_DEPLOYMENT = 'Upstream::Heat::SoftwareDeployment'


def resource_mapping():
    return {
        UPSTREAM_CHAIN: resource_chain.ResourceChain,
        UPSTREAM_EXTERNAL: external_resource.MistralExternalResource,
        UPSTREAM_DEPLOYMENT: software_deployment.SoftwareDeployment,
    }
