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
"""Test-only resource type: records each lifecycle call it receives.

Registered in the heat_lifecycle_plugins.resources group by this directory's
dist-info, to prove that other packages' types load through our loader.
"""

from heat.common import exception
from heat.engine import attributes
from heat.engine import properties
from heat.engine import resource
from oslo_serialization import jsonutils

NOT_A_CLASS = 'not a resource class'


class LifecycleProbe(resource.Resource):
    PROPERTIES = VALUE, FAIL_ON = 'value', 'fail_on'

    properties_schema = {
        VALUE: properties.Schema(properties.Schema.STRING, 'Any value.',
                                 default='', update_allowed=True),
        FAIL_ON: properties.Schema(properties.Schema.LIST,
                                   'Actions that raise an error.',
                                   default=[], update_allowed=True),
    }
    attributes_schema = {
        'value': attributes.Schema('The current value.'),
        'calls': attributes.Schema('Lifecycle calls received, in order.',
                                   type=attributes.Schema.LIST),
    }

    def _record(self, action, fail_on=None):
        if fail_on is None:
            fail_on = self.properties[self.FAIL_ON]
        if action in fail_on:
            raise exception.Error('probe told to fail on %s' % action)
        calls = jsonutils.loads(self.data().get('calls', '[]'))
        self.data_set('calls', jsonutils.dumps(calls + [action]))

    def handle_create(self):
        self._record('CREATE')
        self.resource_id_set('probe-%s' % self.name)

    def handle_update(self, json_snippet, tmpl_diff, prop_diff):
        self._record('UPDATE', prop_diff.get(self.FAIL_ON))

    def handle_suspend(self):
        self._record('SUSPEND')

    def handle_resume(self):
        self._record('RESUME')

    def handle_delete(self):
        self._record('DELETE')

    def _resolve_attribute(self, name):
        if name == 'value':
            return self.properties[self.VALUE]
        if name == 'calls':
            return jsonutils.loads(self.data().get('calls', '[]'))
