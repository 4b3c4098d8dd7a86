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
"""The config a deployment delivers: loaded by id, or known beforehand.

Mixed into SoftwareDeployment ahead of Heat's class, whose _load_config and
handle_delete it guards against values that came at run time (get_attr)
and that CREATE refused:
- a config id holding text the database cannot hold names no config.
  Looked up, MariaDB refuses the comparison (utf8mb4 text against the
  column's utf8mb3) and DELETE failed for good; NotFound, as for any
  unknown id, lets it go.
- a deployment never stored whose properties fail delivers no DELETE:
  nothing reached the server, and building the DELETE from them failed
  ('"..." is not a map') or delivered one no agent could answer (a
  signal_transport not allowed), so DELETE failed or waited for good.
"""

from oslo_log import log as logging

from heat.common import exception
from heat.rpc import api as rpc_api

from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.resources import software_component

LOG = logging.getLogger(__name__)


class DeploymentConfigs(object):
    """The deployment's config, as Heat stores it or as defined."""

    def _load_config(self, config_id=None):
        if config_id is None:
            config_id = self.properties[self.CONFIG]
        problem = protocol.storable_id_problem(config_id)
        if problem:
            raise exception.NotFound(problem.replace('%', '%%'))
        return super(DeploymentConfigs, self)._load_config(config_id)

    def handle_delete(self):
        if self.resource_id is None:
            problem = self._properties_problem()
            if problem:
                LOG.warning('%(res)s: no DELETE config delivered: %(error)s',
                            {'res': self, 'error': problem})
                return None
        return super(DeploymentConfigs, self).handle_delete()

    def _properties_problem(self):
        """Why the properties fail validation now, or None."""
        try:
            self.properties.validate()
        except (exception.StackValidationFailed, TypeError, ValueError) as e:
            return protocol.storable_text(e)
        return None

    def _config_known_now(self):
        """The config as stored, or as this template defines it.

        Before its resource exists: our component's definition, or a plain
        config's group (a request to it is checked against deploy_actions).
        """
        ref = self.properties[self.CONFIG]
        sibling = self.stack[ref] if ref in self.stack else None
        if sibling is not None and sibling.resource_id is None:
            try:
                if isinstance(sibling, software_component.SoftwareComponent):
                    return sibling.config_as_defined()
                return {rpc_api.SOFTWARE_CONFIG_GROUP:
                        sibling.properties.get(rpc_api.SOFTWARE_CONFIG_GROUP)}
            except Exception:  # a value not resolvable yet
                return None
        try:
            return self._load_config()
        except Exception:  # unknown yet or gone: checked when requested
            return None
