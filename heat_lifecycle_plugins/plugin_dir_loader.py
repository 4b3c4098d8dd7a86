"""heat-lifecycle-plugins loader for heat-engine's plugin_dirs.

Installed by `heat-lifecycle-plugins install-loader`; do not edit the copy in
plugin_dirs. heat-engine imports this module and calls resource_mapping(),
which returns the types of the heat_lifecycle_plugins.resources entry-point
group. Nothing here may raise: a failure is logged and heat-engine starts
without these types.
"""

import logging

LOG = logging.getLogger('heat_lifecycle_plugins.loader')


def resource_mapping():
    try:
        from heat_lifecycle_plugins import registry
        return registry.resource_mapping()
    except Exception:
        LOG.exception('heat-lifecycle-plugins could not be loaded; '
                      'heat-engine continues without its resource types')
        return {}
