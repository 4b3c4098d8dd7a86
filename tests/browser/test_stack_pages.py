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
"""heat-dashboard's stack detail page in chromium: a member's, a reader's,
and our Lifecycle tab among its tabs once the wheel ships it.

The stack is created through python-heatclient as the demo user, as the
e2e tier's are; the browser only reads it.
"""

import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from heat_lifecycle_fixtures import keystone
from heat_lifecycle_fixtures import stacks

SMALL_STACK = {
    'heat_template_version': '2016-10-14',
    'resources': {
        'word': {'type': 'OS::Heat::RandomString',
                 'properties': {'length': 12}},
        'nothing': {'type': 'OS::Heat::None'},
    },
}
# heat-dashboard's StackDetailTabs (content/stacks/tabs.py): name -> slug.
STACK_TABS = {'Topology': 'topology', 'Overview': 'overview',
              'Resources': 'resources', 'Events': 'events',
              'Template': 'stack_template'}
LIFECYCLE_TAB = 'Lifecycle'
PAGE_WAIT = 60


@pytest.fixture(scope='module')
def small_stack(cloud, tmp_path_factory):
    """(id, name) of a stack of two resources, none of them ours."""
    with stacks.StackDriver(cloud.heat_client(),
                            str(tmp_path_factory.mktemp('stacks')),
                            prefix='browser') as driver:
        stack_id = driver.create(SMALL_STACK, name='browser-small')
        yield stack_id, 'browser-small'


def open_stack_page(browser, horizon, stack_id):
    """The stack's detail page; fails on an error page."""
    driver = browser.driver
    driver.get('%s/project/stacks/stack/%s/' % (horizon.url, stack_id))
    # The titles of Horizon's templates/500.html, 403.html and 404.html.
    for error in ('Server error', 'Forbidden', 'Page Not Found'):
        assert error not in driver.title, driver.title
    try:
        WebDriverWait(driver, PAGE_WAIT).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, 'ul.nav-tabs a'))
    except TimeoutException:
        raise AssertionError('no tabs on %s (page title %r)' % (
            driver.current_url, driver.title))
    assert driver.execute_script(
        'return typeof horizon === "object" && typeof jQuery === "function"'
    ), "Horizon's JavaScript did not load: its static files are missing"
    return driver


def tab_links(driver):
    """{visible name: link} of the page's tab group."""
    return {link.text.strip(): link for link in driver.find_elements(
        By.CSS_SELECTOR, 'ul.nav-tabs a[data-toggle="tab"]')}


def show_tab(driver, link):
    """Click a tab; its pane, once shown and loaded (some load by AJAX)."""
    link.click()
    pane = driver.find_element(By.CSS_SELECTOR,
                               link.get_attribute('data-target'))
    WebDriverWait(driver, PAGE_WAIT).until(
        lambda d: pane.is_displayed() and 'Loading' not in pane.text)
    return pane


def test_member_sees_the_stack_tabs(browser, horizon, small_stack):
    stack_id, name = small_stack
    browser.login(horizon.url, 'demo', keystone.DEMO_PASSWORD)
    driver = open_stack_page(browser, horizon, stack_id)
    links = tab_links(driver)
    assert set(STACK_TABS) <= set(links), sorted(links)
    for label, slug in STACK_TABS.items():
        assert links[label].get_attribute('data-target') == (
            '#stack_details__%s' % slug)
    overview = show_tab(driver, links['Overview'])
    assert name in overview.text and stack_id in overview.text
    assert 'Create_Complete' in overview.text, overview.text
    resources = show_tab(driver, links['Resources'])
    for resource in SMALL_STACK['resources']:
        assert resource in resources.text, resources.text
    template = show_tab(driver, links['Template'])
    assert 'OS::Heat::RandomString' in template.text
    show_tab(driver, links['Topology'])


def test_reader_opens_the_stack_page(browser, horizon, small_stack, reader):
    stack_id, name = small_stack
    browser.login(horizon.url, *reader)
    driver = open_stack_page(browser, horizon, stack_id)
    overview = show_tab(driver, tab_links(driver)['Overview'])
    assert name in overview.text and stack_id in overview.text


def lifecycle_enabled_files(horizon):
    return [name for package, name in horizon.enabled_files
            if package.startswith('heat_lifecycle_dashboard')]


def test_lifecycle_tab_present(request, horizon, small_stack):
    if not lifecycle_enabled_files(horizon):
        pytest.skip('the installed wheel has no '
                    'heat_lifecycle_dashboard/enabled/_*.py: no Lifecycle '
                    'tab to look for (horizon-venv.sh installs the wheel '
                    'with its [dashboard] extra)')
    browser = request.getfixturevalue('browser')
    stack_id, _name = small_stack
    browser.login(horizon.url, 'demo', keystone.DEMO_PASSWORD)
    driver = open_stack_page(browser, horizon, stack_id)
    links = tab_links(driver)
    assert LIFECYCLE_TAB in links, sorted(links)
    pane = show_tab(driver, links[LIFECYCLE_TAB])
    assert pane.text.strip(), 'the Lifecycle tab is empty'
    assert stack_id in driver.current_url
