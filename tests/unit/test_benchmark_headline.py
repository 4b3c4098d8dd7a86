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
"""README's headline shows every ExternalResource workflow length.

A row per case of the external parts: ours' told latency (the fallback's
for a lost notice), in-tree's, how ours ended, and the calls per stack.
"""

from benchmarks import headline
from benchmarks import merge


def sample(kind, how, latency, calls, round_=0):
    return {'kind': kind, 'how': how, 'status': 'COMPLETE',
            'latency': latency, 'calls': calls, 'round': round_}


def case(seconds, stacks, samples):
    return {'seconds': seconds, 'stacks': stacks, 'rounds': 1,
            'windows': [], 'samples': samples}


RESULTS = {
    'external-short': {'data': {'fallback_period': 30, 'cases': {
        'batch': case(60, 2, [sample('ours', 'told', 0.8, 6),
                              sample('ours', 'fallback', 30.0, 8),
                              sample('in-tree', None, 0.7, 50),
                              sample('in-tree', None, 0.6, 52)]),
        'lost': case(20, 1, [sample('ours', 'fallback', 9.7, 4),
                             sample('in-tree', None, 0.9, 24)])}}},
    'external-600': {'data': {'cases': {
        'long': case(600, 1, [sample('ours', 'told', 1.1, 23),
                              sample('in-tree', None, 0.5, 574)])}}},
}


def test_each_workflow_length_has_its_row_with_calls():
    rows = {r[0]: r for r in headline.rows(RESULTS)}
    assert sorted(rows) == ['2 at once, 60 s', '600 s', 'notice lost, 20 s']
    # Ours' told stacks only: the fallback's 30 s is not its latency.
    # One told stack: no 95 % interval, undecided; the calls' one pair
    # alike.
    assert rows['2 at once, 60 s'][2:] == (
        '0.80', '0.65', 'fallback 1, told 1', 'undecided', '7', '51',
        '0.14x undecided')
    # The lost notice: found by the fallback poll within its period.
    assert rows['notice lost, 20 s'][2:6] == ('9.70', '0.90', 'fallback 1',
                                              'met')
    assert rows['600 s'][6:] == ('23', '574', '0.04x undecided')


def test_the_readme_headline_of_its_series_gets_the_table(tmp_path):
    readme = tmp_path / 'README.rst'
    readme.write_text('x\n\n%s\nstale headline\n%s\n\n%s\nother\n%s\n' % (
        merge.markers('2026.2') + merge.markers('2025.1')))
    assert merge.write_headline(str(readme), headline.rst(RESULTS),
                                '2026.2')
    text = readme.read_text()
    assert 'stale headline' not in text and 'notice lost, 20 s' in text
    # The other series' headline is left as it was.
    assert '2025.1-start\nother\n' in text
    assert not merge.write_headline(str(readme), 'x', '2026.1')
    assert headline.rst({}) == ''
