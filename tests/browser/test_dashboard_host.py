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
"""The dashboard host as the fixture serves it, without a browser."""

import urllib.error
import urllib.request

import pytest


def test_static_files_stay_in_static_root(horizon):
    """A collected file is served, a path out of STATIC_ROOT is not.

    local_settings.py, beside STATIC_ROOT, holds the SECRET_KEY.
    """
    with urllib.request.urlopen(
            horizon.url + '/static/dashboard/img/favicon.ico') as found:
        assert found.status == 200
    for path in ('/static/../local/local_settings.py',
                 '/static/%2e%2e/local/local_settings.py'):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(horizon.url + path).read()
        assert refused.value.code == 404, path
