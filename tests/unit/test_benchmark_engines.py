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
"""The two-engine part stops a kind whose stack spent Heat's thread budget.

Its watch reads what the engines' logs gained, and its verdict is ours'
alone: in-tree stopping is reported beside the ratios, not as a miss.
"""

import pytest

from benchmarks import engines

LINE = 'ERROR oslo_messaging.rpc.server RuntimeError: %s\n' % (
    engines.THREAD_BUDGET)


def test_watch_raises_on_what_the_logs_gained_since_it_last_looked(
        tmp_path):
    logs = [tmp_path / 'heat-engine-0.log', tmp_path / 'heat-engine-1.log']
    logs[0].write_text('INFO started\n' + LINE)  # before the watch
    logs[1].write_text('')
    watch = engines.BudgetWatch([str(log) for log in logs], every=0)
    with pytest.raises(engines.BudgetSpent):
        watch()  # its first look reads each log from the start
    watch()  # nothing gained since
    with logs[1].open('a') as f:
        f.write('INFO a check_resource\n')
    watch()
    with logs[1].open('a') as f:
        f.write(LINE)
    with pytest.raises(engines.BudgetSpent, match='heat-engine-1.log'):
        watch()


def test_budget_message_quotes_the_message_whole_after_its_context():
    line = ('2026-12-07 06:50:01.123 41 ERROR heat.engine.check_resource '
            '[None req-aa60 test_user test_tenant_id - - - -] Unexpected '
            'exception in resource check.: RuntimeError: %s\n' % (
                engines.THREAD_BUDGET))
    assert engines.budget_message('/w/heat-engine-0.log', line) == (
        'Unexpected exception in resource check.: RuntimeError: %s '
        '(heat-engine-0.log)' % engines.THREAD_BUDGET)


def test_watch_looks_at_most_once_a_period(tmp_path):
    log = tmp_path / 'heat-engine-0.log'
    log.write_text('')
    watch = engines.BudgetWatch([str(log)], every=3600)
    watch()
    log.write_text(LINE)
    watch()  # within the hour: not read


def result(failures, ours_problems=()):
    samples = {'ours': {'create': [1.0, 1.2], 'update': [2.0, 2.0],
                        'delete': [1.0, 1.0]},
               'in-tree': {'create': [3.0], 'update': [4.0], 'delete': []}}
    return {'n': 500, 'engines': 2, 'rounds': 2, 'samples': samples,
            'peak_rss': 2 ** 30, 'failures': failures,
            'problems': {'ours': list(ours_problems), 'in-tree': []},
            'lock_errors': []}


def test_in_tree_stopping_is_reported_not_a_miss():
    failure = 'round 0, delete: heat-engine-0.log: ' + LINE.strip()
    found = result({'in-tree': failure})
    found['restarts'] = ['after in-tree stopped at round 0']
    [(title, seen, verdict)] = engines.targets(found)
    assert verdict == 'met'
    assert 'create 2.7x' in seen and 'delete n/a' in seen
    assert 'in-tree stopped at round 0, delete' in seen
    text = engines.markdown(found)
    assert 'in-tree stopped at round 0, delete' in text
    assert '| delete | 1.00 | n/a | n/a |' in text
    assert ('Engine processes restarted: after in-tree stopped at '
            'round 0.') in text


def test_ours_stopping_or_a_member_twice_is_a_miss():
    stopped = result({'ours': 'round 1, update: heat-engine-1.log: x'})
    assert engines.targets(stopped)[0][2] == 'MISSED'
    assert 'round 1, update' in engines.targets(stopped)[0][1]
    twice = result({}, ['round 0: 501 members, not 500'])
    assert engines.targets(twice)[0][2] == 'MISSED'
    assert twice['problems']['ours'] == ['round 0: 501 members, not 500']


def listed(stack, name, action='CREATE', status='COMPLETE'):
    """A member as Heat lists it, as a resource or an event."""
    return {'stack_identity': {'stack_id': stack}, 'resource_name': name,
            'resource_type': engines.chain.MEMBER,
            'resource_action': action, 'resource_status': status}


def test_a_fully_created_chain_whose_events_heat_pruned_has_no_problem():
    # Two segments holding members of the same names.
    members = [listed(s, 'm%d' % i) for s in ('a', 'b') for i in range(3)]
    pruned = members[4:]  # Heat deleted the oldest events
    assert engines.problems_of(members, pruned, 6) == []


def test_a_member_created_twice_or_missing_is_a_problem():
    members = [listed('a', 'm%d' % i) for i in range(3)]
    doubled = members + [listed('a', 'm1')]
    assert engines.problems_of(members, doubled, 3) == [
        'created more than once: m1']
    failed = members[:2] + [listed('a', 'm2', status='FAILED')]
    assert engines.problems_of(failed, members, 3) == [
        "member states [('CREATE', 'COMPLETE'), ('CREATE', 'FAILED')]"]
    assert engines.problems_of(members[:2], members, 3) == [
        '2 members, not 3']


def test_a_kind_that_failed_is_not_run_again_and_the_engines_restart():
    order = [(0, 'ours'), (0, 'in-tree'), (1, 'in-tree'), (1, 'ours')]
    ran, restarted = [], []

    def one(r, kind):
        ran.append((r, kind))
        return 'round 0, update: x' if kind == 'in-tree' else None

    failures, restarts = engines.play(
        order, one, lambda kind, r: restarted.append((kind, r)))
    assert ran == [(0, 'ours'), (0, 'in-tree'), (1, 'ours')]
    assert failures == {'in-tree': 'round 0, update: x'}
    assert restarted == [('in-tree', 0)]
    assert restarts == ['after in-tree stopped at round 0']


def test_no_restart_when_no_other_kind_has_rounds_left():
    order = [(0, 'ours'), (0, 'in-tree'), (1, 'in-tree'), (1, 'ours')]
    restarted = []
    # ours fails last; then in-tree fails with only ours left after it.
    failures, restarts = engines.play(
        order, lambda r, kind: 'x' if (r, kind) in (
            (1, 'ours'), (1, 'in-tree')) else None,
        lambda kind, r: restarted.append(kind))
    assert restarted == ['in-tree'] and restarts == [
        'after in-tree stopped at round 1']
    assert sorted(failures) == ['in-tree', 'ours']


def test_one_read_of_the_logs_serves_the_budget_and_the_locks(tmp_path):
    log = tmp_path / 'heat-engine-0.log'
    log.write_text('a lock held by a dead engine\n' + LINE)
    watch = engines.BudgetWatch([str(log)], every=3600)
    assert watch.lock_errors() == ['a lock held by a dead engine']
    assert watch.lock_errors() == []
    # The budget message read by lock_errors is raised by the next look,
    # however soon.
    with pytest.raises(engines.BudgetSpent):
        watch()
    watch()
    with log.open('a') as f:
        f.write('Failed to acquire the lock\n' + LINE)
    # After a restart, the old engines' budget messages are dropped.
    assert watch.restarted() == ['Failed to acquire the lock']
    watch()
    with log.open('a') as f:
        f.write('INFO fine\n')
    assert watch.lock_errors() == []


def test_only_the_lock_errors_logged_while_ours_ran_are_ours():
    found = result({})
    found['lock_errors'] = {'ours': [], 'in-tree': ['StackLock stolen']}
    assert engines.targets(found)[0][2] == 'met'
    found['lock_errors']['ours'] = ['ActionInProgress']
    assert engines.targets(found)[0][2] == 'MISSED'
    # A result of before the restarts: one list, charged to ours.
    found['lock_errors'] = ['StackLock stolen']
    assert engines.targets(found)[0][2] == 'MISSED'


def test_an_engine_restarted_serves_when_its_log_says_so_again(tmp_path):
    heat = engines.HeatEngines(str(tmp_path), None, None, 2)
    for log in heat.logs:
        with open(log, 'w') as f:
            f.write('Service heat-engine is started\n')
    seen = [len('Service heat-engine is started\n')] * 2
    assert heat._started() and not heat._started(seen)
    with open(heat.logs[0], 'a') as f:
        f.write('Service heat-engine is started\n')
    assert not heat._started(seen)
    with open(heat.logs[1], 'a') as f:
        f.write('Service heat-engine is started\n')
    assert heat._started(seen)
