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
"""user_side.progress: rows of a stack's deployments; osc.progress_watch:
how they are shown."""

import datetime
import io

from heat_lifecycle_plugins.osc import progress_watch
from heat_lifecycle_plugins.user_side import progress as pw

NOW = datetime.datetime(2026, 11, 24, 12, 10, 0,
                        tzinfo=datetime.timezone.utc)


def link(rel, name, ident):
    return {'rel': rel, 'href': 'http://h/v1/p/stacks/%s/%s' % (name, ident)}


def resource(name, stack, nested=None, rtype='OS::Heat::SoftwareDeployment'):
    links = [link('stack', *stack)]
    if nested:
        links.append(link('nested', *nested))
    return {'resource_name': name, 'resource_type': rtype, 'links': links}


def test_paths_run_from_the_top_through_chain_members():
    listed = [
        resource('deploy', ('m1', 'M1')),
        resource('1', ('c', 'C'), nested=('m1', 'M1'), rtype='b.yaml'),
        resource('chain', ('top', 'T'), nested=('c', 'C'),
                 rtype='OS::Heat::ResourceChain'),
        resource('deploy', ('top', 'T')),
        resource('orphan', ('lost', 'L')),
    ]
    found = pw.with_paths('top/T', listed)
    assert [r['path'] for r in found] == [
        ['chain'], ['chain', '1'], ['chain', '1', 'deploy'], ['deploy']]
    assert [pw.is_deployment(r) for r in found] == [False, False, True,
                                                    True]


def test_a_row_shows_the_progress_and_time_since_the_action_began():
    row = pw.row({'path': ['chain', '1', 'deploy'],
                  'resource_status': 'CREATE_IN_PROGRESS',
                  'updated_time': '2026-11-24T12:07:30Z'},
                 {'status': 'IN_PROGRESS',
                  'status_reason': 'In progress: step 2 of 5: unpacking'},
                 NOW)
    assert row == ('chain/1/deploy', 'IN_PROGRESS', '2:30',
                   'step 2 of 5: unpacking')
    created = pw.row({'path': ['d'], 'resource_status': 'INIT_COMPLETE'},
                     None, NOW)
    assert created == ('d', 'INIT_COMPLETE', '', '')


def test_the_outcome_of_ended_rows():
    done = {'stack_status': 'CREATE_COMPLETE'}
    assert pw.ended(done, [('d', 'COMPLETE', '', '')])
    assert not pw.ended(done, [('d', 'IN_PROGRESS', '', '')])
    assert not pw.ended({'stack_status': 'UPDATE_IN_PROGRESS'}, [])
    assert progress_watch.outcome(done, [('d', 'COMPLETE', '', '')]) == \
        progress_watch.EXIT_OK
    assert progress_watch.outcome(done, [('d', 'FAILED', '', '')]) == \
        progress_watch.EXIT_FAILED
    assert progress_watch.outcome({'stack_status': 'CREATE_FAILED'}, []) == \
        progress_watch.EXIT_FAILED


def test_without_a_terminal_only_changes_are_printed():
    out = io.StringIO()
    shown = progress_watch.Watch(out, terminal=False)
    stack = {'stack_name': 's', 'stack_status': 'CREATE_IN_PROGRESS'}
    shown.show(stack, [('d', 'IN_PROGRESS', '0:01', 'step 1')])
    shown.show(stack, [('d', 'IN_PROGRESS', '0:03', 'step 1')])
    shown.show(stack, [('d', 'IN_PROGRESS', '0:05', 'step 2')])
    assert out.getvalue().splitlines() == [
        'stack s CREATE_IN_PROGRESS',
        'd           IN_PROGRESS   0:01  step 1',
        'd           IN_PROGRESS   0:05  step 2']


def test_on_a_terminal_the_lines_are_redrawn_in_place():
    out = io.StringIO()
    shown = progress_watch.Watch(out, terminal=True)
    stack = {'stack_name': 's', 'stack_status': 'CREATE_IN_PROGRESS'}
    shown.show(stack, [('d', 'IN_PROGRESS', '0:01', 'step 1')])
    shown.show(stack, [('d', 'COMPLETE', '', 'Outputs received')])
    assert out.getvalue().count('\x1b[2F') == 1  # back up two lines once
    assert out.getvalue().endswith(
        '\x1b[2Kd%sCOMPLETE%sOutputs received\n' % (' ' * 11, ' ' * 12))


def test_ctrl_c_leaves_cleanly():
    class Interrupting(object):
        class stacks(object):
            @staticmethod
            def get(ref):
                raise KeyboardInterrupt()
    out = io.StringIO()
    assert progress_watch.watch(Interrupting(), 's', out, False) == \
        progress_watch.EXIT_INTERRUPTED
    assert out.getvalue() == 'interrupted: the stack goes on without us\n'


def delivered(action):
    """A delivered config whose deploy_action input is `action`."""
    return {'group': 'component', 'inputs': [
        {'name': 'deploy_server_id', 'value': 'S1'},
        {'name': 'deploy_action', 'value': action}]}


def test_details_name_the_action_and_the_deadline_that_will_fire():
    found = pw.details(
        {'path': ['chain', '1', 'deploy'], 'resource_name': 'deploy',
         'resource_status': 'UPDATE_IN_PROGRESS',
         'updated_time': '2026-11-24T12:07:30Z', 'stack_ref': 'm1/M1',
         'physical_resource_id': 'D1'},
        {'status': 'IN_PROGRESS', 'action': 'UPDATE',
         'status_reason': 'In progress: step 2 of 5'},
        {'start_timeout': 60, 'run_timeout': 600},
        {'stack_status': 'UPDATE_IN_PROGRESS'}, NOW, delivered('BACKUP'))
    assert found['path'] == 'chain/1/deploy'
    # A request's BACKUP runs as Heat's UPDATE; the config delivered
    # names it.
    assert found['action'] == 'BACKUP'
    assert found['progress'] == 'step 2 of 5'
    assert found['elapsed'] == '2:30'
    assert not found['final']
    # start_timeout no longer counts once progress came
    assert found['deadlines'] == [{'name': 'run_timeout',
                                   'fires_at': '2026-11-24T12:17:30Z',
                                   'in_seconds': 450}]


def test_details_of_a_final_deployment_have_no_deadline():
    found = pw.details({'path': ['d'], 'resource_status': 'CREATE_COMPLETE',
                        'updated_time': '2026-11-24T12:07:30Z'},
                       {'status': 'COMPLETE'}, {'run_timeout': 600},
                       {'stack_status': 'CREATE_COMPLETE'}, NOW)
    assert found['final'] and found['deadlines'] == []
    assert found['action'] == 'CREATE'


def test_details_of_a_reapply_or_an_unread_config_name_heats_action():
    deployment = {'status': 'COMPLETE', 'action': 'UPDATE'}
    row = {'path': ['d'], 'resource_status': 'UPDATE_COMPLETE'}
    stack = {'stack_status': 'UPDATE_COMPLETE'}
    # A re-apply of a component without an UPDATE entry delivers CREATE.
    for config in (delivered('CREATE'), delivered('UPDATE'), None,
                   {'inputs': []}):
        found = pw.details(row, deployment, {}, stack, NOW, config)
        assert found['action'] == 'UPDATE', config


def started(when, action=None):
    """An ExternalResource's event: its execution started (for a request)."""
    from heat_lifecycle_plugins.resources import execution_notices
    from heat_lifecycle_plugins.resources import execution_results
    run = execution_results.Run(action or 'UPDATE', 'wf', 'E-' + when)
    return {'resource_status': 'UPDATE_IN_PROGRESS', 'event_time': when,
            'resource_status_reason': execution_notices.waiting_reason(
                run, execution_notices.Waiting(None, 'polling'), 30,
                'UPDATE')}


def test_an_external_resources_request_is_its_rows_action():
    row = {'path': ['thing'], 'resource_status': 'UPDATE_IN_PROGRESS',
           'resource_type': 'OS::Mistral::ExternalResource',
           'updated_time': '2026-11-24T12:08:00Z'}
    stack = {'stack_status': 'UPDATE_IN_PROGRESS'}
    # A request's BACKUP runs as Heat's UPDATE; the start event of its
    # execution names it. A ROTATE_KEYS before this UPDATE is over.
    events = [started('2026-11-24T12:01:00Z', 'ROTATE_KEYS'),
              started('2026-11-24T12:08:01Z', 'BACKUP')]
    found = pw.details(row, None, {}, stack, NOW, events=events)
    assert found['action'] == 'BACKUP'
    done = dict(row, resource_status='UPDATE_COMPLETE')
    assert pw.details(done, None, {}, stack, NOW,
                      events=events)['action'] == 'BACKUP'
    # A plain update (or a re-apply) after it: Heat's UPDATE.
    for later in ([started('2026-11-24T12:08:01Z')], events[:1]):
        assert pw.details(row, None, {}, stack, NOW,
                          events=later)['action'] == 'UPDATE', later
    # Another action since: the request's event is not read.
    deleting = dict(row, resource_status='DELETE_IN_PROGRESS')
    assert pw.details(deleting, None, {}, stack, NOW,
                      events=events)['action'] == 'DELETE'
