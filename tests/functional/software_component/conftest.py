"""Fixtures of the SoftwareComponent / SoftwareDeployment tests.

Heat checks at validate and create time that the 'orchestration' service is
in the Keystone catalog of the request. heat-api run without Keystone gets
that catalog from `[noauth] token_response`; here the request context
carries the same kind of Keystone v3 token body (the catalog is the only
part of Keystone these tests need; Heat's FakeKeystoneClient does the rest).
"""

import pytest


@pytest.fixture
def engine(engine):
    """The session's engine, driven with a context that has a catalog."""
    from heat_lifecycle_plugins.fixtures import inprocess_engine
    plain = engine.ctx
    engine.ctx = inprocess_engine.context_with_heat_catalog(plain)
    try:
        yield engine
    finally:
        engine.ctx = plain


@pytest.fixture(autouse=True)
def no_scheduler_sleep():
    """Turn off TaskRunner's 1 s sleep between polls; restored after.

    Heat's own tests turn it off too (ENABLE_SLEEP), which MariaDB handles.
    """
    from heat.engine import scheduler
    saved = scheduler.ENABLE_SLEEP
    scheduler.ENABLE_SLEEP = False
    try:
        yield
    finally:
        scheduler.ENABLE_SLEEP = saved
