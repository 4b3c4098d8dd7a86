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
"""diagnosis.explain on stacks as heat-api shows them (plain dicts).

The shapes are those the loopback cloud's heat-api returned (tests/e2e/
test_why.py runs the same cases for real); reasons are Heat's own texts.
"""

import pytest

from heat_lifecycle_plugins.user_side import diagnosis
from heat_lifecycle_plugins.user_side import report

DEPLOY_REASON = (
    'hook script: the tool exited with status 4, Deployment exited with '
    'non-zero status code: 4, stderr: psql: could not connect to server')


def stack(status='CREATE_FAILED', reason='Resource CREATE failed: ...',
          name='app'):
    return {'id': 'stack-id', 'stack_name': name, 'stack_status': status,
            'stack_status_reason': reason}


def resource(path, rtype, status, reason='', physical_id='', nested=False,
             updated='2026-11-23T15:37:50Z', stack_name='app'):
    return {'path': list(path), 'resource_name': path[-1],
            'resource_type': rtype, 'resource_status': status,
            'resource_status_reason': reason,
            'physical_resource_id': physical_id, 'nested': nested,
            'updated_time': updated, 'stack_name': stack_name}


def event(path, status, reason, time):
    return {'path': list(path), 'resource_name': path[-1],
            'resource_status': status, 'resource_status_reason': reason,
            'event_time': time}


def chain_with_failing_deployment():
    """A chain whose member 1 holds a deployment whose script failed."""
    resources = [
        resource(['server'], 'OS::Heat::DeployedServer', 'CREATE_COMPLETE',
                 'state changed', 'server-id'),
        resource(['step'], 'OS::Heat::ResourceChain', 'CREATE_FAILED',
                 'Error: resources.step.resources[1].resources.deployment: '
                 'Deployment to server failed: ' + DEPLOY_REASON,
                 'chain-id', nested=True),
        resource(['step', '0'], 'steps/ok.yaml', 'CREATE_COMPLETE',
                 'state changed', 'm0', nested=True),
        resource(['step', '1'], 'steps/db.yaml', 'CREATE_FAILED',
                 'Error: resources[1].resources.deployment: Deployment to '
                 'server failed: ' + DEPLOY_REASON, 'm1', nested=True),
        resource(['step', '2'], 'steps/ok.yaml', 'INIT_COMPLETE'),
        resource(['step', '1', 'database'], 'OS::Heat::SoftwareComponent',
                 'CREATE_COMPLETE', 'state changed', 'config-id'),
        resource(['step', '1', 'deployment'], 'OS::Heat::SoftwareDeployment',
                 'CREATE_FAILED', 'Error: resources.deployment: Deployment '
                 'to server failed: ' + DEPLOY_REASON, 'deployment-id',
                 stack_name='app-step-1'),
    ]
    events = [
        event(['step', '1', 'deployment'], 'CREATE_IN_PROGRESS',
              'state changed', '2026-11-23T15:37:53Z'),
        event(['step', '1', 'deployment'], 'SIGNAL_IN_PROGRESS',
              'Signal: deployment deployment-id in progress: started '
              'script hook', '2026-11-23T15:37:56Z'),
        event(['step', '1', 'deployment'], 'CREATE_FAILED',
              'Error: resources.deployment: Deployment to server failed: '
              + DEPLOY_REASON, '2026-11-23T15:37:57Z'),
    ]
    deployments = {'deployment-id': {
        'id': 'deployment-id', 'action': 'CREATE', 'status': 'FAILED',
        'status_reason': DEPLOY_REASON,
        'updated_time': '2026-11-23T15:37:57Z',
        'output_values': {
            'deploy_stdout': 'creating the schema\n',
            'deploy_stderr': 'psql: could not connect to server\n\n'
                             '[heat-lifecycle-agent] hook script: the tool '
                             'exited with status 4',
            'deploy_status_code': 4}}}
    return resources, events, deployments


ANSIBLE_REASON = ('task [check the database] failed on localhost: the '
                  'database is not reachable (hook ansible: the tool exited '
                  'with status 2)')
ANSIBLE_WARNING = ('[WARNING]: Platform linux on host localhost is using '
                   'the discovered Python interpreter')


@pytest.mark.parametrize('status_aware', [True, False])
def test_a_failed_ansible_task_wins_over_a_warning_on_stderr(status_aware):
    """The callback's reason names the task (issue 54); a warning after it.

    Not status-aware: the reason is only in the agent's note on stderr.
    """
    resources, events, deployments = chain_with_failing_deployment()
    deployment = deployments['deployment-id']
    deployment['status_reason'] = (ANSIBLE_REASON if status_aware else
                                   'Deployment exited with status 2')
    deployment['output_values'].update(
        deploy_status_code=2, deploy_stderr=ANSIBLE_WARNING +
        '\n[heat-lifecycle-agent] ' + ANSIBLE_REASON)
    first = diagnosis.explain(stack(), resources, events, deployments)[0]
    assert (first.kind, first.cause) == (diagnosis.DEPLOYMENT, ANSIBLE_REASON)
    assert first.details['stderr_tail'][0] == ANSIBLE_WARNING


def test_a_stack_that_did_not_fail_has_nothing_to_explain():
    findings = diagnosis.explain(stack('UPDATE_COMPLETE', 'ok'), [
        resource(['x'], 'OS::Heat::None', 'CREATE_FAILED', 'old')])
    assert findings == []
    assert report.render(stack('UPDATE_COMPLETE'), findings) == [
        'stack app is UPDATE_COMPLETE: nothing failed']
    assert not diagnosis.stack_failed(stack('CREATE_IN_PROGRESS'))
    assert diagnosis.stack_failed(stack('ROLLBACK_COMPLETE'))


def test_the_failed_deployment_deepest_in_a_chain_comes_first():
    resources, events, deployments = chain_with_failing_deployment()
    findings = diagnosis.explain(stack(), resources, events, deployments)
    assert [(f.path, f.role) for f in findings] == [
        (['step', '1', 'deployment'], diagnosis.CAUSE),
        (['step', '1'], diagnosis.ENCLOSING),
        (['step'], diagnosis.ENCLOSING)]
    first = findings[0]
    assert first.kind == diagnosis.DEPLOYMENT
    # The tool's own last words, not the agent's note after them.
    assert first.cause == 'psql: could not connect to server'
    assert first.details['status_code'] == 4
    assert first.details['stderr_tail'][-1].startswith(
        '[heat-lifecycle-agent]')
    assert first.details['last_progress'] == {
        'message': 'started script hook', 'time': '2026-11-23T15:37:56Z'}
    assert first.stack_name == 'app-step-1'
    # The chain member's own reason, without Heat's wrappers.
    assert findings[1].cause.startswith('Deployment to server failed: ')


def test_the_report_as_text_says_the_cause_first():
    resources, events, deployments = chain_with_failing_deployment()
    findings = diagnosis.explain(stack(), resources, events, deployments)
    lines = report.render(stack(), findings)
    assert lines[:4] == [
        'stack app CREATE_FAILED: 1 cause, 2 enclosing', '',
        '[1] step/1/deployment  OS::Heat::SoftwareDeployment  '
        'CREATE_FAILED  (cause)',
        '    cause: psql: could not connect to server']
    assert '    in stack: app-step-1' in lines
    assert '    status code: 4' in lines
    assert ('    last progress: started script hook (at '
            '2026-11-23T15:37:56Z)') in lines
    # The deployment's reason is in the resource's: said once.
    assert '    deployment: FAILED' in lines
    assert lines[-2:] == [
        '[3] step  OS::Heat::ResourceChain  CREATE_FAILED  (enclosing)',
        '    cause: its nested stack failed: see [1]']


def test_the_report_as_json_has_the_same_order_and_details():
    resources, events, deployments = chain_with_failing_deployment()
    findings = diagnosis.explain(stack(), resources, events, deployments)
    data = report.as_dict(stack(), findings)
    assert data['failed'] is True
    assert data['stack'] == {'id': 'stack-id', 'name': 'app',
                             'status': 'CREATE_FAILED',
                             'reason': 'Resource CREATE failed: ...'}
    assert [f['resource'] for f in data['findings']] == [
        'deployment', '1', 'step']
    assert data['findings'][0]['cause'] == (
        'psql: could not connect to server')


WORKFLOW_REASON = (
    'WorkflowFailed: resources[0]: Mistral workflow thing_create ended '
    'ERROR: task refuse failed: quota exceeded; task log failed: disk '
    'full (execution 5e1f)')


def test_a_failed_workflow_in_a_group_names_its_failed_tasks():
    resources = [
        resource(['things'], 'OS::Heat::ResourceGroup', 'CREATE_FAILED',
                 'WorkflowFailed: resources.things.resources[0]: Mistral '
                 'workflow ...', 'group-id', nested=True),
        resource(['things', '0'], 'OS::Mistral::ExternalResource',
                 'CREATE_FAILED', WORKFLOW_REASON),
    ]
    findings = diagnosis.explain(stack(), resources)
    first = findings[0]
    assert (first.kind, first.path) == (diagnosis.WORKFLOW, ['things', '0'])
    assert first.cause == ('task refuse failed: quota exceeded; task log '
                           'failed: disk full')
    assert first.details == {
        'workflow': 'thing_create', 'state': 'ERROR', 'execution': '5e1f',
        'failed_tasks': [{'task': 'refuse', 'error': 'quota exceeded'},
                         {'task': 'log', 'error': 'disk full'}]}
    lines = report.render(stack(), findings)
    assert '    failed task: log: disk full' in lines


def test_a_workflow_without_a_failed_task_gives_its_state_info():
    reason = ('WorkflowFailed: resources.thing: Mistral workflow w ended '
              'CANCELLED: cancelled by the operator (execution 9)')
    [finding] = diagnosis.explain(stack(), [
        resource(['thing'], 'OS::Mistral::ExternalResource',
                 'CREATE_FAILED', reason)])
    assert finding.cause == 'cancelled by the operator'
    assert finding.details['state_info'] == 'cancelled by the operator'
    assert finding.details['failed_tasks'] == []


def test_a_deadline_says_which_one_fired():
    never = ('the server never started the deployment in 300 s (not '
             'booted, agent not polling, metadata unreachable)')
    late = ('still running after 600 s; last progress: migrating at '
            '2026-11-23T15:40:00Z')
    resources = [
        resource(['a'], 'OS::Heat::SoftwareDeployment', 'CREATE_FAILED',
                 'Error: resources.a: Deployment to server failed: ' + never,
                 'dep-a'),
        resource(['b'], 'OS::Heat::SoftwareDeployment', 'CREATE_FAILED',
                 'Error: resources.b: ' + late, 'dep-b'),
    ]
    deployments = {'dep-a': {'status': 'FAILED', 'status_reason': never,
                             'output_values': None}}
    findings = {tuple(f.path): f for f in
                diagnosis.explain(stack(), resources, (), deployments)}
    assert findings[('a',)].kind == diagnosis.DEADLINE
    assert findings[('a',)].cause == never
    # Without the deployment (not readable): from the resource's reason.
    assert findings[('b',)].kind == diagnosis.DEADLINE
    assert findings[('b',)].cause == late


def test_a_deployment_left_in_progress_by_a_stack_timeout():
    resources = [
        resource(['quiet'], 'OS::Heat::SoftwareDeployment',
                 'CREATE_IN_PROGRESS', 'state changed', 'dep-q'),
        resource(['busy'], 'OS::Heat::SoftwareDeployment', 'CREATE_FAILED',
                 'CREATE aborted (Task create from SoftwareDeployment "busy" '
                 'Stack "app" Timed out)', 'dep-b'),
        resource(['other'], 'OS::Heat::TestResource', 'CREATE_FAILED',
                 'CREATE aborted (Operation cancelled)'),
    ]
    deployments = {
        'dep-q': {'status': 'IN_PROGRESS',
                  'status_reason': 'Deploy data available'},
        'dep-b': {'status': 'IN_PROGRESS',
                  'status_reason': 'In progress: step 3 of 5',
                  'updated_time': '2026-11-23T16:00:00Z'}}
    findings = diagnosis.explain(stack(reason='Timed out'), resources, (),
                                 deployments)
    assert [(f.path, f.role) for f in findings] == [
        (['busy'], diagnosis.CAUSE), (['quiet'], diagnosis.STUCK),
        (['other'], diagnosis.CANCELLED)]
    busy, quiet, other = findings
    assert other.kind == diagnosis.RESOURCE
    assert busy.cause == ('the deployment is still IN_PROGRESS; last '
                          'progress: step 3 of 5 at 2026-11-23T16:00:00Z')
    assert quiet.cause == ('the server never signalled: the deployment is '
                           'still IN_PROGRESS (Deploy data available)')
    assert other.cause == 'CREATE aborted (Operation cancelled)'


def test_a_resource_aborted_by_the_stack_timeout():
    [finding] = diagnosis.explain(stack(reason='Timed out'), [
        resource(['wait'], 'OS::Heat::WaitCondition', 'CREATE_FAILED',
                 'CREATE aborted (Task create from WaitCondition "wait" '
                 'Stack "app" Timed out)')])
    assert (finding.role, finding.kind) == (diagnosis.CAUSE,
                                            diagnosis.TIMEOUT)
    assert finding.cause == ('the stack timed out while its CREATE was in '
                             'progress')


def test_any_resource_type_is_explained_by_its_own_reason():
    """Not only ours: a chain member of Heat's TestResource."""
    resources = [
        resource(['step'], 'OS::Heat::ResourceChain', 'CREATE_FAILED',
                 'Error: resources.step.resources[1]: Test Resource failed '
                 'broken step', nested=True),
        resource(['step', '1'], 'OS::Heat::TestResource', 'CREATE_FAILED',
                 'Error: resources[1]: Test Resource failed broken step'),
        resource(['server'], 'OS::Nova::Server', 'CREATE_FAILED',
                 'ResourceInError: resources.server: Went to status ERROR '
                 'due to "Message: No valid host was found."'),
        resource(['late'], 'OS::Heat::None', 'CREATE_FAILED',
                 'Resource CREATE failed: timeout',
                 updated='2026-11-23T15:40:00Z'),
    ]
    findings = diagnosis.explain(stack(), resources)
    assert [(f.path, f.cause) for f in findings] == [
        (['step', '1'], 'Test Resource failed broken step'),
        (['server'], 'Went to status ERROR due to "Message: No valid host '
                     'was found."'),
        (['late'], 'timeout'),
        (['step'], 'Test Resource failed broken step')]
    assert findings[0].kind == diagnosis.RESOURCE


def test_a_nested_resource_whose_nested_stack_shows_nothing_is_a_cause():
    [finding] = diagnosis.explain(stack(), [
        resource(['nest'], 'nest.yaml', 'CREATE_FAILED',
                 'Error: resources.nest: Property error: x', nested=True)])
    assert (finding.role, finding.cause) == (diagnosis.CAUSE,
                                             'Property error: x')


def test_after_a_rollback_the_failure_events_explain_it():
    """Those of the action that failed, not an older one's."""
    events = [
        event(['thing'], 'UPDATE_FAILED', 'Error: resources.thing: old',
              '2026-11-20T10:00:00Z'),
        event(['other'], 'UPDATE_FAILED', 'Error: resources.other: old',
              '2026-11-20T10:00:00Z'),
        event(['thing'], 'CREATE_IN_PROGRESS', 'state changed',
              '2026-11-23T15:00:00Z'),
        event(['thing'], 'CREATE_FAILED', WORKFLOW_REASON,
              '2026-11-23T15:00:05Z'),
        event(['thing'], 'DELETE_COMPLETE', 'state changed',
              '2026-11-23T15:00:09Z'),
    ]
    rolled_back = dict(stack('ROLLBACK_COMPLETE'),
                       creation_time='2026-11-23T14:59:58Z')
    findings = diagnosis.explain(rolled_back, [], events)
    [finding] = findings
    assert finding.path == ['thing'] and finding.kind == diagnosis.WORKFLOW
    assert finding.cause.startswith('task refuse failed: quota exceeded')


def test_a_stack_that_failed_without_resources_gives_its_own_reason():
    [finding] = diagnosis.explain(
        stack('UPDATE_FAILED', 'Resource UPDATE failed: Error: resources'
                               '.x: Property y not allowed'), [])
    assert finding.role == diagnosis.STACK and finding.path == []
    assert finding.cause == 'Property y not allowed'
    assert report.render(stack(), [finding])[2] == (
        '[1] (the stack itself)  -  UPDATE_FAILED  (stack)')


def test_what_the_reader_looks_at():
    failed = resource(['x'], 'OS::Heat::SoftwareDeployment',
                      'UPDATE_FAILED', physical_id='d')
    running = resource(['y'], 'OS::Heat::StructuredDeployment',
                       'CREATE_IN_PROGRESS', physical_id='e')
    assert diagnosis.failed_or_unfinished(failed)
    assert diagnosis.failed_or_unfinished(running)
    assert not diagnosis.failed_or_unfinished(
        resource(['c'], 'OS::Heat::None', 'CREATE_COMPLETE'))
    assert diagnosis.needs_reading(failed)
    assert diagnosis.needs_reading(running)
    # Cancelled: listed, but its nested stack and deployment are not read.
    stopped = resource(['z'], 'steps/db.yaml', 'CREATE_FAILED',
                       'CREATE aborted (Operation cancelled)', 'n',
                       nested=True)
    assert diagnosis.failed_or_unfinished(stopped)
    assert not diagnosis.needs_reading(stopped)
    timed_out = resource(['t'], 'OS::Heat::SoftwareDeployment',
                         'CREATE_FAILED', 'CREATE aborted (Task create from '
                         'SoftwareDeployment "t" Stack "app" Timed out)')
    assert diagnosis.needs_reading(timed_out)
    assert diagnosis.may_be_deployment(failed)
    assert diagnosis.may_be_deployment(running)
    assert not diagnosis.may_be_deployment(
        resource(['g'], 'OS::Heat::SoftwareDeploymentGroup', 'CREATE_FAILED',
                 physical_id='s', nested=True))
    assert not diagnosis.may_be_deployment(
        resource(['n'], 'OS::Heat::SoftwareDeployment', 'CREATE_FAILED'))


def test_own_reason_takes_off_every_wrapper():
    assert diagnosis.own_reason(
        'Resource CREATE failed: Error: resources.a.resources[0].resources'
        '.b: it broke: badly') == 'it broke: badly'
    assert diagnosis.own_reason(None) == ''
    assert diagnosis.own_reason('plain words') == 'plain words'


def test_progress_marks_are_the_progress_signals_in_time_order():
    events = [
        {'resource_status': 'SIGNAL_COMPLETE', 'event_time': '2026-11-23T'
         '15:38:10Z', 'resource_status_reason': 'Signal: deployment '
         'in progress: step 2'},
        {'resource_status': 'CREATE_IN_PROGRESS',
         'event_time': '2026-11-23T15:37:00Z',
         'resource_status_reason': 'state changed'},
        {'resource_status': 'SIGNAL_COMPLETE', 'event_time': '2026-11-23T'
         '15:37:56Z', 'resource_status_reason': 'Signal: deployment '
         'in progress: step 1'},
    ]
    assert diagnosis.progress_marks(events) == [
        {'message': 'step 1', 'time': '2026-11-23T15:37:56Z'},
        {'message': 'step 2', 'time': '2026-11-23T15:38:10Z'}]
    assert diagnosis.last_progress(events)['message'] == 'step 2'
