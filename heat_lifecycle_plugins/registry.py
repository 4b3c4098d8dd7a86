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
"""Loads the resource types of the heat_lifecycle_plugins.resources group.

Heat has no entry-point group for resource types; the loader module installed
into heat-engine's plugin_dirs calls resource_mapping() below. A type whose
import fails is logged and skipped, so a broken plugin never stops the engine.
"""

import importlib.metadata

from oslo_log import log as logging
from stevedore import extension

LOG = logging.getLogger(__name__)

NAMESPACE = 'heat_lifecycle_plugins.resources'


def _log_load_failure(manager, entry_point, error):
    LOG.error('heat-lifecycle-plugins: resource type %(name)s (%(target)s) '
              'was not loaded and is skipped: %(error)s',
              {'name': entry_point.name, 'target': entry_point.value,
               'error': error})


def _is_resource_class(cls):
    try:
        from heat.engine import resource
    except ImportError:
        return isinstance(cls, type)
    return isinstance(cls, type) and issubclass(cls, resource.Resource)


def group_entry_points(group=NAMESPACE):
    """The entry points of `group`, on every Python from 3.9.

    entry_points(group=...) and .select() came with Python 3.10; 3.9's
    entry_points() is a dict of group -> entry points.
    """
    every = importlib.metadata.entry_points()
    if hasattr(every, 'select'):
        return list(every.select(group=group))
    return list(every.get(group, ()))


def entry_points():
    """All (type name, 'module:Class') pairs declared in the group.

    Read from the installed metadata without importing any of them.
    """
    declared = {ep.name: ep.value for ep in group_entry_points()}
    return sorted(declared.items())


def resource_mapping():
    """Type name -> class for every type of the group that loads."""
    mgr = extension.ExtensionManager(
        namespace=NAMESPACE, invoke_on_load=False,
        on_load_failure_callback=_log_load_failure)
    mapping = {}
    for ext in mgr:
        if not _is_resource_class(ext.plugin):
            LOG.error('heat-lifecycle-plugins: %(name)s points at %(obj)r, '
                      'which is not a heat Resource class; skipped',
                      {'name': ext.name, 'obj': ext.plugin})
            continue
        mapping[ext.name] = ext.plugin
    LOG.info('heat-lifecycle-plugins: loaded resource types %s',
             ', '.join(sorted(mapping)) or '(none)')
    return mapping
