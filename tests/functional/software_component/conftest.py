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
    from heat_lifecycle_fixtures import inprocess_engine
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
