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
"""Who may signal a deployment: a member of its project, or its own server.

Heat's default policy for resource:signal is PROJECT_READER_OR_STACK_USER:
a user with only the reader role reaches the engine with a signal that
could fail, complete or report progress for a running deployment. A signal
changes the deployment, so a deployment takes it only from a caller with a
member role (MEMBER_ROLES, or an admin context) or with the deployment's
own credentials: its stack user, which the server's HEAT_SIGNAL requests
authenticate as, and which a heat-api-cfn signed URL (CFN_SIGNAL) maps to.
Anyone else gets Heat's Forbidden (a 403 from heat-api) and nothing is
stored. OS::Mistral::ExternalResource takes Mistral's notices the same way
(through its signed URL). Read (Caller), decide (refusal, pure), refuse
(SignalCallers).
"""

import collections

from heat.common import exception
from oslo_log import log as logging

from heat_lifecycle_plugins import heat_internals

LOG = logging.getLogger(__name__)

# Roles that may change what a project's stacks do (Keystone's default
# roles: admin implies member, and member implies reader).
MEMBER_ROLES = frozenset(('member', 'admin'))

# The request that sent a signal, as the engine's RPC server received it.
Caller = collections.namedtuple('Caller', 'user_id roles is_admin')


def refusal(caller, own_user_id, what='deployment'):
    """Why `caller` may not signal; None when it may.

    caller: a Caller, or None when the engine cannot tell who sent the
    signal. own_user_id: the id of the stack user of the signalled
    resource (`what`: a deployment, a resource), or None.
    """
    if caller is None:
        return 'the engine cannot tell who sent it'
    roles = sorted(set(role.lower() for role in caller.roles or ()))
    if caller.is_admin or MEMBER_ROLES.intersection(roles):
        return None
    if own_user_id and caller.user_id == own_user_id:
        return None
    return ('the caller has neither a member role on the project (its '
            'roles: %s) nor the %s\'s own credentials; a reader may read a '
            '%s, not change it' % (', '.join(roles) or 'none', what, what))


def caller_of(context):
    """The Caller of a request context, or None."""
    if context is None:
        return None
    return Caller(context.user_id, tuple(context.roles or ()),
                  bool(context.is_admin))


class SignalCallers(object):
    """Refuses signals from readers (a mixin of our signalled types)."""

    # What the refusal calls the signalled resource.
    SIGNALLED_AS = 'deployment'

    def signal(self, details=None, need_check=True):
        why = refusal(caller_of(heat_internals.signal_caller(self)),
                      heat_internals.stack_user_id(self), self.SIGNALLED_AS)
        if why is not None:
            LOG.warning('%(res)s: signal refused: %(why)s',
                        {'res': self, 'why': why})
            raise exception.Forbidden(action='signals to %s (%s)' % (
                self.name, why))
        return super(SignalCallers, self).signal(details, need_check)
