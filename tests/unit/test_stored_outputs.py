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
"""How an ExternalResource's outputs fit Heat's resource data."""

from heat_lifecycle_plugins.resources import stored_outputs as so


def apply(plan, stored):
    writes, deletes = plan
    stored = dict(stored)
    stored.update(writes)
    for key in deletes:
        del stored[key]
    return stored


def test_small_outputs_are_one_value_under_the_in_tree_key():
    text = so.encode({'resource_id': 'x', 'size': 2})
    assert so.plan(text, {}) == ([('outputs', text)], [])
    assert so.decode({'outputs': text}) == {'resource_id': 'x', 'size': 2}


def test_large_outputs_are_split_into_parts_under_the_column_size():
    outputs = {'blob': 'é' * 100000, 'resource_id': 'x'}
    text = so.encode(outputs)
    assert text.isascii() and len(text) > 500000
    writes, deletes = so.plan(text, {'outputs': '{}'})
    assert all(len(value) <= so.PART_SIZE < 65535 for _, value in writes)
    assert writes[-1] == ('outputs_parts', str(len(writes) - 1))
    assert deletes == ['outputs']
    stored = apply((writes, deletes), {'outputs': '{}'})
    assert so.decode(stored) == outputs


def test_shrinking_outputs_drop_the_stale_parts():
    big = so.encode({'blob': 'a' * 200000})
    stored = apply(so.plan(big, {}), {})
    assert stored['outputs_parts'] == '4'
    medium = so.encode({'blob': 'a' * 100000})
    stored = apply(so.plan(medium, stored), stored)
    assert sorted(stored) == ['outputs_part_0', 'outputs_part_1',
                              'outputs_parts']
    small = so.encode({'size': 1})
    stored = apply(so.plan(small, stored), stored)
    assert stored == {'outputs': small}
    assert so.decode(stored) == {'size': 1}


def test_nothing_stored_is_empty_outputs():
    assert so.decode({}) == {}
