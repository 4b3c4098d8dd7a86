"""OS::Heat::SoftwareDeployment, aware of components and of progress signals.

Replaces Heat's in-tree type with the same properties and attributes, and
fixes what it gets wrong: a changed component without an UPDATE entry is
delivered again (as CREATE) instead of being silently skipped; signals with
deploy_status IN_PROGRESS report progress as events; COMPLETE and FAILED are
stored with a compare-and-swap, so a racing progress signal cannot undo
them; late, duplicate or malformed signals leave an event that says so.
"""

import uuid

from oslo_log import log as logging

from heat.common import exception
from heat.common.i18n import _
from heat.db import api as db_api
from heat.engine.resources.openstack.heat import software_deployment
from heat.engine import software_config_io as swc_io
from heat.engine import support
from heat.rpc import api as rpc_api

from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.resources import component_config
from heat_lifecycle_plugins.resources import deployment_signals

LOG = logging.getLogger(__name__)

InTreeSoftwareDeployment = software_deployment.SoftwareDeployment


class SoftwareDeployment(InTreeSoftwareDeployment):
    """Associates a server with a software config or component.

    Whenever this resource goes IN_PROGRESS it stores a derived config with
    the input values plus the ``deploy_*`` inputs (the action to apply, the
    stack and the credentials to signal back) and waits for the server's
    signal, unless signal_transport is NO_SIGNAL.

    With an OS::Heat::SoftwareComponent the component's entries decide which
    actions run (the ``actions`` property is ignored) and the whole set of
    configs is delivered; the server selects the entry for ``deploy_action``.
    When the component or the input values change and the component has no
    UPDATE entry, the changed component is delivered with ``deploy_action``
    CREATE, so its CREATE entry is applied again (servers never keep an old
    config silently); without a CREATE entry either, nothing runs.

    Progress: the input ``deploy_status_aware`` (a String, "true" or
    "false") tells the server whether it may send progress signals. It is
    "true" for HEAT_SIGNAL and CFN_SIGNAL only, whose signals reach this
    resource. A signal with ``deploy_status`` IN_PROGRESS keeps the
    deployment IN_PROGRESS and adds an event carrying
    ``deploy_status_reason``; FAILED fails the deployment with that reason,
    as does a non-zero ``deploy_status_code`` or an error output; COMPLETE
    or no ``deploy_status`` (older agents) completes it.
    """

    support_status = support.SupportStatus(version='2014.1')

    SERVER_TYPE_KEY = 'server_type'

    # Set by handle_update: did the config or the input values change?
    _content_changed = False

    def _status_aware(self):
        transport = self.properties[self.SIGNAL_TRANSPORT]
        return transport in protocol.STATUS_AWARE_TRANSPORTS

    def _build_derived_inputs(self, action, source):
        inputs = [i for i in super(SoftwareDeployment,
                                   self)._build_derived_inputs(action, source)
                  if i.name() != protocol.DEPLOY_STATUS_AWARE]
        inputs.append(swc_io.InputConfig(
            name=protocol.DEPLOY_STATUS_AWARE, type=swc_io.STRING_TYPE,
            value=protocol.TRUE if self._status_aware() else protocol.FALSE,
            description=_('"true" if the server may signal progress with '
                          'deploy_status IN_PROGRESS.')))
        return inputs

    def _action_to_deliver(self, action, config):
        """The deploy_action to send for this resource action, or None."""
        if not component_config.is_component(config):
            return action if action in self.properties[
                self.DEPLOY_ACTIONS] else None
        handled = component_config.handled_actions(config)
        if action in handled:
            return action
        if (action == self.UPDATE and self._content_changed and
                self.CREATE in handled):
            return self.CREATE
        return None

    def _handle_action(self, action, config=None, prev_derived_config=None):
        if config is None:
            config = self._load_config()
        deliver = self._action_to_deliver(action, config)
        if deliver is None:
            LOG.debug('%(res)s: nothing to deploy for %(action)s',
                      {'res': self, 'action': action})
            return None
        if deliver != action:
            LOG.info('%(res)s: the component changed and has no %(action)s '
                     'entry; delivering it as %(deliver)s',
                     {'res': self, 'action': action, 'deliver': deliver})
        props = self._build_properties(
            self._create_derived_config(deliver, config), action)
        sd = self._store_deployment(props, prev_derived_config)
        return None if self._signal_transport_none() else sd

    def _store_deployment(self, props, prev_derived_config):
        rpc = self.rpc_client()
        if self.resource_id is None:
            self._remember_server_type()
            self.resource_id_set(str(uuid.uuid4()))
            return rpc.create_software_deployment(
                self.context, deployment_id=self.resource_id,
                server_id=self.properties[self.SERVER],
                stack_user_project_id=self.stack.stack_user_project_id,
                **props)
        if prev_derived_config is None:
            prev_derived_config = self._get_derived_config_id()
        sd = rpc.update_software_deployment(
            self.context, deployment_id=self.resource_id, **props)
        if prev_derived_config:
            self._delete_derived_config(prev_derived_config)
        return sd

    def handle_update(self, json_snippet, tmpl_diff, prop_diff):
        self._content_changed = bool(
            set(prop_diff or ()) & {self.CONFIG, self.INPUT_VALUES})
        return super(SoftwareDeployment, self).handle_update(
            json_snippet, tmpl_diff, prop_diff)

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
            return super(SoftwareDeployment, self)._server_exists(sd)
        server = db_api.resource_get_by_physical_resource_id(
            self.context, sd[rpc_api.SOFTWARE_DEPLOYMENT_SERVER_ID])
        return server is not None and (server.action, server.status) != (
            self.DELETE, self.COMPLETE)

    def _compute_in_catalog(self):
        return self.client_plugin('nova').does_endpoint_exist(
            service_type='compute', service_name='nova')

    def _show_resource(self):
        # The `show` attribute, read through the engine's own RPC API rather
        # than an HTTP round trip to heat-api.
        if self.resource_id is None:
            return None
        with self.rpc_client().ignore_error_by_name('NotFound'):
            return self.rpc_client().show_software_deployment(
                self.context, self.resource_id)

    def _resolve_attribute(self, name):
        # `resource show --with-attr` resolves attributes here, not through
        # get_attribute: in-tree, deploy_stdout/stderr/status_code and the
        # outputs all read None on that path, failed deployments included.
        return self.get_attribute(name)

    def handle_signal(self, details=None):
        if self.resource_id is None:
            return 'signal ignored: %s has no deployment yet' % self.name
        try:
            return deployment_signals.handle(self.context, self.resource_id,
                                             details)
        except exception.NotFound:
            return ('signal ignored: deployment %s no longer exists'
                    % self.resource_id)
