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
"""The matrix's machine sampler: shares of the cores, and its summary."""

import os
import time

from tools import machine_use


def test_shares_are_of_all_ticks_between_two_readings():
    # busy 150 of 400 ticks, iowait 40 of them.
    assert machine_use.shares((100, 10, 1000), (250, 50, 1400)) == (
        0.375, 0.1)


def test_summary_counts_the_saturated_periods():
    rows = [(10, 1.0, 0.0, 2.1), (20, 0.96, 0.02, 2.0), (30, 0.5, 0.04, 1.0),
            (40, 0.2, 0.06, 0.5)]
    line = machine_use.summary(rows)
    assert 'cores 66% busy' in line
    assert 'saturated (>= 95%) 50% of the time' in line
    assert 'iowait 3%' in line


def test_the_sampler_writes_a_row_per_period(tmp_path):
    path = str(tmp_path / 'machine.tsv')
    sampler = machine_use.Sampler(path, period=0.05).start()
    time.sleep(0.3)  # a sleep: the unit tier may run under eventlet
    line = sampler.stop()
    with open(path) as f:
        rows = f.read().splitlines()
    assert rows[0].split('\t') == ['seconds', 'busy', 'iowait', 'load1']
    assert len(rows) - 1 == len(sampler.rows) >= 2
    assert line.startswith('machine: cores ') and str(os.cpu_count()) in line
