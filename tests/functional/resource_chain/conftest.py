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
