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
"""heat-lifecycle-plugins loader for heat-engine's plugin_dirs.

Installed by `heat-lifecycle-plugins install-loader`; do not edit the copy in
plugin_dirs. heat-engine imports this module and calls resource_mapping(),
which returns the types of the heat_lifecycle_plugins.resources entry-point
group, and applies the package's engine options (engine_options.py) to
the engine that loads them. Nothing here may raise: a failure is logged
and heat-engine starts without these types. Every failure names the
Python that heat-engine runs: a package installed into another
interpreter is the usual cause.
"""

import logging
import sys

LOG = logging.getLogger('heat_lifecycle_plugins.loader')


def resource_mapping():
    """Our types, for heat-engine; the engine options applied."""
    try:
        from heat_lifecycle_plugins import engine_options
        from heat_lifecycle_plugins import registry
        mapping = registry.resource_mapping()
        engine_options.apply()
    except Exception:
        LOG.exception('heat-lifecycle-plugins could not be loaded by %s; '
                      'heat-engine continues without its resource types',
                      sys.executable)
        return {}
    if not mapping:
        LOG.error('heat-lifecycle-plugins found no resource types in %s '
                  '(is the package installed with its entry points in this '
                  'interpreter?); heat-engine continues without them',
                  sys.executable)
    return mapping
