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
"""The constraints on action names and ExternalResource's open actions map.

valid_workflow_actions checks what the in-tree keyed schema of `actions`
checked (each value {workflow (required string), params (a map)}, nothing
else), plus the action naming rule for its keys.
"""

import pytest

from heat_lifecycle_plugins.resources import action_constraints as ac


def problem(actions):
    try:
        ac.valid_workflow_actions().validate(actions)
    except ValueError as exc:
        return str(exc)
    return None


def test_lifecycle_check_and_custom_actions_are_accepted():
    assert problem({'CREATE': {'workflow': 'c', 'params': {'env': {}}},
                    'CHECK': {'workflow': 'k'},
                    'ROTATE_KEYS': {'workflow': 'r'}}) is None
    assert problem(None) is None


def test_an_unresolved_workflow_is_left_for_later():
    assert problem({'CREATE': {'workflow': None}}) is None


@pytest.mark.parametrize('actions, said', [
    ({'CRAETE': {'workflow': 'c'}},
     "actions: 'CRAETE' is not an action; did you mean 'CREATE'?"),
    ({'rotate': {'workflow': 'c'}},
     "actions: 'rotate' is not an action: a custom action is an upper-case "
     "identifier ([A-Z][A-Z0-9_]*); did you mean 'ROTATE'?"),
    ({'BACKUP': 'wf'},
     "actions.BACKUP must be a map with workflow and params, not 'wf'"),
    ({'BACKUP': {}},
     'actions.BACKUP.workflow is required: the name or id of a Mistral '
     'workflow'),
    ({'BACKUP': {'workflow': 5}},
     'actions.BACKUP.workflow must be the name or id of a Mistral '
     'workflow, not 5'),
    ({'BACKUP': {'workflow': 'b', 'params': 'x'}},
     "actions.BACKUP.params must be a map, not 'x'"),
    ({'BACKUP': {'workflow': 'b', 'wf': 'x'}},
     'actions.BACKUP: unknown key wf (allowed: workflow, params)'),
])
def test_bad_actions_are_refused_naming_key_and_value(actions, said):
    assert problem(actions) == said


def test_action_name_constraint():
    with pytest.raises(ValueError) as error:
        ac.valid_action_name().validate('UPDTE')
    assert str(error.value) == "'UPDTE' is not an action; did you mean " \
        "'UPDATE'?"
    ac.valid_action_name().validate('BACKUP')
