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
"""A free lane takes the ready job of the longest tier, not the oldest.

2025.1's venv is ready first with e2e, fault and bench; 2026.2's e2e,
ready a moment later, must not wait behind 2025.1's bench.
"""

from tools import matrix


def test_a_free_lane_takes_the_longest_tier_first():
    ready = matrix.ReadyJobs()
    for series, tier in (('2025.1', 'e2e'), ('2025.1', 'fault'),
                         ('2025.1', 'bench'), ('2026.2', 'e2e'),
                         ('2026.2', 'bench'), ('2026.2', 'unit')):
        ready.add(matrix.Job(series, tier), None, [])
    taken = [ready.take()[0].name for _ in range(6)]
    assert taken == ['2025.1-e2e', '2026.2-e2e', '2025.1-fault',
                     '2025.1-bench', '2026.2-bench', '2026.2-unit']


def test_jobs_of_one_tier_keep_their_order_after_takes():
    # Within a tier, first added first taken, also after a take.
    ready = matrix.ReadyJobs()
    ready.add(matrix.Job('2025.1', 'unit'), None, [])
    ready.add(matrix.Job('2025.2', 'unit'), None, [])
    assert ready.take()[0].name == '2025.1-unit'
    ready.add(matrix.Job('2026.1', 'unit'), None, [])
    assert [ready.take()[0].name for _ in range(2)] == [
        '2025.2-unit', '2026.1-unit']
