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
"""The first-feedback target is decided on the band of ours' rounds."""

from benchmarks import external_watch
from benchmarks import feedback


def result(ours, in_tree=(12.0, 12.1, 12.2)):
    return {kind: {'seconds': sorted(rows)[len(rows) // 2],
                   'samples': list(rows), 'event': 'e', 'rounds': len(rows)}
            for kind, rows in (('ours', ours), ('in-tree', in_tree))}


def verdict(fb):
    [(_target, _seen, found)] = feedback.targets(fb)
    return found


def test_a_band_across_the_target_is_undecided_not_missed():
    # 2025.1's rounds on 3e764d8 and more: the median over 2 s, the
    # interval across it.
    fb = result((1.14, 2.05, 2.10, 1.6, 2.2, 1.9, 2.3, 2.02, 1.8))
    assert verdict(fb) == 'undecided'
    [(_target, seen, _v)] = feedback.targets(fb)
    assert seen.startswith('ours 2.02 s (95 % 1.60-2.20, 9 rounds), in-tree '
                           '12.10'), seen
    assert 'rounds to decide' in seen


def test_too_few_rounds_for_an_interval_decide_nothing():
    fb = result((2.2, 2.5, 2.1))
    assert verdict(fb) == 'undecided'
    [(_target, seen, _v)] = feedback.targets(fb)
    assert 'all 2.10-2.50, 3 rounds: too few for a 95 % interval' in seen


def test_an_interval_under_the_target_is_met_and_over_it_missed():
    assert verdict(result((0.44, 0.66, 0.56, 0.5, 0.49, 0.61))) == 'met'
    assert verdict(result((2.2, 2.5, 2.1, 2.3, 2.4, 2.05))) == 'MISSED'


def test_a_result_without_its_rounds_decides_nothing():
    fb = result((0.5, 0.6, 0.7))
    del fb['ours']['samples']
    assert verdict(fb) == 'undecided'


def test_the_table_lists_each_round_and_its_terms():
    fb = result((0.44, 0.66, 0.56))
    fb['ours'].update(in_db=[0.3, 0.35, 0.4], read=[0.14, 0.31, 0.16])
    text = feedback.markdown(fb)
    assert '| ours | 0.56 | 0.44, 0.66, 0.56 | 0.35 | 0.16 | e |' in text
    # a result from before the terms
    assert '| in-tree | 12.10 | 12.00, 12.10, 12.20 | n/a | n/a | e |' \
        in text, text


def test_a_round_is_the_event_in_the_database_plus_one_read():
    event = external_watch.Event(seen=101.25, name='deployment',
                                 action='SIGNAL', status='IN_PROGRESS',
                                 reason='Signal: deployment in progress')
    found = feedback.sample(100.0, event, read=0.5)
    assert found['in_db'] == 1.25 and found['read'] == 0.5
    assert found['seconds'] == 1.75
    assert found['event'] == ('SIGNAL_IN_PROGRESS '
                              '"Signal: deployment in progress"')
