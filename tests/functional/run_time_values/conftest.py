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
"""The session's engine with Mistral in its catalog, as the fuzz tier's."""

import pytest


@pytest.fixture(scope='session')
def mistral(tmp_path_factory):
    """A real Mistral with the functional tier's workflows."""
    from heat_lifecycle_fixtures.mistral import Mistral
    from tests.functional.external_resource import conftest as external
    with Mistral(str(tmp_path_factory.mktemp('mistral'))) as server:
        external.register_workflows(server)
        yield server


@pytest.fixture
def checked_engine(engine, mistral):
    """checks_templates.ENGINE: the engine, its catalog listing Mistral."""
    from tests.fuzz import checks_templates
    with checks_templates.checking_with(engine, mistral) as checked:
        yield checked
