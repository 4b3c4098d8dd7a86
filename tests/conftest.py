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
import sysconfig

import pytest

from heat_lifecycle_plugins import heat_internals

# Run Heat on the concurrency model its heat-engine uses (eventlet up to
# 24.x, oslo.service's threading backend from 25.0), selected before any
# test module imports Heat so that collection order cannot change it.
heat_internals.select_engine_runtime()

HERE = os.path.dirname(os.path.abspath(__file__))
PROBE_DIST = os.path.join(HERE, 'fixture_dists', 'probe')
BROKEN_DIST = os.path.join(HERE, 'fixture_dists', 'broken')
# The tiers that test the installed wheel (tools/matrix.py); tests/unit
# and tests/agent import the checkout.
WHEEL_TIERS = ('functional', 'e2e', 'fault', 'bench', 'dist', 'fuzz',
               'browser')


def package_from_the_tree():
    """Where heat_lifecycle_plugins was imported from, if not the venv's."""
    import heat_lifecycle_plugins
    where = os.path.realpath(heat_lifecycle_plugins.__file__)
    sites = {os.path.realpath(sysconfig.get_paths()[key])
             for key in ('purelib', 'platlib')}
    return None if any(where.startswith(site + os.sep)
                       for site in sites) else where


def pytest_collection_finish(session):
    """An installed-wheel tier never runs on the tree's package."""
    tiers = {os.path.relpath(str(item.path), HERE).split(os.sep)[0]
             for item in session.items}
    where = package_from_the_tree() if tiers & set(WHEEL_TIERS) else None
    if where:
        pytest.exit('tests/%s must test the installed wheel, but '
                    'heat_lifecycle_plugins was imported from %s: run them '
                    'with tools/run-tests.sh --heat SERIES or python -m '
                    'tools.tier_pytest' % (
                        ', tests/'.join(sorted(tiers & set(WHEEL_TIERS))),
                        where), returncode=pytest.ExitCode.USAGE_ERROR)


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
