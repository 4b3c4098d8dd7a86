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
"""The Lifecycle tab in chromium, on stacks whose deployments really run.

The stacks are tests/e2e's chain (templates/osc/chain.yaml) on a
DeployedServer whose real agent runs the scripts; its second member is
templates/slow_steps.yaml here (three milestones, a BACKUP that takes a
while) or e2e's osc/exit3.yaml (fails). The external resource is
examples/day_two_external_resource.yaml's thing, its workflows run by the
cloud's Mistral. A member (demo) and a reader of the demo project look at
them through Horizon, whose host has heat-dashboard's policy in force
(heat_lifecycle_fixtures/horizon.py).

The action form is opened both ways: as the page its button links to, and
as the modal Horizon opens when the button is clicked (by ajax, submitted
by ajax).
"""

import os
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from selenium.webdriver.support.ui import WebDriverWait

from heat_lifecycle_fixtures import keystone
from heat_lifecycle_fixtures import stacks
from tests.browser import pages
from tests.browser import test_stack_pages as stack_pages
from tests.e2e import conftest as e2e_conftest
from tests.e2e.conftest import driver  # noqa: F401 (a shared fixture)
from tests.e2e.conftest import heat  # noqa: F401
from tests.e2e.conftest import mistral_workflows  # noqa: F401
from tests.e2e import test_resource_chain as e2e_templates

HERE = os.path.dirname(os.path.abspath(__file__))
CHAIN = e2e_templates.read('osc/chain.yaml')
SLOW = 'browser/slow_steps.yaml'
with open(os.path.join(HERE, 'templates', 'slow_steps.yaml')) as f:
    FILES = {SLOW: f.read()}
FILES.update({'osc/%s' % name: e2e_templates.read('osc/%s' % name)
              for name in ('quiet.yaml', 'exit3.yaml')})
MEMBER = 'chain/1/deployment'
MILESTONES = ('step 1 of 3: fetching', 'step 2 of 3: migrating',
              'step 3 of 3: checking')
NO_DEPLOYMENTS = ('This stack has no software deployments or external '
                  'resources.')
REFUSED = ("Resource details are refused by the cloud's policy: your role "
           "may read the stack but not its resources.")
BACKUP_MILESTONE = 'backup browser: copying'
# heat-dashboard's Check Stack (actions:action): a rule of the same
# default as heat's stacks:update_patch, which the tab's button asks
# Horizon's policy for (member of the project; on 2025.1, where Horizon
# does not enforce the new defaults, ORed with the deprecated
# deny_stack_user, which a reader passes).
SAME_RULE_ACTION = 'check'
# The cause section's heading while the stack runs.
WAITING = 'What it waits for'
EXIT3_CAUSE = 'cannot reach the database at db.internal:5432'


@pytest.fixture(scope='module')
def slow_chain(cloud, tmp_path_factory):  # noqa: F811
    """(StackDriver, id) of the chain, its CREATE still running."""
    with stacks.StackDriver(cloud.heat_client(),
                            str(tmp_path_factory.mktemp('slow-chain')),
                            prefix='browser') as stack_driver:
        stack_id = stack_driver.create(
            CHAIN, {'second': SLOW}, files=FILES, servers=['server'],
            wait=False, agent_options={'milestone_interval': 1})
        yield stack_driver, stack_id


@pytest.fixture(scope='module')
def empty_stack(cloud, tmp_path_factory):  # noqa: F811
    """The id of a stack with no deployment (test_stack_pages' template)."""
    with stacks.StackDriver(cloud.heat_client(),
                            str(tmp_path_factory.mktemp('empty')),
                            prefix='browser') as stack_driver:
        yield stack_driver.create(stack_pages.SMALL_STACK)


def member_login(browser, horizon):
    browser.login(horizon.url, 'demo', keystone.DEMO_PASSWORD)


def _opened_while_the_member_runs(browser, horizon, stack_id):
    """The tab, opened again until the member's deployment runs."""
    deadline = time.monotonic() + pages.PAGE_WAIT
    while True:
        page, _pane = pages.open_tab(browser, horizon, stack_id)
        member = pages.rows(page).get(MEMBER)
        if member and member['status'] == 'IN_PROGRESS':
            return page
        assert time.monotonic() < deadline, pages.tab_text(page)
        time.sleep(1)


def test_milestones_appear_in_place_then_the_final_state(
        browser, horizon, slow_chain):
    _stack_driver, stack_id = slow_chain
    member_login(browser, horizon)
    page = _opened_while_the_member_runs(browser, horizon, stack_id)
    tab = page.find_element(By.CSS_SELECTOR, pages.TAB)
    assert tab.get_attribute('data-final') == 'false', pages.tab_text(page)
    assert WAITING in pages.tab_text(page), pages.tab_text(page)
    pages.set_mark(page, 'this page')

    waits = []

    def complete(row):
        said = dict(pages.causes(page)).get(MEMBER)
        if said and said not in waits:
            waits.append(said)
        return row['status'] == 'COMPLETE'

    seen = pages.watch_row(page, MEMBER, complete)
    shown = [progress for _status, _action, progress in seen]
    # At least two milestones, each shown while the deployment ran, in
    # their order; the page is the one the tab was opened on.
    running = [progress for status, _action, progress in seen
               if status == 'IN_PROGRESS']
    found = [m for m in MILESTONES if any(m in p for p in running)]
    assert len(found) >= 2, shown
    assert [m for m in MILESTONES if m in found] == found
    # The cause section came with the rows: what it waits for followed
    # the milestones ("last progress N s ago: step 2 of 3: ...").
    waited = [m for m in MILESTONES if any(m in w for w in waits)]
    assert len(waited) >= 2, waits
    assert pages.mark(page) == 'this page', 'the page was reloaded'

    WebDriverWait(page, pages.PAGE_WAIT).until(
        lambda d: d.find_element(By.CSS_SELECTOR, pages.TAB).get_attribute(
            'data-final') == 'true')
    assert page.find_element(
        By.CSS_SELECTOR, '.lifecycle-stack-status').text == 'CREATE_COMPLETE'
    final = pages.rows(page)
    assert final[MEMBER]['status'] == 'COMPLETE', final
    # heat-api's word for a deployment's signal that ended it.
    assert final[MEMBER]['progress'] == 'Outputs received', final
    assert final['chain/0/deployment']['status'] == 'COMPLETE', final
    # The cause section came with the last rows, in place: nothing waits.
    assert WAITING not in pages.tab_text(page), pages.tab_text(page)
    assert pages.mark(page) == 'this page', 'the page was reloaded'


def test_a_failed_chain_member_is_the_first_cause(
        browser, horizon, driver):  # noqa: F811
    stack_id = driver.create(CHAIN, {'second': 'osc/exit3.yaml'},
                             files=FILES, servers=['server'],
                             expect='FAILED')
    member_login(browser, horizon)
    page, _pane = pages.open_tab(browser, horizon, stack_id)
    found = pages.causes(page)
    assert found[0] == (MEMBER, EXIT3_CAUSE), found
    assert [path for path, _line in found] == [MEMBER, 'chain/1', 'chain']
    first = page.find_element(By.CSS_SELECTOR, 'li.lifecycle-cause')
    assert 'lifecycle-role-cause' in first.get_attribute('class')
    details = first.find_element(By.CSS_SELECTOR, '.lifecycle-details').text
    assert 'status code: 3' in details.splitlines(), details
    assert pages.rows(page)[MEMBER]['status'] == 'FAILED'


def settled(stack_driver, stack_id):
    """The stack's id once its CREATE (or a BACKUP's UPDATE) is over."""
    stack = stack_driver.hc.stacks.get(stack_id)
    stack_driver.wait(stack_id, stack.action)
    return stack_id


def run_from_the_form(page, choice, inputs):
    """Send `choice` ('RESOURCE ACTION') from the tab's button's form.

    The link is opened as a page (see the module's docstring); once
    sent, back on the stack's page with the tab open: Horizon's message.
    """
    page.get(page.find_element(By.ID, 'lifecycle-run-action').get_attribute(
        'href'))
    target = WebDriverWait(page, pages.PAGE_WAIT).until(
        lambda d: d.find_element(By.ID, 'id_target'))
    Select(target).select_by_value(choice)
    page.find_element(By.ID, 'id_inputs').send_keys(inputs)
    page.find_element(
        By.CSS_SELECTOR, '#lifecycle_run_action [type="submit"]').click()
    WebDriverWait(page, pages.PAGE_WAIT).until(
        lambda d: 'tab=stack_details__lifecycle' in d.current_url and
        d.find_elements(By.CSS_SELECTOR, pages.TAB))
    return ' '.join(e.text for e in page.find_elements(
        By.CSS_SELECTOR, '.messages .alert'))


def test_backup_from_the_form_runs_then_completes(
        browser, horizon, slow_chain, heat):  # noqa: F811
    stack_id = settled(*slow_chain)
    member_login(browser, horizon)
    page, _pane = pages.open_tab(browser, horizon, stack_id)
    assert SAME_RULE_ACTION in pages.stack_actions(page)
    assert pages.offers_run_action(page)
    said = run_from_the_form(page, 'chain.1.deployment BACKUP',
                             'label=browser')
    # Accepted: back on the stack's page, the tab open, Horizon saying so.
    assert 'requested BACKUP of chain.1.deployment (request ' in said, said
    # Running, then complete, in place. The row says BACKUP, though Heat
    # runs a custom action as an UPDATE.
    ran = []

    def backup_ended(row):
        if row['status'] == 'IN_PROGRESS':
            ran.append(row)
        return bool(ran) and row['status'] == 'COMPLETE'

    pages.set_mark(page, 'this page')
    seen = pages.watch_row(page, MEMBER, backup_ended)
    assert ran, seen
    assert {row['action'] for row in ran} == {'BACKUP'}, seen
    # Its milestone may fall between two polls: the stack's events have it.
    assert any(BACKUP_MILESTONE in (e.resource_status_reason or '')
               for e in heat.events.list(stack_id, nested_depth=3)), seen
    assert pages.mark(page) == 'this page', 'the page was reloaded'
    WebDriverWait(page, pages.PAGE_WAIT).until(
        lambda d: d.find_element(
            By.CSS_SELECTOR, '.lifecycle-stack-status').text ==
        'UPDATE_COMPLETE')
    assert heat.stacks.get(stack_id).stack_status == 'UPDATE_COMPLETE'


MODAL = '#lifecycle_run_action_modal'


def run_from_the_modal(page, choice, inputs):
    """Send `choice` from the modal the tab's button opens, as a user does.

    Horizon's modal.js loads the form by ajax and posts it by ajax; its
    answer sends the page back to the stack's tab: Horizon's message.
    """
    pages.set_mark(page, 'before the modal')
    page.find_element(By.ID, 'lifecycle-run-action').click()
    modal = WebDriverWait(page, pages.PAGE_WAIT).until(
        lambda d: [m for m in d.find_elements(By.CSS_SELECTOR, MODAL)
                   if m.is_displayed()])[0]
    # A modal on the same page, not a page of its own.
    assert pages.mark(page) == 'before the modal'
    Select(modal.find_element(By.ID, 'id_target')).select_by_value(choice)
    modal.find_element(By.ID, 'id_inputs').send_keys(inputs)
    modal.find_element(By.CSS_SELECTOR, '[type="submit"]').click()
    WebDriverWait(page, pages.PAGE_WAIT).until(
        lambda d: pages.mark(d) is None and
        'tab=stack_details__lifecycle' in d.current_url and
        d.find_elements(By.CSS_SELECTOR, pages.TAB))
    return ' '.join(e.text for e in page.find_elements(
        By.CSS_SELECTOR, '.messages .alert'))


def test_an_external_resources_request_is_its_rows_action(
        browser, horizon, driver, thing_store,  # noqa: F811
        mistral_workflows):  # noqa: F811
    """examples/day_two_external_resource.yaml's ROTATE_KEYS, in Mistral.

    Sent from the modal form. Heat runs it as an UPDATE; the row says
    ROTATE_KEYS, read from the event of its execution's start, from that
    event on and once complete. A poll between Heat's UPDATE_IN_PROGRESS
    and that event still says UPDATE (seen in CI), never after it.
    """
    stack_id = driver.create(e2e_conftest.example(
        'day_two_external_resource.yaml'), {'store': thing_store.url})
    member_login(browser, horizon)
    page, _pane = pages.open_tab(browser, horizon, stack_id)
    assert pages.rows(page)['thing']['action'] == 'CREATE'
    said = run_from_the_modal(page, 'thing ROTATE_KEYS', 'key_label=k1')
    assert 'requested ROTATE_KEYS of thing (request ' in said, said
    seen = pages.watch_row(
        page, 'thing', lambda row: row['status'] == 'UPDATE_COMPLETE')
    # (The page may come back before Heat began the resource's UPDATE.)
    actions = [(status, action) for status, action, _said in seen
               if status.startswith('UPDATE_')]
    told = [action for _status, action in actions].index('ROTATE_KEYS')
    assert ({action for _status, action in actions[told:]} ==
            {'ROTATE_KEYS'}), seen
    assert {status for status, _action in actions[:told]} <= {
        'UPDATE_IN_PROGRESS'}, seen
    assert actions[-1] == ('UPDATE_COMPLETE', 'ROTATE_KEYS'), seen
    assert driver.outputs(stack_id)['output']['key_label'] == 'k1'


def stack_state(hc, stack_id):
    """What an update would change: updated_time and every event's id."""
    return (hc.stacks.get(stack_id).updated_time,
            sorted(e.id for e in hc.events.list(stack_id, nested_depth=3)))


def test_a_reader_gets_the_button_as_heat_dashboards_and_is_refused(
        browser, horizon, slow_chain, reader, heat):  # noqa: F811
    stack_id = settled(*slow_chain)
    before = stack_state(heat, stack_id)
    browser.login(horizon.url, *reader)
    page, _pane = pages.open_tab(browser, horizon, stack_id)
    text = pages.tab_text(page)
    # This cloud's Heat policy lets a reader read the stack, not its
    # resources (tests/e2e/test_permissions.py): the tab says so.
    assert heat.stacks.get(stack_id).stack_status in text, text
    assert REFUSED in text, text
    # The button shows where heat-dashboard's action of the same rule
    # does: to a reader not on 2026.2, on 2025.1 (SAME_RULE_ACTION) it
    # does, and the form it opens offers nothing and says why.
    offered = pages.offers_run_action(page)
    assert offered == (SAME_RULE_ACTION in pages.stack_actions(page)), (
        pages.stack_actions(page))
    if offered:
        page.get(page.find_element(
            By.ID, 'lifecycle-run-action').get_attribute('href'))
        target = WebDriverWait(page, pages.PAGE_WAIT).until(
            lambda d: d.find_element(By.ID, 'id_target'))
        assert not Select(target).options
        said = ' '.join(e.text for e in page.find_elements(
            By.CSS_SELECTOR, '.messages .alert'))
        assert REFUSED in said, said

    # The form the member's button opens, posted by the reader's page
    # with its session and CSRF token.
    action_url = '%s/project/lifecycle/%s/run' % (horizon.url, stack_id)
    status, body = pages.post_as_page_user(page, action_url, {
        'csrfmiddlewaretoken': page.get_cookie('csrftoken')['value'],
        'stack_id': stack_id, 'target': 'chain.1.deployment BACKUP',
        'inputs': 'label=forged'})
    assert status == 200, (status, body[:2000])
    page.get(page.current_url)
    said = ' '.join(e.text for e in page.find_elements(
        By.CSS_SELECTOR, '.messages .alert'))
    # The form offers the reader nothing to choose: Heat refused it the
    # resources; nothing was sent to Heat.
    assert REFUSED in said + body.replace('&#x27;', "'"), said
    assert stack_state(heat, stack_id) == before
    assert heat.stacks.get(stack_id).stack_status != 'UPDATE_IN_PROGRESS'


def test_a_stack_without_deployments_says_so(
        browser, horizon, empty_stack):
    member_login(browser, horizon)
    page, _pane = pages.open_tab(browser, horizon, empty_stack)
    text = pages.tab_text(page)
    assert NO_DEPLOYMENTS in text, text
    assert not page.find_elements(By.CSS_SELECTOR,
                                  '.lifecycle-tab .alert-danger'), text
    assert page.find_element(
        By.CSS_SELECTOR, pages.TAB).get_attribute('data-final') == 'true'
