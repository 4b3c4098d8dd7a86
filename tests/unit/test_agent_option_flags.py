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
"""option_flags: the flags a launcher gives the agent, as it parses them."""

import pytest

from heat_lifecycle_plugins.agent import main


def settings_of(flags):
    args = main._parser().parse_args(['--metadata-file', '/m'] + flags)
    return main.settings_from(args, {})[1]


def test_flags_in_the_parsers_order_none_left_out():
    flags = main.option_flags({'signal_retries': 1, 'hook_timeout': 150,
                               'heartbeat_interval': None})
    assert flags == ['--hook-timeout', '150', '--signal-retries', '1']


def test_the_agent_reads_what_the_flags_say():
    settings = settings_of(main.option_flags({
        'hook_timeout': 150, 'heartbeat_interval': 0,
        'milestone_interval': 1, 'signal_retries': 8,
        'signal_backoff': 0.5, 'signal_timeout': 100}))
    assert settings.hook_timeout == 150
    assert settings.signal_timeout == 100
    assert settings.heartbeat_interval == 0
    assert settings.milestone_interval == 1
    assert (settings.retry.retries, settings.retry.backoff) == (8, 0.5)


def test_an_option_without_a_flag_is_refused():
    with pytest.raises(ValueError, match='hooks_dirs'):
        main.option_flags({'hooks_dirs': ['/x']})


def _values(settings):
    return {'retries': settings.retry.retries,
            'backoff': settings.retry.backoff,
            **{k: v for k, v in vars(settings).items() if k != 'retry'}}


def test_every_flag_option_reaches_the_settings():
    # A flag the settings ignore would leave the config file's value.
    defaults = _values(settings_of([]))
    for name in main.FLAG_OPTIONS:
        changed = _values(settings_of(main.option_flags({name: 7})))
        assert changed != defaults, name
