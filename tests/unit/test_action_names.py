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
"""The naming rule of actions: lifecycle, custom, or a near miss refused."""

import pytest

from heat_lifecycle_plugins import action_names


@pytest.mark.parametrize('name', ['CREATE', 'DELETE', 'SUSPEND', 'RESUME',
                                  'UPDATE'])
def test_lifecycle_actions_are_actions_not_custom(name):
    assert action_names.problem(name) is None
    assert not action_names.is_custom(name)


@pytest.mark.parametrize('name', ['BACKUP', 'ROTATE_CERTS', 'DRAIN',
                                  'CREATE_USER', 'UPDATE_DB', 'RESET',
                                  'B2', 'X' * action_names.MAX_LENGTH])
def test_upper_case_identifiers_far_from_lifecycle_are_custom(name):
    assert action_names.problem(name) is None
    assert action_names.is_custom(name)


@pytest.mark.parametrize('name, hint', [
    ('CRAETE', 'CREATE'), ('UPDTE', 'UPDATE'), ('DELTE', 'DELETE'),
    ('DELETED', 'DELETE'), ('create', 'CREATE'), ('Resume', 'RESUME'),
    ('SUSPNED', 'SUSPEND'),
])
def test_near_misses_of_lifecycle_actions_get_did_you_mean(name, hint):
    assert action_names.problem(name) == (
        '%r is not an action; did you mean %r?' % (name, hint))
    assert not action_names.is_custom(name)


def test_lower_case_custom_name_is_refused_with_its_upper_case_form():
    assert action_names.problem('backup') == (
        "'backup' is not an action: a custom action is an upper-case "
        "identifier ([A-Z][A-Z0-9_]*); did you mean 'BACKUP'?")


@pytest.mark.parametrize('name', ['take backup', '_BACKUP', '1UP', '', 5,
                                  None, 'BACK-UP'])
def test_anything_else_is_refused_stating_the_rule(name):
    assert action_names.problem(name) == (
        '%r is not an action: a custom action is an upper-case identifier '
        '([A-Z][A-Z0-9_]*)' % (name,))


def test_a_name_too_long_is_refused():
    name = 'B' * (action_names.MAX_LENGTH + 1)
    assert 'longer than 64 characters' in action_names.problem(name)
