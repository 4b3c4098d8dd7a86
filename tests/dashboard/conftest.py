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
"""Django is set up once, before the tests are collected.

Run with tools/dashboard-tests.sh (Horizon's venv, --confcutdir so the
project's tests/conftest.py, which needs Heat, is not loaded).
"""

import os

import django
from django.test import utils

os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'tests.dashboard.settings')
django.setup()
# What Django's test runner sets up (ALLOWED_HOSTS, the test mail box).
utils.setup_test_environment()


def pytest_configure(config):
    # Marks Horizon's test helpers put on its classes.
    for mark in ('selenium', 'plugin_test'):
        config.addinivalue_line('markers', '%s: Horizon\'s mark' % mark)
