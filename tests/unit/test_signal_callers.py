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
"""Who may signal a deployment (the decision alone, no engine)."""

import pytest

from heat_lifecycle_plugins.resources import signal_callers as sc

OWN_USER = 'stack-user-of-the-deployment'


def caller(roles, user_id='someone', is_admin=False):
    return sc.Caller(user_id, tuple(roles), is_admin)


@pytest.mark.parametrize('roles', [
    ['member'], ['reader', 'member'], ['admin'], ['Member'],
    ['heat_stack_owner', 'member', 'reader'], ['manager', 'member']])
def test_a_member_or_an_admin_may_signal(roles):
    assert sc.refusal(caller(roles), OWN_USER) is None


def test_an_admin_context_may_signal_whatever_its_roles():
    assert sc.refusal(caller([], is_admin=True), OWN_USER) is None


def test_the_deployments_own_stack_user_may_signal():
    # HEAT_SIGNAL's password and CFN_SIGNAL's signed URL both authenticate
    # as the deployment's stack user, in the stack's user project.
    assert sc.refusal(caller(['heat_stack_user'], OWN_USER), OWN_USER) is None


def test_a_reader_is_refused_naming_its_roles():
    assert sc.refusal(caller(['reader']), OWN_USER) == (
        "the caller has neither a member role on the project (its roles: "
        "reader) nor the deployment's own credentials; a reader may read a "
        "deployment, not change it")


def test_another_stack_user_is_refused():
    why = sc.refusal(caller(['heat_stack_user'], 'another-stack-user'),
                     OWN_USER)
    assert '(its roles: heat_stack_user)' in why


@pytest.mark.parametrize('own', [None, ''])
def test_no_stack_user_matches_nobody(own):
    # A deployment without a stack user (not created yet, NO_SIGNAL):
    # a caller without an id is not its own credentials.
    assert sc.refusal(caller(['reader'], user_id=None), own) is not None
    assert sc.refusal(caller(['reader'], user_id=''), own) is not None


def test_a_caller_without_roles_is_refused():
    assert '(its roles: none)' in sc.refusal(caller([]), OWN_USER)


def test_an_unknown_caller_is_refused():
    assert sc.refusal(None, OWN_USER) == 'the engine cannot tell who sent it'


def test_caller_of_a_context():
    class Context(object):
        user_id, roles, is_admin = 'u-1', ['reader'], False
    assert sc.caller_of(Context()) == sc.Caller('u-1', ('reader',), False)
    assert sc.caller_of(None) is None
