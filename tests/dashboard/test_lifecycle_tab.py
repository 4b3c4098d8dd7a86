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
"""The Lifecycle tab on heat-dashboard's stack page, its rows' refresh and
its action form, through Django's test client with Horizon's test user;
heat-api is answered at the HTTP edge (fake_heat)."""

import json

from django.conf import settings
from django.contrib import messages
from django.test import override_settings
from django.urls import reverse
from heat_dashboard.test import helpers as test
from heatclient import exc as heat_exc
import requests_mock

from tests.dashboard import fake_heat

STACK_ID = '1b4c8e2f-3a5d-4c6e-9f0a-1b2c3d4e5f60'
TOP = ('app', STACK_ID)
DETAIL = 'horizon:project:stacks:detail'
TAB = '?tab=stack_details__lifecycle'
AJAX = {'HTTP_X_REQUESTED_WITH': 'XMLHttpRequest'}
LONG_REASON = ('Error: resources.chain.resources[1].resources.deployment: '
               'Deployment to server failed: deploy_status_code: '
               'Deployment exited with non-zero status code: 4; ' +
               'psql: could not connect to server: ' + 'x' * 300 +
               ' END-OF-REASON')
# The cause section's heading while the stack runs.
WAITING = 'What it waits for'
ACTION_CELL = '<td class="lifecycle-action">%s</td>'

# heat-dashboard's test data replaces heatclient's HTTPException.__init__
# and __str__ (test_data/exceptions.py, for its mocked API calls): our
# tests answer at the HTTP edge, where heatclient builds its real ones.
HEAT_EXCEPTION = (heat_exc.HTTPException.__init__,
                  heat_exc.HTTPException.__str__)


def stack(status='CREATE_COMPLETE', **more):
    found = {'id': STACK_ID, 'stack_name': 'app', 'stack_status': status,
             'stack_status_reason': 'Stack %s' % status,
             'creation_time': '2026-11-28T11:58:00Z',
             'updated_time': None, 'description': 'test stack',
             'parameters': {}, 'outputs': [], 'links': [], 'tags': None,
             'timeout_mins': None, 'disable_rollback': True,
             'capabilities': [], 'notification_topics': [],
             'stack_owner': 'demo', 'parent': None,
             'template_description': 'test stack'}
    found.update(more)
    return found


def deny_update(actions, request, target=None):
    """A policy that refuses heat's stack update, allows everything else."""
    return ('orchestration', 'stacks:update_patch') not in actions


class LifecycleTabTests(test.TestCase):

    def _setup_user(self, **kwargs):
        # Horizon reads a v3 catalog (interface, url); heat-dashboard's
        # test data has a v2 one.
        kwargs.setdefault('service_catalog', fake_heat.CATALOG)
        super()._setup_user(**kwargs)

    def setUp(self):
        super().setUp()
        (heat_exc.HTTPException.__init__,
         heat_exc.HTTPException.__str__) = HEAT_EXCEPTION
        self.http = requests_mock.Mocker(case_sensitive=True)
        self.http.start()
        self.addCleanup(self.http.stop)

    def heat(self, **kwargs):
        return fake_heat.FakeHeat(self.http, **kwargs)

    def open_tab(self):
        res = self.client.get(reverse(DETAIL, args=[STACK_ID]) + TAB, **AJAX)
        self.assertEqual(res.status_code, 200)
        return res.content.decode()

    def test_the_stack_page_has_the_tab_and_its_script(self):
        self.heat(stack=stack())
        res = self.client.get(reverse(DETAIL, args=[STACK_ID]))
        self.assertEqual(res.status_code, 200)
        tabs = res.context['tab_group']
        self.assertEqual(tabs.get_tab('lifecycle').name, 'Lifecycle')
        self.assertIn('data-target="#stack_details__lifecycle"',
                      res.content.decode())
        # Compressed into the script every page loads.
        self.assertIn('heat_lifecycle_dashboard/js/lifecycle.js',
                      settings.HORIZON_CONFIG['js_files'])

    def failed_chain(self):
        chain = ('app-chain-x', 'C1')
        member = ('app-chain-x-1-y', 'M1')
        return self.heat(
            stack=stack('CREATE_FAILED', stack_status_reason='Resource '
                        'CREATE failed: ' + LONG_REASON[:100]),
            resources=[
                fake_heat.resource('chain', TOP, 'CREATE_FAILED',
                                   'OS::Heat::ResourceChain', 'C1',
                                   nested=chain, reason=LONG_REASON),
                fake_heat.resource('1', chain, 'CREATE_FAILED', 'm.yaml',
                                   'M1', nested=member, reason=LONG_REASON),
                fake_heat.resource('deployment', member, 'CREATE_FAILED',
                                   physical_id='D1', reason=LONG_REASON)],
            deployments={'D1': {
                'id': 'D1', 'status': 'FAILED', 'action': 'CREATE',
                'config_id': 'K1', 'status_reason': LONG_REASON[:120],
                'updated_time': '2026-11-28T12:00:00Z',
                'output_values': {'deploy_status_code': 4,
                                  'deploy_stderr': 'psql: could not '
                                  'connect to server\n'}}})

    def test_a_failed_stack_shows_the_deepest_cause_first(self):
        self.failed_chain()
        page = self.open_tab()
        first = page.index('class="lifecycle-cause ')
        self.assertIn('chain/1/deployment', page[first:first + 400])
        self.assertLess(page.index('chain/1/deployment'),
                        page.index('>chain<'))
        # The full reason, not cut at 255 characters.
        self.assertIn('END-OF-REASON', page)
        self.assertIn('psql: could not connect to server', page)
        self.assertIn(reverse('horizon:project:stacks:resource',
                              args=['app-chain-x-1-y', 'deployment']), page)
        self.assertIn('FAILED', page)

    def test_a_failed_workflow_row_shows_its_execution(self):
        reason = ('WorkflowFailed: resources.thing: Mistral workflow '
                  'thing_create ended ERROR: task refuse failed: quota '
                  'exceeded (execution 5e1f-77)')
        self.heat(stack=stack('CREATE_FAILED'), resources=[
            fake_heat.resource('thing', TOP, 'CREATE_FAILED',
                               'OS::Mistral::ExternalResource', 'X1',
                               reason=reason)])
        page = self.open_tab()
        row = page[page.index('class="lifecycle-row"'):]
        row = row[:row.index('</tr>')]
        self.assertIn('5e1f-77', row)
        self.assertIn('(ERROR)', row)
        self.assertIn('refuse: quota exceeded', row)
        # mistral-dashboard is not installed here: no link to its page.
        self.assertNotIn('<a href', row)
        # The rows' last refresh keeps it.
        url = reverse('horizon:project:lifecycle:rows', args=[STACK_ID])
        found = json.loads(self.client.get(url).content)
        self.assertIn('5e1f-77', found['rows'])

    def running(self, progress='In progress: step 2 of 5',
                deploy_action='BACKUP'):
        template = {'heat_template_version': '2018-08-31', 'resources': {
            'deploy': {'type': 'OS::Heat::SoftwareDeployment',
                       'properties': {'run_timeout': 600,
                                      'start_timeout': 60}}}}
        return self.heat(
            stack=stack('UPDATE_IN_PROGRESS',
                        updated_time='2026-11-28T12:00:00Z'),
            resources=[fake_heat.resource(
                'deploy', TOP, 'UPDATE_IN_PROGRESS', physical_id='D1',
                updated='2099-01-01T00:00:00Z')],
            # A request's BACKUP runs as Heat's UPDATE of the deployment;
            # the config delivered names it.
            deployments={'D1': {'id': 'D1', 'status': 'IN_PROGRESS',
                                'action': 'UPDATE', 'config_id': 'K1',
                                'status_reason': progress,
                                'updated_time': '2026-11-28T12:00:30Z'}},
            configs={'K1': {'id': 'K1', 'group': 'component', 'inputs': [
                {'name': 'deploy_action', 'value': deploy_action}],
                'config': {'configs': [{'actions': ['CREATE', 'BACKUP']}]}}},
            templates={'app/' + STACK_ID: template},
            events={'deploy': [{
                'id': 'E1', 'resource_name': 'deploy',
                'resource_status': 'SIGNAL_COMPLETE',
                'event_time': '2026-11-28T12:00:30Z',
                'resource_status_reason': 'Signal: deployment in progress:'
                                          ' step 2 of 5'}]})

    def test_a_running_deployment_shows_its_milestone_and_deadline(self):
        self.running()
        page = self.open_tab()
        self.assertIn('data-final="false"', page)
        self.assertIn('step 2 of 5', page)
        # Progress came: start_timeout no longer counts, run_timeout does.
        self.assertIn('run_timeout', page)
        self.assertIn('2099-01-01T00:10:00Z', page)
        self.assertIn('<svg', page)
        self.assertIn('class="lifecycle-mark"', page)

    def test_a_custom_action_is_the_rows_action_not_update(self):
        self.running()
        self.assertIn(ACTION_CELL % 'BACKUP', self.open_tab())
        url = reverse('horizon:project:lifecycle:rows', args=[STACK_ID])
        found = json.loads(self.client.get(url).content)
        self.assertIn(ACTION_CELL % 'BACKUP', found['rows'])

    def external(self, *events):
        """An ExternalResource whose UPDATE runs, with these events."""
        self.heat(
            stack=stack('UPDATE_IN_PROGRESS'),
            resources=[fake_heat.resource(
                'thing', TOP, 'UPDATE_IN_PROGRESS',
                'OS::Mistral::ExternalResource', 'X1',
                updated='2026-11-28T12:00:00Z')],
            events={'thing': [{
                'id': 'E%d' % number, 'resource_name': 'thing',
                'resource_status': 'UPDATE_IN_PROGRESS',
                'event_time': when, 'resource_status_reason': reason}
                for number, (when, reason) in enumerate(events)]})

    def test_an_external_resources_request_is_the_rows_action(self):
        # Its execution's start event names what the request runs.
        self.external(
            ('2026-11-28T11:00:00Z', "Mistral execution 0a of workflow "
             "'rotate' started for ROTATE_KEYS; polling it: x"),
            ('2026-11-28T12:00:00Z', 'state changed'),
            ('2026-11-28T12:00:01Z', "Mistral execution 1b of workflow "
             "'backup' started for BACKUP; Mistral tells its end to "
             "heat-api-cfn (fallback poll every 30 s)"))
        self.assertIn(ACTION_CELL % 'BACKUP', self.open_tab())
        url = reverse('horizon:project:lifecycle:rows', args=[STACK_ID])
        found = json.loads(self.client.get(url).content)
        self.assertIn(ACTION_CELL % 'BACKUP', found['rows'])

    def test_an_external_resources_plain_update_is_the_rows_update(self):
        # The last request's event came before this UPDATE began.
        self.external(
            ('2026-11-28T11:00:00Z', "Mistral execution 0a of workflow "
             "'backup' started for BACKUP; polling it: x"),
            ('2026-11-28T12:00:01Z', "Mistral execution 1b of workflow "
             "'update' started; polling it: x"))
        self.assertIn(ACTION_CELL % 'UPDATE', self.open_tab())

    def test_a_reapply_is_the_rows_update(self):
        # Re-applying a component without an UPDATE entry delivers CREATE.
        self.running(deploy_action='CREATE')
        self.assertIn(ACTION_CELL % 'UPDATE', self.open_tab())

    def test_a_stack_without_deployments_says_so(self):
        self.heat(stack=stack(), resources=[
            fake_heat.resource('server', TOP, rtype='OS::Nova::Server',
                               physical_id='S1')])
        page = self.open_tab()
        self.assertIn('no software deployments', page)
        self.assertNotIn('<svg', page)

    def test_a_reader_sees_the_stack_and_why_the_rest_is_missing(self):
        fake = self.failed_chain()
        fake.forbidden.add('resource:index')
        page = self.open_tab()
        self.assertIn('refused by the cloud&#x27;s policy', page)
        self.assertIn('CREATE_FAILED', page)
        self.assertIn(('GET', '/stacks/app/%s/resources' % STACK_ID),
                      fake.asked)

    def test_the_rows_view_gives_the_rows_until_they_are_final(self):
        fake = self.running()
        self.assertIn(WAITING, self.open_tab())
        url = reverse('horizon:project:lifecycle:rows', args=[STACK_ID])
        found = json.loads(self.client.get(url).content)
        self.assertFalse(found['final'])
        self.assertIn('step 2 of 5', found['rows'])
        # While it runs the cause section comes with the rows.
        self.assertIn(WAITING, found['cause'])
        fake.stack['stack_status'] = 'UPDATE_COMPLETE'
        fake.resources[0]['resource_status'] = 'UPDATE_COMPLETE'
        fake.deployments['D1'].update(status='COMPLETE',
                                      status_reason='Outputs received')
        found = json.loads(self.client.get(url).content)
        self.assertTrue(found['final'])
        self.assertIn('COMPLETE', found['rows'])
        self.assertIn('data-final="true"', found['rows'])
        # The cause section comes too, to replace the one that said what
        # the stack waited for: nothing to say after a success.
        self.assertEqual(found['cause'].strip(), '')

    def test_the_rows_view_refreshes_what_the_stack_waits_for(self):
        fake = self.running()
        url = reverse('horizon:project:lifecycle:rows', args=[STACK_ID])
        self.client.get(url)
        fake.events['deploy'] += [{
            'id': 'E2', 'resource_name': 'deploy',
            'resource_status': 'UPDATE_IN_PROGRESS',
            'event_time': '2099-01-01T00:00:00Z',
            'resource_status_reason': 'state changed'}, {
            'id': 'E3', 'resource_name': 'deploy',
            'resource_status': 'SIGNAL_COMPLETE',
            'event_time': '2099-01-01T00:00:10Z',
            'resource_status_reason': 'Signal: deployment in progress: '
                                      'step 3 of 5'}]
        fake.asked[:] = []
        found = json.loads(self.client.get(url).content)
        # What it waits for now: the last milestone, its age counted at
        # this poll (the event is 'in the future': a negative age).
        self.assertIn(WAITING, found['cause'])
        self.assertRegex(found['cause'],
                         r'last progress -\d+ s ago: step 3 of 5')
        self.assertIn('deadline: run_timeout fires at 2099-01-01T00:10:00Z',
                      found['cause'])
        # Read from the rows' own requests: each once, the resources
        # listed once, no walk of the stack's events.
        self.assertEqual(len(fake.asked), len(set(fake.asked)), fake.asked)
        self.assertNotIn(('GET', '/stacks/app/%s/events' % STACK_ID),
                         fake.asked)

    def test_the_rows_view_sends_the_cause_of_a_final_failure(self):
        fake = self.running()
        fake.stack['stack_status'] = 'UPDATE_FAILED'
        fake.resources[0].update(resource_status='UPDATE_FAILED',
                                 resource_status_reason=LONG_REASON)
        fake.deployments['D1'].update(status='FAILED',
                                      status_reason=LONG_REASON[:120])
        url = reverse('horizon:project:lifecycle:rows', args=[STACK_ID])
        found = json.loads(self.client.get(url).content)
        self.assertTrue(found['final'])
        self.assertIn('Cause first', found['cause'])
        self.assertIn('END-OF-REASON', found['cause'])
        self.assertNotIn(WAITING, found['cause'])

    def test_the_rows_view_answers_an_unreachable_heat_with_its_error(self):
        self.http.register_uri(requests_mock.ANY, requests_mock.ANY,
                               status_code=503, text='busy')
        url = reverse('horizon:project:lifecycle:rows', args=[STACK_ID])
        res = self.client.get(url)
        self.assertEqual(res.status_code, 200)
        found = json.loads(res.content)
        self.assertFalse(found['final'])
        self.assertIn('error', found)

    def test_without_the_update_policy_the_button_is_hidden(self):
        self.running()
        self.assertIn('lifecycle-run-action', self.open_tab())
        with override_settings(POLICY_CHECK_FUNCTION=deny_update):
            self.assertNotIn('lifecycle-run-action', self.open_tab())

    def component_stack(self, forbidden=()):
        template = {'heat_template_version': '2018-08-31',
                    'parameters': {'req': {'type': 'string'},
                                   'act': {'type': 'string'},
                                   'inp': {'type': 'json'}},
                    'resources': {'deploy': {
                        'type': 'OS::Heat::SoftwareDeployment',
                        'properties': {
                            'action_request': {'get_param': 'req'},
                            'extended_action': {'get_param': 'act'},
                            'action_inputs': {'get_param': 'inp'}}}}}
        return self.heat(
            stack=stack(), forbidden=forbidden,
            resources=[fake_heat.resource('deploy', TOP, physical_id='D1')],
            deployments={'D1': {'id': 'D1', 'status': 'COMPLETE',
                                'action': 'CREATE', 'config_id': 'K1'}},
            configs={'K1': {'id': 'K1', 'group': 'component', 'inputs': [],
                            'config': {'configs': [
                                {'actions': ['CREATE', 'BACKUP',
                                             'ROTATE_KEYS']}]}}},
            templates={'app/' + STACK_ID: template})

    def test_the_form_lists_the_actions_the_deployments_define(self):
        self.component_stack()
        url = reverse('horizon:project:lifecycle:run', args=[STACK_ID])
        page = self.client.get(url).content.decode()
        for choice in ('deploy BACKUP', 'deploy ROTATE_KEYS',
                       'deploy UPDATE'):
            self.assertIn('value="%s"' % choice, page)
        # A lifecycle action is Heat's to run, not a request's.
        self.assertNotIn('value="deploy CREATE"', page)

    def test_the_button_opens_the_form_as_a_modal(self):
        # The tab's button asks for the form by ajax: Horizon renders the
        # modal's own template (a leading '_'), no page around it.
        self.component_stack()
        url = reverse('horizon:project:lifecycle:run', args=[STACK_ID])
        res = self.client.get(url, **AJAX)
        self.assertEqual(200, res.status_code)
        self.assertTemplateUsed(
            res, 'heat_lifecycle_dashboard/_run_action.html')
        self.assertTemplateNotUsed(res, 'base.html')
        self.assertIn('value="deploy BACKUP"', res.content.decode())

    def test_a_reader_gets_the_form_without_actions_and_a_message(self):
        self.component_stack(forbidden=('resource:index',))
        url = reverse('horizon:project:lifecycle:run', args=[STACK_ID])
        res = self.client.get(url)
        self.assertEqual(res.status_code, 200)
        self.assertNotIn('value="deploy BACKUP"', res.content.decode())
        said = [str(m) for m in messages.get_messages(res.wsgi_request)]
        self.assertTrue(any('refused by the cloud' in m for m in said),
                        said)

    def run_backup(self, fake, inputs='target=s3\n'):
        url = reverse('horizon:project:lifecycle:run', args=[STACK_ID])
        return self.client.post(url, {'stack_id': STACK_ID,
                                      'target': 'deploy BACKUP',
                                      'inputs': inputs})

    def test_running_an_action_sends_the_stack_update(self):
        fake = self.component_stack()
        res = self.run_backup(fake)
        self.assertEqual(res.status_code, 302)
        self.assertTrue(res['Location'].endswith(TAB))
        self.assertEqual(len(fake.patches), 1)
        params = fake.patches[0]['parameters']
        self.assertEqual(params['act'], 'BACKUP')
        self.assertEqual(json.loads(params['inp']), {'target': 's3'})
        self.assertRegex(params['req'], r'^\d{8}T\d{6}Z-[0-9a-f]{8}$')
        said = [str(m) for m in messages.get_messages(res.wsgi_request)]
        self.assertIn(params['req'], said[0])

    def test_a_refused_update_is_an_error_message_not_an_error_page(self):
        fake = self.component_stack(forbidden=('stacks:update_patch',))
        res = self.run_backup(fake)
        self.assertEqual(res.status_code, 200)
        self.assertEqual(fake.patches, [])
        said = [str(m) for m in messages.get_messages(res.wsgi_request)]
        self.assertTrue(any('refused BACKUP of deploy' in m for m in said),
                        said)

    def test_a_request_the_library_refuses_is_an_error_message(self):
        fake = self.component_stack()
        res = self.run_backup(fake, inputs='deploy_action=DELETE\n')
        self.assertEqual(res.status_code, 200)
        self.assertEqual(fake.patches, [])
        said = [str(m) for m in messages.get_messages(res.wsgi_request)]
        self.assertEqual(said, ["--input 'deploy_action=DELETE': "
                                "deploy_action is set by Heat, not by a "
                                "request"])
