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
"""heat-lifecycle-agent: the in-instance side of software deployments.

A drop-in for heat-agents' 55-heat-config and heat-config-notify: it reads the
deployments that os-collect-config wrote, picks the config of a
SoftwareComponent for the deployment's action, runs the tool's hook and
signals Heat (progress first when the deployment is status-aware).
"""
