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
"""The commands `tools/demo.sh --keep` prints work.

Its OS_* variables and the venv's `openstack` client list the demo user's
stacks.
"""

import json
import os
import subprocess
import sys

NOTHING = """
heat_template_version: 2016-04-08
resources:
  nothing:
    type: OS::Heat::None
"""


def test_openstack_stack_list_as_the_demo_prints_it(cloud, driver):
    stack_id = driver.create(NOTHING)
    env = {k: v for k, v in os.environ.items() if not k.startswith('OS_')}
    env.update(cloud.keystone.demo_env())
    openstack = os.path.join(os.path.dirname(sys.executable), 'openstack')
    run = subprocess.run([openstack, 'stack', 'list', '-f', 'json'],
                         env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    listed = {s['ID']: s['Stack Status'] for s in json.loads(run.stdout)}
    assert listed[stack_id] == 'CREATE_COMPLETE'
