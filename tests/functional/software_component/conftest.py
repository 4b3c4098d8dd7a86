"""Fixtures of the SoftwareComponent / SoftwareDeployment tests.

Heat checks at validate and create time that the 'orchestration' service is
in the Keystone catalog of the request. heat-api run without Keystone gets
that catalog from `[noauth] token_response`; here the request context
carries the same kind of Keystone v3 token body (the catalog is the only
part of Keystone these tests need; Heat's FakeKeystoneClient does the rest).
"""

import pytest

from heat_lifecycle_plugins.fixtures import tokens


def token_body(ctx):
    return tokens.token_body(
        ctx.user_id, ctx.project_id, [
            tokens.catalog_entry('orchestration', 'heat',
                                 'http://127.0.0.1:8004/v1/test_tenant_id'),
            tokens.catalog_entry('cloudformation', 'heat-cfn',
                                 'http://127.0.0.1:8000/v1')],
        user_name=ctx.username, project_name=ctx.project_name)


@pytest.fixture
def engine(engine):
    """The session's engine, driven with a context that has a catalog."""
    from heat.common import context as heat_context  # after the harness
    plain = engine.ctx
    values = plain.to_dict()
    values['auth_token_info'] = token_body(plain)
    engine.ctx = heat_context.RequestContext.from_dict(values)
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
