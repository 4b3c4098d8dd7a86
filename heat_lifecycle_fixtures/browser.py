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
"""Debian's chromium, headless, driven by Selenium through Debian's
chromedriver.

chromedriver runs as one of our processes (process.Process: a free port,
stopped by its own PID with the chromium it started) and Selenium talks to
it as a remote WebDriver. So Selenium never looks for a driver or a
browser itself: Selenium Manager (selenium 4), which would download them,
is never run, and SE_MANAGER_PATH points at no file, so that any call to
it would fail instead. selenium 3.141.0 (2025.1's pin) has no Selenium
Manager; both speak W3C WebDriver to chromedriver.
"""

import os
import shutil
import tempfile

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from heat_lifecycle_fixtures import process
from heat_lifecycle_fixtures import service

CHROMIUM = '/usr/bin/chromium'
CHROMEDRIVER = '/usr/bin/chromedriver'
NO_SELENIUM_MANAGER = '/nonexistent/selenium-manager'
WINDOW = (1400, 1000)
IMPLICIT_WAIT = 5  # seconds a find_element waits for its element
PAGE_LOAD_TIMEOUT = 120
# Headless, as root in a container (no sandbox), private profile, and none
# of chromium's own calls home.
ARGUMENTS = ('--headless=new', '--no-sandbox', '--disable-dev-shm-usage',
             '--disable-gpu', '--no-first-run', '--disable-sync',
             '--disable-background-networking', '--disable-component-update',
             '--disable-default-apps', '--disable-domain-reliability',
             '--no-pings', '--window-size=%d,%d' % WINDOW)


def available():
    """Whether Debian's chromium and chromium-driver are installed."""
    return all(os.access(path, os.X_OK) for path in (CHROMIUM, CHROMEDRIVER))


class Browser(service.Service):
    """One chromium session; `driver` is its Selenium WebDriver."""

    def _start(self):
        os.environ['SE_MANAGER_PATH'] = NO_SELENIUM_MANAGER
        port = process.free_port()
        # chromium writes its crash database and GTK its dconf cache under
        # the home directory (this one, removed with the work directory),
        # its scoped_dir.* with a socket in the temp dir: one of its own,
        # short (a socket's path is at most 107 bytes: chromium does not
        # start from a temp dir deep in pytest's), removed after the rest.
        home = self.path('home')
        os.makedirs(home, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix='hlp-chromium-')
        self.addCleanup(shutil.rmtree, tmp, ignore_errors=True)
        env = dict(os.environ, HOME=home, TMPDIR=tmp,
                   XDG_CONFIG_HOME=os.path.join(home, '.config'),
                   XDG_CACHE_HOME=os.path.join(home, '.cache'))
        self.spawn('chromedriver', [
            CHROMEDRIVER, '--port=%d' % port, '--allowed-ips=127.0.0.1'],
            env=env, support_path=False).wait_for_port(port, 60)
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ARGUMENTS + (
                '--user-data-dir=%s' % self.path('profile'),):
            options.add_argument(argument)
        self.driver = webdriver.Remote(
            command_executor='http://127.0.0.1:%d' % port, options=options)
        self.addCleanup(self.driver.quit)  # before chromedriver stops
        self.driver.implicitly_wait(IMPLICIT_WAIT)
        self.driver.set_page_load_timeout(PAGE_LOAD_TIMEOUT)

    def login(self, horizon_url, username, password, timeout=60):
        """Log in through Horizon's login form; fails if Horizon refuses."""
        driver = self.driver
        driver.get(horizon_url + '/auth/login/')
        driver.find_element(By.ID, 'id_username').send_keys(username)
        driver.find_element(By.ID, 'id_password').send_keys(password)
        driver.find_element(By.ID, 'loginBtn').click()
        WebDriverWait(driver, timeout).until(
            lambda d: '/auth/login/' not in d.current_url
            or d.find_elements(By.CSS_SELECTOR, '.alert-danger'))
        if '/auth/login/' in driver.current_url:
            raise AssertionError('Horizon refused %s: %s' % (
                username, ' '.join(e.text for e in driver.find_elements(
                    By.CSS_SELECTOR, '.alert-danger'))))

    def screenshot(self, path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if not self.driver.save_screenshot(path):
            raise AssertionError('no screenshot written to %s' % path)
        return path
