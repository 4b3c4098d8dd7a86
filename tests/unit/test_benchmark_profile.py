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

import gc

import pytest

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
    # The poll again, as py-spy 0.4 names a method: Class.method.
    'dispatch (%soslo_messaging/rpc/dispatcher.py:3);EngineService.'
    'show_stack (%sheat/engine/service.py:700);execute (%ssqlalchemy/'
    'engine/base.py:9) 4\n' % (SITE, SITE, SITE),
]


def test_samples_go_to_the_first_layer_one_of_their_frames_is_in():
    stacks = summary.read_collapsed(RAW)
    assert [c for _f, c in stacks] == [7, 3, 2, 4]
    found = summary.layers(stacks)
    assert found['ours'] == 7
    assert found['benchmark poll'] == 3 + 4
    assert found['templates and functions'] == 2
    assert found['database'] == 0
    assert sum(found.values()) == 16


def test_grown_lists_what_ours_spends_more_on():
    ours = summary.inclusive(summary.read_collapsed(RAW[:4]))
    assert ours['run (heat/engine/worker.py)'] == 9
    assert ours['execute (sqlalchemy/engine/base.py)'] == 10
    theirs = {'run (heat/engine/worker.py)': 4,
              'execute (sqlalchemy/engine/base.py)': 10}
    grown = dict(summary.grown(ours, theirs))
    assert grown['run (heat/engine/worker.py)'] == 5
    assert 'execute (sqlalchemy/engine/base.py)' not in grown


def test_a_path_is_shortened_to_its_package_or_module():
    assert summary.short_path(SITE + 'heat/engine/worker.py') == \
        'heat/engine/worker.py'
    assert summary.short_path('/usr/lib/python3.11/threading.py') == \
        'threading.py'
    assert summary.short_path('/src/benchmarks/chain.py') == \
        '/src/benchmarks/chain.py'


CFN = [
    # heat-api-cfn's request thread: waiting for Keystone's ec2tokens.
    'process 9:"gunicorn";run (%sgunicorn/workers/gthread.py:1);__call__ '
    '(%sheat/api/aws/ec2token.py:135);post (%skeystoneauth1/session.py:5);'
    'recv (%sssl.py:1) 30\n' % (SITE, SITE, SITE, '/v/lib/python3.11/'),
    # ... then for the engine's answer to its RPC.
    'process 9:"gunicorn";__call__ (%sheat/api/cfn/v1/signal.py:4);'
    '_BaseCallContext.call (%soslo_messaging/rpc/client.py:9);ReplyWaiters.'
    'get (%soslo_messaging/_drivers/amqpdriver.py:3) 12\n'
    % (SITE, SITE, SITE),
    # An idle thread of the same worker: not on the path.
    'process 9:"gunicorn";run (%sgunicorn/workers/gthread.py:1);wait '
    '(/v/lib/python3.11/threading.py:320) 500\n' % SITE,
]


def test_a_sample_is_what_its_innermost_known_frame_does():
    from benchmarks import told_profile
    stacks = summary.read_collapsed(CFN)
    row, process, marks, less = told_profile.ROWS[0]
    path = told_profile.row_stacks({process: stacks}, process, marks, less)
    assert [c for _f, c in path] == [30, 12]
    assert told_profile.innermost_openstack(path) == {
        'post (keystoneauth1/session.py)': 30,
        'ReplyWaiters.get (oslo_messaging/_drivers/amqpdriver.py)': 12}
    per = told_profile.split(path, told=2)
    assert per['waiting on Keystone (HTTP)'] == pytest.approx(0.15)
    assert per['waiting on the engine (RPC)'] == pytest.approx(0.06)
    assert sum(per.values()) == pytest.approx(0.21)
    # The innermost frame decides, not the first of ACTIVITIES' order:
    # the engine's handler under the RPC server is the engine's work.
    engine = summary.read_collapsed([
        'dispatch (%soslo_messaging/rpc/dispatcher.py:3);resource_signal '
        '(%sheat/engine/service.py:1953);execute (%ssqlalchemy/engine/'
        'base.py:9) 4\n' % (SITE, SITE, SITE)])
    assert summary.doing(engine[0][0], told_profile.ACTIVITIES) == 'database'
    assert summary.doing(engine[0][0][:1], told_profile.ACTIVITIES) == (
        'messaging')
    assert summary.doing(engine[0][0][:0], told_profile.ACTIVITIES) == (
        summary.OTHER)


def test_the_engine_rows_part_the_signal_rpc_from_ours_create():
    from benchmarks import told_profile
    stacks = summary.read_collapsed([
        # The RPC's handler calling ours' signal handling.
        'resource_signal (%sheat/engine/service.py:1953);handle_signal '
        '(%sheat_lifecycle_plugins/resources/external_resource.py:9) 5\n'
        % (SITE, SITE),
        # Ours' check, in a worker thread.
        'run (%sheat/engine/worker.py:10);check_create_complete '
        '(%sheat_lifecycle_plugins/resources/external_resource.py:20) 8\n'
        % (SITE, SITE)])
    counts = {row: sum(n for _f, n in told_profile.row_stacks(
        {'heat-engine': stacks}, process, marks, less))
        for row, process, marks, less in told_profile.ROWS
        if process == 'heat-engine'}
    assert counts == {'heat-engine: resource_signal': 5,
                      "heat-engine: ours' create, its waits too": 8}


def test_a_told_profile_runs_the_case_as_external_short_does():
    from benchmarks import parts
    from benchmarks import told_profile
    plan = parts.BY_NAME['external-short'].full
    assert told_profile.shape('short') == (1, plan['short_seconds'])
    assert told_profile.shape('batch') == (plan['batch_stacks'],
                                           plan['batch_seconds'])
    assert told_profile.parse_args(['--out', 'f.md']).rounds == 6
    batch = told_profile.parse_args(['--out', 'f.md', '--case', 'batch'])
    assert (batch.case, batch.rounds) == ('batch', 1)
    with pytest.raises(SystemExit):
        told_profile.parse_args(['--out', 'f.md', '--case', 'lost'])
    with pytest.raises(SystemExit):
        told_profile.parse_args(['--out', 'f.md', '--rounds', '0'])
    page = told_profile.markdown(
        {name: [] for name in told_profile.PROCESSES}, {'samples': []}, 1,
        'origin', told_profile.CASES['batch'][0])
    assert page.startswith('# Profile: ExternalResource told, 50 stacks at '
                           'once, 60 s workflows\n')


def test_full_collections_are_counted_and_timed_only_inside():
    from benchmarks import engine_profile
    with engine_profile.FullCollections() as seen:
        gc.collect(1)
        gc.collect(2)
        gc.collect()
    gc.collect()
    assert seen.count == 2 and seen.seconds > 0


def test_an_engine_profile_says_where_ours_spends_more_than_each_other():
    import argparse

    from benchmarks import chain
    from benchmarks import engine_profile
    work = summary.read_collapsed([
        'check (%sheat/engine/check_resource.py:1);execute '
        '(%ssqlalchemy/engine/base.py:9) 100\n' % (SITE, SITE)])
    more = summary.read_collapsed([
        'check (%sheat/engine/check_resource.py:1);execute '
        '(%ssqlalchemy/engine/base.py:9) 300\n' % (SITE, SITE)])
    db = {'engine_cpu': 0.9, 'mariadb_cpu': 0.4, 'Com_select': 50,
          'Com_insert': 7, 'Com_update': 8, 'Com_delete': 9}
    by_kind = {kind: {op: (1.0, stacks, (0, 0.0), db)
                      for op in chain.OPERATIONS}
               for kind, stacks in ((chain.OURS, more),
                                    (chain.INTREE, work),
                                    (chain.FLOOR, work))}
    args = argparse.Namespace(mode='concurrent', n=150, rounds=1,
                              kinds=list(by_kind), segment_size=None)
    text = engine_profile.markdown(args, by_kind, 'origin')
    for other in (chain.INTREE, chain.FLOOR):
        assert '## create: where ours spends more than %s' % other in text
    assert '| `check (heat/engine/check_resource.py)` | 3.00 | 1.00 | ' \
        '2.00 |' in text
    assert '| create | floor | 1.00 | 0.90 | 0.40 | 50 | 7 | 8 | 9 |' in text


def test_database_work_reads_mariadbs_cpu_and_statements(tmp_path):
    from benchmarks import engine_profile
    from heat_lifecycle_fixtures.mariadb import MariaDB
    if not MariaDB.available():
        pytest.skip('mariadbd is not installed')
    with MariaDB(str(tmp_path / 'db')) as mariadb:
        with engine_profile.DatabaseWork(mariadb) as work:
            mariadb.create_database()
    assert work.found['Com_select'] >= 0
    assert work.found['mariadb_cpu'] >= 0 and work.found['engine_cpu'] >= 0
    assert set(work.found) == {'engine_cpu', 'mariadb_cpu'} | set(
        engine_profile.DatabaseWork.STATEMENTS)
