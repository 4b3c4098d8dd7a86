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
"""The benchmarks wait for a stack from outside the engine's process.

benchmarks/stack_watch.py in its own process, on a SQLite table shaped
as the columns of Heat's `stack` it reads.
"""

import threading
import time

import pytest
import sqlalchemy

from benchmarks import stack_watch


@pytest.fixture
def table(tmp_path):
    url = 'sqlite:///%s' % (tmp_path / 'heat.db')
    db = sqlalchemy.create_engine(url, isolation_level='AUTOCOMMIT')
    with db.connect() as c:
        c.execute(sqlalchemy.text(
            'CREATE TABLE stack (id TEXT, action TEXT, status TEXT, '
            'status_reason TEXT, name TEXT)'))
        c.execute(sqlalchemy.text(
            "INSERT INTO stack VALUES ('s1', 'CREATE', 'IN_PROGRESS', '', "
            "'one')"))

    def write(sql, after=0.0):
        def run():
            time.sleep(after)
            with db.connect() as c:
                c.execute(sqlalchemy.text(sql))
        threading.Thread(target=run).start()

    watch = stack_watch.StackWatch(url).start()
    yield watch, write
    watch.stop()
    db.dispose()


def test_the_wait_ends_when_the_row_says_the_action_ended(table):
    watch, write = table
    # The clock starts before the writer's sleep does: it cannot be late.
    began = time.monotonic()
    write("UPDATE stack SET status = 'COMPLETE' WHERE id = 's1'", after=0.3)
    row = watch.wait('s1', 'CREATE', timeout=10)
    assert row['status'] == 'COMPLETE' and row['name'] == 'one'
    assert 0.3 <= time.monotonic() - began < 2


def test_it_keeps_its_deadline_and_checks_while_it_waits(table):
    watch, _write = table
    checks = []
    with pytest.raises(stack_watch.StackWatchError, match='did not end'):
        watch.wait('s1', 'UPDATE', timeout=1.5,
                   on_poll=lambda: checks.append(1))
    assert len(checks) >= 1
    # The next wait is answered for itself, not with the last one's lines.
    with pytest.raises(stack_watch.StackWatchError, match='CREATE_FAILED'):
        table[1]("UPDATE stack SET status = 'FAILED', status_reason = "
                 "'boom' WHERE id = 's1'")
        watch.wait('s1', 'CREATE', timeout=10)


def test_a_check_that_raises_stops_the_wait(table):
    watch, _write = table

    def spent():
        raise RuntimeError('budget spent')
    with pytest.raises(RuntimeError, match='budget spent'):
        watch.wait('s1', 'UPDATE', timeout=30, on_poll=spent)


def test_a_gone_row_ends_a_delete_and_fails_anything_else(table):
    watch, write = table
    assert watch.wait('nope', 'DELETE', timeout=5) is None
    with pytest.raises(stack_watch.StackWatchError, match='gone'):
        watch.wait('nope', 'CREATE', timeout=5)


def test_verdicts():
    assert stack_watch.verdict(None, 'DELETE') == 'gone'
    assert stack_watch.verdict(('CREATE', 'COMPLETE'), 'CREATE') == 'ended'
    assert stack_watch.verdict(('CREATE', 'FAILED'), 'CREATE') == 'ended'
    assert stack_watch.verdict(('CREATE', 'COMPLETE'), 'UPDATE') == 'waiting'
    assert stack_watch.verdict(('UPDATE', 'IN_PROGRESS'), 'UPDATE') == (
        'waiting')
