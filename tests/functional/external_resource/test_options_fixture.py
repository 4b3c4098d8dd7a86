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
"""The tier's own ground: an option set for one test is given back."""

from oslo_config import cfg

from heat_lifecycle_plugins import config
from tests.functional.external_resource.conftest import overridden_options


def test_options_set_for_a_test_get_the_engine_s_values_back(engine):
    # The engine turned mistral_notify off; a test turning it on must not
    # leave it at the default (on) for the tests after it.
    section = cfg.CONF[config.GROUP.name]
    assert section.mistral_notify is False
    url = cfg.CONF.heat_waitcondition_server_url
    with overridden_options() as set_options:
        set_options(mistral_notify=True, mistral_notified_poll_interval=7)
        set_options(group=None, heat_waitcondition_server_url='http://x/')
        assert section.mistral_notify is True
    assert section.mistral_notify is False
    assert section.mistral_notified_poll_interval == 30
    assert cfg.CONF.heat_waitcondition_server_url == url
