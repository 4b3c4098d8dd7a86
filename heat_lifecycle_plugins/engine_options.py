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
"""The engine-wide options of [heat_lifecycle_plugins], applied at load.

heat-engine parses heat.conf before it loads plugins, so the loader applies
them when it returns our types. Each one that changes heat-engine beyond our
types is opt-in and logged when active.
"""

from oslo_config import cfg
from oslo_log import log as logging

from heat_lifecycle_plugins import config
from heat_lifecycle_plugins import heat_internals

LOG = logging.getLogger(__name__)


def _option(name):
    try:
        return config.CONF[config.GROUP.name][name]
    except cfg.Error:  # heat.conf not parsed: the option's default
        return None


def apply():
    """Apply the options set; the names of those that changed heat-engine."""
    applied = []
    if _option('forget_finished_threads'):
        if heat_internals.forget_finished_threads():
            LOG.warning('heat-lifecycle-plugins: [%s] forget_finished_threads '
                        'is set: heat-engine drops the finished threads of '
                        'every stack\'s thread group before starting '
                        'another (the 1000-thread budget per stack no '
                        'longer runs out)', config.GROUP.name)
            applied.append('forget_finished_threads')
        else:
            LOG.info('heat-lifecycle-plugins: [%s] forget_finished_threads '
                     'has no effect on this Heat: its eventlet thread pools '
                     'free their slots', config.GROUP.name)
    return applied
