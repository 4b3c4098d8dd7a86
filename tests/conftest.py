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


@pytest.fixture(scope='session')
def mariadb(tmp_path_factory):
    """A private MariaDB server for the session, stopped by its PID."""
    from tests.services.mariadb import MariaDB
    if not MariaDB.available():
        pytest.fail('mariadbd is not installed: run tools/run-tests.sh, '
                    'which installs it')
    server = MariaDB(str(tmp_path_factory.mktemp('mariadb'))).start()
    yield server
    server.stop()


@pytest.fixture(scope='session')
def engine(tmp_path_factory, mariadb):
    """The session's in-process Heat engine (see tests/inprocess_engine.py)."""
    if PROBE_DIST not in sys.path:
        sys.path.insert(0, PROBE_DIST)
    from tests import inprocess_engine
    eng = inprocess_engine.InProcessEngine(
        str(tmp_path_factory.mktemp('heat-engine')),
        mariadb.create_database()).start()
    yield eng
    eng.stop()
