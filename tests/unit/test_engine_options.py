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
"""The opt-in engine remedy: forget_finished_threads.

Off by default; when set, the loader applies it as heat-engine loads our
types, logs it, and heat-engine's per-stack ThreadGroup no longer runs out
(Heat 25.0 on; 24.x has nothing to remedy).
"""

import logging
import threading

import pytest

from heat_lifecycle_plugins import config
from heat_lifecycle_plugins import engine_options
from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import plugin_dir_loader
from heat_lifecycle_plugins import releases

THREADS = heat_internals.heat_version() >= releases.THREADS_SINCE


@pytest.fixture
def thread_group(monkeypatch):
    """Heat's ThreadGroup class, its add_thread restored after the test.

    None on Heat 24.x, whose engine uses oslo.service's eventlet groups.
    """
    from heat.engine import service
    group = getattr(service, 'ThreadGroup', None)
    if group is not None:
        monkeypatch.setattr(group, 'add_thread', group.add_thread)
    return group


@pytest.fixture
def option_set():
    config.CONF.set_override('forget_finished_threads', True,
                             group=config.GROUP.name)
    yield
    config.CONF.clear_override('forget_finished_threads',
                               group=config.GROUP.name)


def start_finished_threads(group, count):
    """Start `count` threads in `group`, each over before the next."""
    for _ in range(count):
        done = threading.Event()
        group.add_thread(done.set)
        done.wait(10)


def test_off_by_default_the_engine_is_left_alone(thread_group):
    assert config.CONF[config.GROUP.name].forget_finished_threads is False
    assert engine_options.apply() == []
    assert not getattr(getattr(thread_group, 'add_thread', None),
                       'forgets_finished', False)


@pytest.mark.skipif(not THREADS, reason='Heat 24.x: eventlet pools')
def test_without_it_a_stack_group_refuses_its_1001st_thread(thread_group):
    group = thread_group()
    start_finished_threads(group, 1000)
    with pytest.raises(RuntimeError, match='Maximum number of threads'):
        group.add_thread(lambda: None)


@pytest.mark.skipif(not THREADS, reason='Heat 24.x: eventlet pools')
def test_set_it_is_applied_by_the_loader_logged_and_effective(
        thread_group, option_set, caplog):
    with caplog.at_level(logging.INFO):
        plugin_dir_loader.resource_mapping()
    assert getattr(thread_group.add_thread, 'forgets_finished', False)
    [line] = [r.getMessage() for r in caplog.records
              if 'forget_finished_threads' in r.getMessage()]
    assert line == (
        'heat-lifecycle-plugins: [heat_lifecycle_plugins] '
        'forget_finished_threads is set: heat-engine drops the finished '
        'threads of every stack\'s thread group before starting another '
        '(the 1000-thread budget per stack no longer runs out)')
    group = thread_group()
    start_finished_threads(group, 1500)
    assert len(group.threads) <= 2


@pytest.mark.skipif(THREADS, reason='Heat 25.0 on: native threads')
def test_set_on_an_eventlet_engine_it_says_it_does_nothing(
        thread_group, option_set, caplog):
    with caplog.at_level(logging.INFO):
        assert engine_options.apply() == []
    assert 'has no effect on this Heat' in caplog.text
    assert thread_group is None
