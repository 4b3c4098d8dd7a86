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
"""How an engine profile (benchmarks/engine_profile.py) reads py-spy."""

from benchmarks import profile_summary as summary

SITE = '/v/lib/python3.11/site-packages/'
RAW = [
    # A chain member's create under our plugin, in the database.
    'run (%sheat/engine/worker.py:10);handle_create (%sheat_lifecycle_'
    'plugins/resources/resource_chain.py:50);execute (%ssqlalchemy/engine/'
    'base.py:9) 7\n' % (SITE, SITE, SITE),
    # The benchmark's poll, served by the engine's show_stack.
    'dispatch (%soslo_messaging/rpc/dispatcher.py:3);show_stack (%sheat/'
    'engine/service.py:700);execute (%ssqlalchemy/engine/base.py:9) 3\n'
    % (SITE, SITE, SITE),
    'run (%sheat/engine/worker.py:10);parse (%sheat/engine/hot/'
    'template.py:4) 2\n' % (SITE, SITE),
    'garbage without a count\n',
]


def test_samples_go_to_the_first_layer_one_of_their_frames_is_in():
    stacks = summary.read_collapsed(RAW)
    assert [c for _f, c in stacks] == [7, 3, 2]
    found = summary.layers(stacks)
    assert found['ours'] == 7
    assert found['benchmark poll'] == 3
    assert found['templates and functions'] == 2
    assert found['database'] == 0
    assert sum(found.values()) == 12


def test_grown_lists_what_ours_spends_more_on():
    ours = summary.inclusive(summary.read_collapsed(RAW))
    assert ours['run (heat/engine/worker.py)'] == 9
    assert ours['execute (sqlalchemy/engine/base.py)'] == 10
    theirs = {'run (heat/engine/worker.py)': 4,
              'execute (sqlalchemy/engine/base.py)': 10}
    grown = dict(summary.grown(ours, theirs))
    assert grown['run (heat/engine/worker.py)'] == 5
    assert 'execute (sqlalchemy/engine/base.py)' not in grown
