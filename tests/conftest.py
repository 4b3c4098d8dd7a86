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
import os
import sys

import pytest

from heat_lifecycle_plugins import heat_internals

# Run Heat on the concurrency model its heat-engine uses (eventlet up to
# 24.x, oslo.service's threading backend from 25.0), selected before any
# test module imports Heat so that collection order cannot change it.
heat_internals.select_engine_runtime()

HERE = os.path.dirname(os.path.abspath(__file__))
PROBE_DIST = os.path.join(HERE, 'fixture_dists', 'probe')
BROKEN_DIST = os.path.join(HERE, 'fixture_dists', 'broken')


def pytest_collection_modifyitems(items):
    """Mark the tests that need a MariaDB server.

    They use the `mariadb` fixture, directly or through the engine;
    `-m "not mariadb"` runs the others without root or Debian packages
    (tox -e agent).
    """
    for item in items:
        if 'mariadb' in item.fixturenames:
            item.add_marker(pytest.mark.mariadb)


@pytest.fixture(scope='session')
def mariadb(tmp_path_factory):
    """A private MariaDB server for the session, stopped by its PID."""
    from heat_lifecycle_fixtures.mariadb import MariaDB
    if not MariaDB.available():
        pytest.fail('mariadbd is not installed: run tools/run-tests.sh '
                    '(as root), which installs it')
    with MariaDB(str(tmp_path_factory.mktemp('mariadb'))) as server:
        yield server


@pytest.fixture(scope='session')
def engine(tmp_path_factory, mariadb):
    """The session's in-process Heat engine (fixtures.inprocess_engine)."""
    if PROBE_DIST not in sys.path:
        sys.path.insert(0, PROBE_DIST)
    from heat_lifecycle_fixtures import inprocess_engine
    with inprocess_engine.InProcessEngine(
            str(tmp_path_factory.mktemp('heat-engine')),
            mariadb.create_database()) as eng:
        yield eng


@pytest.fixture(scope='session')
def thing_store(tmp_path_factory):
    """The JSON service the ExternalResource test workflows manage."""
    from heat_lifecycle_fixtures.thing_store import ThingStore
    with ThingStore(str(tmp_path_factory.mktemp('thing-store'))) as store:
        yield store
