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
"""Django settings of the dashboard tests: heat-dashboard's test settings
(Horizon's, with heat-dashboard enabled) plus our enabled file, as an
operator's openstack_dashboard/local/enabled/ holds it."""

import tempfile

import openstack_dashboard.enabled
from openstack_dashboard.test.settings import *  # noqa: F401,F403
from openstack_dashboard.utils import settings

import heat_dashboard.enabled
import heat_lifecycle_dashboard.enabled

HORIZON_CONFIG.pop('dashboards', None)  # noqa: F405
HORIZON_CONFIG.pop('default_dashboard', None)  # noqa: F405

settings.update_dashboards(
    [openstack_dashboard.enabled, heat_dashboard.enabled,
     heat_lifecycle_dashboard.enabled],
    HORIZON_CONFIG,  # noqa: F405
    INSTALLED_APPS)  # noqa: F405

INSTALLED_APPS = list(dict.fromkeys(INSTALLED_APPS))  # noqa: F405

# Horizon's test settings compress into /tmp itself: into the temp dir
# instead, which tools/dashboard-tests.sh makes and removes.
COMPRESS_ROOT = tempfile.gettempdir()

# Django's test runner would create the test database; pytest alone runs
# the tests: an in-memory one (Horizon keeps sessions in cookies).
DATABASES = {'default': {'ENGINE': 'django.db.backends.sqlite3',
                         'NAME': ':memory:'}}
