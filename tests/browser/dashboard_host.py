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
"""The tier's dashboard host with heat-dashboard's policy in force.

heat-dashboard's install guide has the host load its orchestration
policy (heat_dashboard/local_settings.d/_1699_orchestration_settings.py
adds heat_policy.yaml and default_policies/heat.yaml to Horizon's
POLICY_FILES and DEFAULT_POLICY_FILES). Without it Horizon has no
enforcer for 'orchestration' and openstack_auth.policy.check allows every
rule, so a reader would be offered what only a member may do. This host
adds the same two entries to its local_settings.py, by absolute path in
the dashboard venv's heat_dashboard/conf (os.path.join keeps an absolute
path, as openstack_auth.policy joins it to POLICY_FILES_PATH).
"""

import os

from heat_lifecycle_fixtures import horizon as horizon_fixture

HEAT_POLICY_SETTINGS = '''
# Added by tests/browser/dashboard_host.py: heat-dashboard's policy.
import os as _os
import heat_dashboard as _heat_dashboard
from openstack_dashboard import defaults as _defaults
_heat_conf = _os.path.join(_os.path.dirname(_heat_dashboard.__file__), 'conf')
POLICY_FILES = dict(_defaults.POLICY_FILES, orchestration=_os.path.join(
    _heat_conf, 'heat_policy.yaml'))
DEFAULT_POLICY_FILES = dict(
    _defaults.DEFAULT_POLICY_FILES, orchestration=_os.path.join(
        _heat_conf, 'default_policies', 'heat.yaml'))
'''


class HorizonWithHeatPolicy(horizon_fixture.Horizon):

    def _write_settings(self):
        env = super(HorizonWithHeatPolicy, self)._write_settings()
        with open(os.path.join(self.path('local'), 'local_settings.py'),
                  'a') as f:
            f.write(HEAT_POLICY_SETTINGS)
        return env
