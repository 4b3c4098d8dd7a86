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
"""A benchmark part is marked busy for what others ran, not for its own load.

The load average after a part is mostly the part's own engine; what the
stamp judges is the CPU time of processes outside the part's own tree.
"""

import json
import subprocess
import sys

from benchmarks import stamp

QUIET = {'busy': False, 'load_before': [0.2, 0.3, 0.4],
         'load_after': [1.9, 1.2, 0.8]}


def test_its_own_load_after_does_not_make_a_part_busy():
    assert not stamp.measured_busy(dict(QUIET, foreign_cores=0.05))


def test_others_cpu_while_it_ran_makes_it_busy():
    assert stamp.measured_busy(dict(QUIET, foreign_cores=0.6))


def test_told_busy_stays_busy():
    assert stamp.measured_busy(dict(QUIET, foreign_cores=0.0, busy=True))


def test_the_previous_part_s_load_before_does_not_make_it_busy():
    # Parts run one after another: the load before the second is the
    # first's own; the first refused a busy machine (load_judged).
    assert not stamp.measured_busy(dict(QUIET, foreign_cores=0.03,
                                        load_before=[2.7, 3.6, 3.1]))


def test_a_result_from_before_the_measure_is_judged_as_then():
    assert stamp.measured_busy(dict(QUIET))
    assert stamp.measured_busy(dict(QUIET, load_before=[0.9, 0.5, 0.5],
                                    load_after=[0.5, 0.4, 0.3]))
    assert not stamp.measured_busy(dict(QUIET, load_after=[0.5, 0.4, 0.3]))


def test_a_result_written_before_does_not_dirty_the_tree(tmp_path):
    # The first part's result file, modified: the second part's tree is
    # still clean; any other change is not, staged or not, and is named.
    def dirty(changed, stage=False):
        repo = tmp_path / changed.replace('/', '-')
        subprocess.run(['git', 'init', '-q', str(repo)], check=True)
        for name in ('benchmarks/results/x.json', 'benchmarks/stamp.py',
                     'benchmarks/merge.py'):
            path = repo / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text('0')
        git = ['git', '-C', str(repo), '-c', 'user.name=t',
               '-c', 'user.email=t@t']
        subprocess.run(git + ['add', '.'], check=True)
        subprocess.run(git + ['commit', '-qm', 'x'], check=True)
        (repo / changed).write_text('1')
        if stage:
            subprocess.run(git + ['add', changed], check=True)
        assert stamp.tree_clean(str(repo)) == (not stamp.dirty_paths(
            str(repo)))
        return stamp.dirty_paths(str(repo))
    assert dirty('benchmarks/results/x.json') == []
    assert dirty('benchmarks/stamp.py') == ['benchmarks/stamp.py']
    assert dirty('benchmarks/merge.py', stage=True) == [
        'benchmarks/merge.py']


def test_only_uncommitted_changes_to_what_a_part_measures_count():
    measured = ['benchmarks/chain.py', 'heat_lifecycle_plugins/x.py']
    changed = {'commit': 'a' * 40, 'clean_tree': False,
               'dirty': ['benchmarks/merge.py', 'benchmarks/chain.py']}
    assert stamp.uncommitted(changed, measured) == ['benchmarks/chain.py']
    assert stamp.uncommitted(dict(changed, dirty=['benchmarks/merge.py']),
                             measured) == []
    # Stamps of before the paths were recorded: the tree as a whole.
    old = {'commit': 'a' * 40, 'clean_tree': False}
    assert stamp.uncommitted(old, measured) == ['the tree']
    assert stamp.uncommitted(dict(old, clean_tree=True), measured) == []


def test_the_tree_counts_every_live_descendant_once():
    stats = {1: (0, 100.0), 10: (1, 1.0), 11: (10, 2.0), 12: (11, 4.0),
             20: (1, 8.0), 30: (99, 16.0)}
    assert stamp.tree_seconds(10, stats) == 6.0
    assert stamp.tree_seconds(1, stats) == 15.0


def test_foreign_cores_is_the_machine_less_ours_per_second():
    before = {'machine': 100.0, 'ours': 10.0}
    after = {'machine': 130.0, 'ours': 30.0}
    assert stamp.foreign_cores(before, after, 20.0) == 0.5
    assert stamp.foreign_cores(before, dict(after, ours=45.0), 20.0) == 0.0


def test_a_child_s_cpu_is_counted_as_ours():
    before = stamp.cpu_snapshot()
    child = subprocess.Popen([sys.executable, '-c',
                              'import time\nend = time.process_time() + 1\n'
                              'while time.process_time() < end: pass\n'
                              'time.sleep(30)'])
    try:
        # Live while measured: counted from /proc, not os.times().
        deadline_cpu = 0.9
        for _ in range(100):
            live = stamp.cpu_snapshot()['ours'] - before['ours']
            if live >= deadline_cpu:
                break
            subprocess.run(['sleep', '0.05'])
        assert live >= deadline_cpu
    finally:
        child.kill()
        child.wait()
    # Reaped: counted by os.times() instead, not lost.
    assert stamp.cpu_snapshot()['ours'] - before['ours'] >= deadline_cpu


ORPHAN_RUN = r'''
import json, os, subprocess, sys, time
from benchmarks import stamp
began = stamp.begin(False)
before = stamp.cpu_snapshot()
done = sys.argv[1]
# The child starts a grandchild that burns 1 s of CPU, and exits first.
subprocess.run([sys.executable, '-c',
    'import subprocess, sys\n'
    'subprocess.Popen([sys.executable, "-c", "import time\\n"\n'
    '    "end = time.process_time() + 1\\n"\n'
    '    "while time.process_time() < end: pass\\n"\n'
    '    "open(%r, \'w\').close()"])' % done], check=True)
while not os.path.exists(done):
    time.sleep(0.05)
time.sleep(0.3)  # it exits after writing the file
after = stamp.cpu_snapshot()
print(json.dumps({'ours': after['ours'] - before['ours'],
                  'stamp': stamp.end(began)}))
'''


def test_an_orphan_s_cpu_stays_ours(tmp_path):
    # A cloud's workers outlive their master; without the subreaper their
    # CPU left with init and the part was marked busy by its own work.
    proc = subprocess.run(
        [sys.executable, '-c', ORPHAN_RUN, str(tmp_path / 'done')],
        capture_output=True, text=True, check=True, cwd=stamp.ROOT)
    result = json.loads(proc.stdout)
    assert result['stamp']['orphans_adopted']
    assert result['ours'] >= 0.9


def test_the_speed_probe_times_the_loop_and_a_full_collection():
    found = stamp.speed()
    assert set(found) == {'interpreter', 'gc'}
    assert all(0 < seconds < 60 for seconds in found.values())


def test_a_failed_probe_is_none_and_an_old_result_shows_a_dash(
        monkeypatch):
    monkeypatch.setattr(stamp, 'PROBE', 'raise SystemExit(3)')
    assert stamp.speed() is None
    from benchmarks import merge
    assert merge.speed_text({'speed_after': None}) == '- / -'
    assert merge.speed_text({'speed_before': {'interpreter': 0.234,
                                              'gc': 0.1},
                             'speed_after': None}) == '0.23, 0.10 / -'


def test_the_stamp_keeps_the_load_the_refusal_was_judged_on(monkeypatch):
    monkeypatch.setattr(stamp, 'speed', lambda: None)
    monkeypatch.setattr(stamp, 'adopt_orphans', lambda: False)
    judged, over = stamp.load_judged(max_load=-1.0)
    assert over
    assert stamp.begin(False, judged)['load_before'] == judged
    assert not stamp.load_judged(max_load=10 ** 6)[1]
