import uuid

import pytest

from tests.functional.resource_chain import chain_members


@pytest.fixture(scope='session')
def chain_engine(engine):
    """The session engine with the test-only member types registered."""
    chain_members.register()
    return engine


@pytest.fixture
def group():
    """A journal group of its own for each test."""
    return 'g-%s' % uuid.uuid4().hex[:8]
