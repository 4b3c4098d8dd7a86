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
"""A chain create split into phases by Heat's own log lines."""

import argparse
import logging

import pytest

from benchmarks import chain_phases
from benchmarks import merge

TOP = 'phases-ours-r0'
LINES = [
    (100.031, 'Creating stack %s' % TOP),
    (100.112, 'creating ResourceChain "chain" Stack "%s" [7b27]' % TOP),
    (100.131, 'Creating stack %s-chain-i4al4f5bzooj' % TOP),
    # A segment's stack, inside the nested one: not the nested one.
    (100.200, 'Creating stack %s-chain-i4al4f5bzooj-0-x2' % TOP),
    (105.900, 'Stack CREATE COMPLETE (%s-chain-i4al4f5bzooj-0-x2): done'
     % TOP),
    (105.945, 'Stack CREATE COMPLETE (%s-chain-i4al4f5bzooj): Stack '
     'CREATE completed successfully' % TOP),
    (105.964, 'Stack CREATE COMPLETE (%s): Stack CREATE completed '
     'successfully' % TOP),
]


def test_the_phases_run_from_the_call_to_the_watch_and_add_up():
    found = chain_phases.phases(LINES, 100.0, 5.975, TOP)
    assert found == pytest.approx({'start': 0.131, 'nested run': 5.814,
                                   'notice': 0.019, 'watch': 0.011})
    assert sum(found.values()) == pytest.approx(5.975)


def test_another_stack_of_a_similar_name_is_not_taken_for_this_one():
    other = [(at, message.replace(TOP, TOP + '1')) for at, message in LINES]
    assert chain_phases.phases(other, 100.0, 5.975, TOP) is None
    assert chain_phases.phases(LINES[:-1], 100.0, 5.975, TOP) is None


def test_heat_lines_are_caught_at_info_and_the_level_put_back():
    log = logging.getLogger('heat')
    log.setLevel(logging.WARNING)
    with chain_phases.HeatLines() as heat:
        logging.getLogger('heat.engine.stack').info('Stack %s', 'x')
    logging.getLogger('heat.engine.stack').info('after')
    assert [message for _, message in heat.lines] == ['Stack x']
    assert log.level == logging.WARNING
    assert heat not in log.handlers


def test_the_summary_has_each_kinds_medians_and_every_round():
    args = argparse.Namespace(mode='sequential', n=100, rounds=2,
                              slow_poll=0.5)
    kinds = ('ours', 'in-tree', chain_phases.SLOW)
    one = dict(zip(chain_phases.PHASES, (0.1, 6.0, 0.1, 0.01)))
    rounds = {kind: [one, dict(one, notice=0.3)] for kind in kinds}
    text = chain_phases.markdown(args, kinds, rounds, 'Commit abc123')
    assert text.startswith('# Profile: phases of a sequential chain create '
                           'of 100, ours, in-tree, ours, slow poll\n')
    assert '| ours | 0.100 | 6.000 | 0.200 | 0.010 | 6.310 |' in text
    assert '| 1 | in-tree | 0.100 | 6.000 | 0.300 | 0.010 |' in text
    assert 'ours polling every 0.5 s' in text


def test_a_phases_profile_is_judged_by_what_it_measures():
    assert 'benchmarks.chain_phases' in merge.profile_roots(
        'profile-phases-sequential-100.md')
