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
"""How a SoftwareDeployment waits for its server, and takes its signals.

DeploymentWaiting, mixed into SoftwareDeployment: the in-tree checks of
completion, with the deployment's deadlines (start_timeout, run_timeout)
enforced in between (and refused at validation where no signal can reach
them) and a database or message-bus outage ridden through;
whether the server still exists (a DeployedServer is not Nova's); and each
signal handled in the engine's RPC call (deployment_signals decides), with
the SIGNAL event Heat would add.
"""

import time

from heat.common import exception
from heat.common.i18n import _
from heat.rpc import api as rpc_api
from oslo_log import log as logging

from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.resources import common
from heat_lifecycle_plugins.resources import deployment_signals

LOG = logging.getLogger(__name__)

# The key of the wait cookie (the dict handle_* returns) that holds when
# the deployment of the action was stored: the deadlines count from it.
DELIVERED_AT = 'heat_lifecycle_plugins_delivered_at'
SIGNAL_EVENT = 'SIGNAL'


class DeploymentWaiting(object):
    """Completion, deadlines and signals (a mixin of SoftwareDeployment)."""

    def _checked(self, check, sd):
        """check(sd) (the in-tree check), else enforce the deadlines.

        A database or message-bus outage is not the deployment's failure:
        the check polls again.
        """
        try:
            return self._deadlines_checked(sd, check(sd))
        except Exception as exc:
            outage = deployment_signals.outage_of(exc)
            if outage is None:
                raise
            LOG.warning('%(res)s: %(outage)s while checking the deployment; '
                        'checking again', {'res': self, 'outage': outage})
            return False

    def _validate_deadlines(self):
        """A deadline needs a transport whose signals reach the deployment."""
        transport = self.properties[self.SIGNAL_TRANSPORT]
        if transport is None or transport in protocol.STATUS_AWARE_TRANSPORTS:
            return
        for name in self.DEADLINES:
            if self.properties[name] is not None:
                raise exception.StackValidationFailed(message=_(
                    'Resource %(res)s: property %(name)s (%(value)s) needs '
                    'signal_transport HEAT_SIGNAL or CFN_SIGNAL, whose '
                    'signals reach the deployment; with %(transport)s '
                    '%(why)s') % {
                        'res': self.name, 'name': name,
                        'value': self.properties[name],
                        'transport': transport,
                        'why': _('nothing waits for a signal')
                        if transport == protocol.NO_SIGNAL else
                        _('the engine polls the result and never sees the '
                          'server start')})

    def _deadlines_checked(self, sd, done):
        if done or not sd or DELIVERED_AT not in sd:
            return done
        reason = deployment_signals.enforce_deadlines(
            self.context, self.resource_id, time.time() - sd[DELIVERED_AT],
            self.properties[self.START_TIMEOUT],
            self.properties[self.RUN_TIMEOUT])
        if reason is not None:
            raise exception.Error(reason)
        return False

    def check_create_complete(self, sd):
        return self._checked(
            super(DeploymentWaiting, self).check_create_complete, sd)

    def check_update_complete(self, sd):
        done = self._checked(
            super(DeploymentWaiting, self).check_update_complete, sd)
        if done:
            common.request_ended(self)  # it succeeded
        return done

    def check_suspend_complete(self, sd):
        return self._checked(
            super(DeploymentWaiting, self).check_suspend_complete, sd)

    def check_resume_complete(self, sd):
        return self._checked(
            super(DeploymentWaiting, self).check_resume_complete, sd)

    def check_delete_complete(self, sd=None):
        return self._checked(
            super(DeploymentWaiting, self).check_delete_complete, sd)

    def _remember_server_type(self):
        server = self.stack.resource_by_refid(self.properties[self.SERVER])
        if server is not None:
            self.data_set(self.SERVER_TYPE_KEY, server.type())

    def _server_exists(self, sd):
        # A server of this stack that is not a Nova server (a DeployedServer)
        # exists until Heat deletes it: Nova does not know it. So does a
        # server of another stack in a cloud without a compute service
        # (in-tree, asking the absent Nova fails the DELETE).
        server_type = self.data().get(self.SERVER_TYPE_KEY)
        if server_type == 'OS::Nova::Server' or (
                not server_type and self._compute_in_catalog()):
            return super(DeploymentWaiting, self)._server_exists(sd)
        state = heat_internals.resource_state_by_physical_id(
            self.context, sd[rpc_api.SOFTWARE_DEPLOYMENT_SERVER_ID])
        return state is not None and state != (self.DELETE, self.COMPLETE)

    def _compute_in_catalog(self):
        return self.client_plugin('nova').does_endpoint_exist(
            service_type='compute', service_name='nova')

    # -- signals --------------------------------------------------------------

    def _handle_signal(self, details):
        """Handle one signal and add its SIGNAL event, as Heat's does.

        Bad signals are events, not errors; an error of the engine itself
        (its database unreachable) fails the call, so the agent retries.
        """
        try:
            reason = self._signal_reason(details)
        except Exception as exc:
            LOG.info('signal %(name)s : %(msg)s',
                     {'name': str(self), 'msg': exc}, exc_info=True)
            raise exception.ResourceFailure(exc, self)
        self._add_event(SIGNAL_EVENT, self.status, 'Signal: %s' % reason)

    def _signal_reason(self, details):
        if self.resource_id is None:
            return 'signal ignored: %s has no deployment yet' % self.name
        try:
            return deployment_signals.handle(self.context, self.resource_id,
                                             details)
        except exception.NotFound:
            return ('signal ignored: deployment %s no longer exists'
                    % self.resource_id)
