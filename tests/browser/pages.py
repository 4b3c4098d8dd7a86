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
"""The Lifecycle tab as the browser tier reads it: open it, read its rows
and causes, wait for them to change, post to it as the page's user."""

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser import test_stack_pages as stack_pages

LIFECYCLE_TAB = stack_pages.LIFECYCLE_TAB
PAGE_WAIT = stack_pages.PAGE_WAIT
TAB = '.lifecycle-tab'
# A mark set on the page's window: a reload or a navigation drops it.
SET_MARK = 'window.lifecycleTestMark = arguments[0];'
READ_MARK = 'return window.lifecycleTestMark || null;'
# Each row's cells: path, status, action, last milestone, elapsed, deadline.
READ_ROWS = '''
return Array.from(document.querySelectorAll(
    '.lifecycle-tab tr.lifecycle-row')).map(function (tr) {
  return Array.from(tr.cells).map(function (td) {
    return td.innerText.trim();
  });
});
'''
# Each cause: its path and its line (read at once: a refresh replaces them).
READ_CAUSES = '''
return Array.from(document.querySelectorAll(
    '.lifecycle-tab li.lifecycle-cause')).map(function (li) {
  return [li.querySelector('.lifecycle-path').innerText.trim(),
          li.querySelector('.lifecycle-cause-line').innerText.trim()];
});
'''
# heat-dashboard's actions on the stack's page, as Horizon names a row
# action: stacks__row_<stack id>__action_<name>.
READ_STACK_ACTIONS = '''
return Array.from(document.querySelectorAll('[id^="stacks__row_"]'))
  .map(function (e) { return e.id.split('__action_')[1]; })
  .filter(function (name) { return name; });
'''
# A POST of the page's user, with the page's cookies: [status, body].
POST_FORM = '''
var url = arguments[0], fields = arguments[1];
var done = arguments[arguments.length - 1];
fetch(url, {method: 'POST', credentials: 'same-origin',
             body: new URLSearchParams(fields)})
  .then(function (r) {
    return r.text().then(function (t) { done([r.status, t]); });
  })
  .catch(function (e) { done(['error', String(e)]); });
'''
COLUMNS = ('path', 'status', 'action', 'progress', 'elapsed', 'deadline')


def open_tab(browser, horizon, stack_id):
    """The stack page with its Lifecycle tab shown: (driver, pane)."""
    driver = stack_pages.open_stack_page(browser, horizon, stack_id)
    links = stack_pages.tab_links(driver)
    assert LIFECYCLE_TAB in links, sorted(links)
    pane = stack_pages.show_tab(driver, links[LIFECYCLE_TAB])
    WebDriverWait(driver, PAGE_WAIT).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, TAB))
    return driver, pane


def rows(driver):
    """{path: {column: text}} of the tab's deployment rows."""
    found = {}
    for cells in driver.execute_script(READ_ROWS):
        row = dict(zip(COLUMNS, cells))
        found[row['path']] = row
    return found


def tab_text(driver):
    return driver.find_element(By.CSS_SELECTOR, TAB).text


def causes(driver):
    """[(path, cause line)] of the tab's cause rows, in the order shown."""
    return [tuple(found) for found in driver.execute_script(READ_CAUSES)]


def stack_actions(driver):
    """The names of heat-dashboard's actions the stack's page offers."""
    return set(driver.execute_script(READ_STACK_ACTIONS))


def offers_run_action(driver):
    return bool(driver.find_elements(By.ID, 'lifecycle-run-action'))


def watch_row(driver, path, until, timeout=240, interval=0.5):
    """Read row `path` until `until(row)`; every distinct row seen."""
    seen = []
    deadline = time.monotonic() + timeout
    while True:
        row = rows(driver).get(path)
        if row is not None:
            shown = (row['status'], row['action'], row['progress'])
            if not seen or seen[-1] != shown:
                seen.append(shown)
            if until(row):
                return seen
        if time.monotonic() > deadline:
            raise AssertionError('row %s never got there; seen: %r' % (
                path, seen))
        time.sleep(interval)


def set_mark(driver, mark):
    driver.execute_script(SET_MARK, mark)


def mark(driver):
    return driver.execute_script(READ_MARK)


def post_as_page_user(driver, url, fields, timeout=120):
    """POST `fields` to `url` with the page's session: (status, body)."""
    driver.set_script_timeout(timeout)
    status, body = driver.execute_async_script(POST_FORM, url, fields)
    return status, body
