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
"""Templates shared by the resource chain tests."""

CHAIN = '''
heat_template_version: 2016-10-14
parameters:
  types: {type: comma_delimited_list}
  concurrent: {type: boolean, default: false}
  limit: {type: number, default: 10}
  group: {type: string}
  value: {type: string, default: v1}
  rendezvous: {type: number, default: 0}
resources:
  chain:
    type: OS::Heat::ResourceChain
    properties:
      resources: {get_param: types}
      concurrent: {get_param: concurrent}
      concurrency_limit: {get_param: limit}
      resource_properties:
        group: {get_param: group}
        value: {get_param: value}
        rendezvous: {get_param: rendezvous}
outputs:
  refs: {value: {get_attr: [chain, refs]}}
  kinds: {value: {get_attr: [chain, kind]}}
'''

ATTRIBUTES = '''
heat_template_version: 2016-10-14
parameters:
  group: {type: string}
resources:
  chain:
    type: OS::Heat::ResourceChain
    properties:
      resources: [Test::Chain::A, Test::Chain::B, Test::Chain::C]
      resource_properties:
        group: {get_param: group}
        value: shared
outputs:
  refs: {value: {get_attr: [chain, refs]}}
  second_ref: {value: {get_attr: [chain, refs, 1]}}
  first: {value: {get_attr: [chain, resource.0]}}
  last_kind: {value: {get_attr: [chain, resource.2.kind]}}
  middle_kind: {value: {get_attr: [chain, resource.1, kind]}}
  kinds: {value: {get_attr: [chain, kind]}}
  values: {value: {get_attr: [chain, value]}}
  kind_by_index: {value: {get_attr: [chain, attributes, kind]}}
'''


def params(types, group, **kwargs):
    p = {'types': ','.join(types), 'group': group}
    p.update(kwargs)
    return p
