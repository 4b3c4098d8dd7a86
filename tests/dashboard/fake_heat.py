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
"""heat-api at the HTTP edge: requests_mock answers heatclient's requests
from plain dicts, as heat-api's v1 API shapes them."""

import re
import urllib.parse

import requests_mock

# The orchestration endpoint of Horizon's test service catalog
# (heat_dashboard/test/test_data/keystone_data.py).
ENDPOINT = 'http://public.heat.example.com:8004/v1'
# The user's service catalog (Keystone v3's form, as Horizon reads it).
CATALOG = [
    {'type': 'orchestration', 'name': 'heat', 'endpoints': [
        {'region': 'RegionOne', 'region_id': 'RegionOne',
         'interface': 'public', 'url': ENDPOINT}]},
    {'type': 'identity', 'name': 'keystone', 'endpoints': [
        {'region': 'RegionOne', 'region_id': 'RegionOne',
         'interface': 'public', 'url': 'http://localhost/identity/v3'}]},
]


def link(rel, name, ident):
    return {'rel': rel, 'href': '%s/stacks/%s/%s' % (ENDPOINT, name, ident)}


def resource(name, stack, status='CREATE_COMPLETE',
             rtype='OS::Heat::SoftwareDeployment', physical_id='', **more):
    """A resource row of the stack (name, id), as resources.list gives."""
    found = {'resource_name': name, 'resource_type': rtype,
             'resource_status': status, 'physical_resource_id': physical_id,
             'resource_status_reason': more.pop('reason', 'state changed'),
             'updated_time': more.pop('updated', '2026-11-28T12:00:00Z'),
             'creation_time': '2026-11-28T11:59:00Z',
             'links': [link('stack', *stack)]}
    if more.get('nested'):
        found['links'].append(link('nested', *more.pop('nested')))
    found.update(more)
    return found


class FakeHeat(object):
    """One stack, its resources (nested ones with links), deployments.

    forbidden: the policy rules refused ('resource:index',
    'stacks:update_patch'); patches: the PATCH bodies received.
    """

    def __init__(self, mocker, stack, resources=(), deployments=None,
                 configs=None, templates=None, events=None, forbidden=()):
        self.stack, self.resources = stack, list(resources)
        self.deployments = deployments or {}
        self.configs = configs or {}
        self.templates = templates or {}
        self.events = events or {}
        self.forbidden = set(forbidden)
        self.patches, self.asked = [], []
        mocker.register_uri(requests_mock.ANY,
                            re.compile(re.escape(ENDPOINT) + '/.*'),
                            json=self.answer,
                            headers={'Content-Type': 'application/json'})

    def _refuse(self, context, rule):
        context.status_code = 403
        return {'explanation': 'Access was denied to this resource.',
                'code': 403, 'title': 'Forbidden',
                'error': {'message': 'You are not authorized to perform '
                          '%s' % rule, 'type': 'Forbidden'}}

    def _listed(self, ident, request):
        """The stack's resources; every level's with nested_depth."""
        if 'nested_depth' in urllib.parse.parse_qs(
                urllib.parse.urlsplit(request.url).query):
            return self.resources
        stack_id = ident.split('/')[-1]
        return [r for r in self.resources
                if r['links'][0]['href'].endswith('/' + stack_id)]

    def answer(self, request, context):
        path = urllib.parse.urlsplit(request.url).path[len('/v1'):]
        parts = [urllib.parse.unquote(p) for p in path.strip('/').split('/')]
        self.asked.append((request.method, path))
        if parts[0] == 'software_deployments':
            return {'software_deployment': self.deployments[parts[1]]}
        if parts[0] == 'software_configs':
            return {'software_config': self.configs[parts[1]]}
        ident = '/'.join(parts[1:3])
        rest = parts[3:]
        if len(parts) <= 3:
            if request.method == 'PATCH':
                if 'stacks:update_patch' in self.forbidden:
                    return self._refuse(context, 'stacks:update_patch')
                self.patches.append(request.json())
                context.status_code = 202
                return {}
            return {'stack': self.stack}
        if rest == ['template']:
            return self.templates.get(ident, {})
        if rest[0] == 'resources':
            if 'resource:index' in self.forbidden:
                return self._refuse(context, 'resource:' + (
                    'show' if len(rest) > 1 else 'index'))
            if len(rest) == 1:
                return {'resources': self._listed(ident, request)}
            if len(rest) == 3 and rest[2] == 'events':
                return {'events': self.events.get(rest[1], [])}
            for row in self.resources:
                if row['resource_name'] == rest[1]:
                    return {'resource': row}
            context.status_code = 404
            return {}
        if rest == ['events']:
            return {'events': [e for found in self.events.values()
                               for e in found]}
        context.status_code = 404
        return {}
