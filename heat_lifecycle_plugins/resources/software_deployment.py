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
"""OS::Heat::SoftwareDeployment, aware of components and of progress signals.

Heat's in-tree type with the same properties and attributes, and more:
a changed component without an UPDATE entry is delivered again (as
CREATE); CFN_SIGNAL URLs do not expire with Keystone's auth_ttl; day-two
requests run a component's custom actions. Waiting, deadlines and signals
(progress as events, a compare-and-swap of the result) are in
deployment_waiting.py.
"""

import time
import uuid

from oslo_log import log as logging

from heat.common import exception
from heat.common.i18n import _
from heat.engine import constraints
from heat.engine import properties
from heat.engine import software_config_io as swc_io
from heat.engine import support
from heat.rpc import api as rpc_api

from heat_lifecycle_plugins import action_names
from heat_lifecycle_plugins import action_requests
from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.resources import action_constraints
from heat_lifecycle_plugins.resources import common
from heat_lifecycle_plugins.resources import component_config
from heat_lifecycle_plugins.resources import deployment_configs
from heat_lifecycle_plugins.resources import deployment_signals
from heat_lifecycle_plugins.resources import deployment_waiting
from heat_lifecycle_plugins.resources import signal_callers

LOG = logging.getLogger(__name__)


def _deadline_schema(description):
    return common.added_schema(properties.Schema.INTEGER, description,
                               constraints=[constraints.Range(min=1)])


# Extended, not rewritten: the private names used are in heat_internals.
InTreeSoftwareDeployment = heat_internals.in_tree_software_deployment()


class SoftwareDeployment(common.StorableErrors,
                         signal_callers.SignalCallers,
                         deployment_configs.DeploymentConfigs,
                         deployment_waiting.DeploymentWaiting,
                         InTreeSoftwareDeployment):
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
    as does a non-zero ``deploy_status_code``, an error output or an
    unknown ``deploy_status``; COMPLETE or no ``deploy_status`` (older
    agents) completes it. Signals are taken only from a member of the
    project or the deployment's own credentials (a reader gets a 403).

    Deadlines (HEAT_SIGNAL and CFN_SIGNAL): ``start_timeout`` fails the
    deployment when no signal of any kind arrived that many seconds after it
    was delivered; ``run_timeout`` when it has not ended that many seconds
    after it was delivered. The reason says which, and the last progress.

    Day-two actions: a stack update that changes ``action_request`` to a
    new, non-empty value runs ``extended_action`` now (a custom action of
    the component, or UPDATE, the default, to re-apply the config without
    a change). The resource goes UPDATE_IN_PROGRESS and the server gets
    the action as ``deploy_action``; progress, outputs and failure are
    those of any action. Changing ``extended_action`` alone runs nothing.
    A failed request leaves the deployment UPDATE_FAILED but is never
    replaced for it: the next request runs again on the same deployment.
    """

    support_status = support.SupportStatus(version='2014.1')

    DEADLINES = (START_TIMEOUT, RUN_TIMEOUT) = (
        deployment_signals.START_TIMEOUT, deployment_signals.RUN_TIMEOUT)
    REQUEST_PROPERTIES = (EXTENDED_ACTION, ACTION_REQUEST, ACTION_INPUTS) = (
        'extended_action', 'action_request', 'action_inputs')

    properties_schema = dict(InTreeSoftwareDeployment.properties_schema, **{
        # The derived config's name, stored on CREATE, UPDATE and DELETE.
        InTreeSoftwareDeployment.NAME: properties.Schema(
            properties.Schema.STRING,
            InTreeSoftwareDeployment.properties_schema[
                InTreeSoftwareDeployment.NAME].description,
            update_allowed=True, constraints=[
                action_constraints.storable_whole(
                    action_constraints.MAX_DEPLOYMENT_NAME)]),
        START_TIMEOUT: _deadline_schema(_(
            'Seconds the server may take to start the deployment of an '
            'action (its first signal of any kind, progress included). '
            'When they pass, the deployment fails with "the server never '
            'started the deployment" and the likely causes. Unset: no '
            'limit. Only with signal_transport HEAT_SIGNAL or CFN_SIGNAL, '
            'whose signals reach the deployment. Changing it re-runs '
            'nothing.')),
        RUN_TIMEOUT: _deadline_schema(_(
            'Seconds the deployment of an action may take in total, from '
            'its delivery to the final signal. When they pass, the '
            'deployment fails with "still running after N s" and the last '
            'progress reported (or "never started" if there was none). '
            'Unset: no limit but the stack\'s timeout. Only with '
            'signal_transport HEAT_SIGNAL or CFN_SIGNAL. Changing it re-runs '
            'nothing.')),
        EXTENDED_ACTION: common.added_schema(properties.Schema.STRING, _(
            'The action a request (a change of action_request) runs on the '
            'server: a custom action of the component (an upper-case '
            'identifier such as BACKUP, listed in its configs[].actions), '
            'or UPDATE to re-apply the config unchanged (its UPDATE entry, '
            'else its CREATE entry). Unset: UPDATE. Changing it alone runs '
            'nothing.'), constraints=[action_constraints.valid_action_name()]),
        ACTION_REQUEST: common.added_schema(properties.Schema.STRING, _(
            'A request token: a stack update that changes it to a new, '
            'non-empty value runs extended_action now, as a Heat UPDATE of '
            'this resource, nothing replaced (e.g. openstack stack update '
            '--existing --parameter backup_request=$(date +%s)). Empty or '
            'unchanged: nothing is requested.'), constraints=[
                action_constraints.storable_whole(
                    action_constraints.MAX_TOKEN)]),
        ACTION_INPUTS: common.added_schema(properties.Schema.MAP, _(
            'Input values of requested actions only: each is an input of '
            'the requested action\'s deployment, overriding input_values '
            'of the same name. Other actions do not see them; changing '
            'them alone runs nothing.')),
    })

    # Not a method: EngineService.resource_signal runs a signal to a
    # resource without a callable handle_signal in the RPC call itself
    # instead of a thread of the stack's ThreadGroup (Heat 25.0-27.0 never
    # free those and refuse the 1001st). Resource.signal() calls
    # _handle_signal below.
    handle_signal = None

    SERVER_TYPE_KEY = 'server_type'

    # Set by handle_update: did the config or the input values change?
    _content_changed = False
    # Set by handle_update: the action a request runs, or None.
    _request = None

    def _status_aware(self):
        transport = self.properties[self.SIGNAL_TRANSPORT]
        return transport in protocol.STATUS_AWARE_TRANSPORTS

    def _build_derived_inputs(self, action, source):
        inputs = [self._unexpiring(i) for i in super(
            SoftwareDeployment, self)._build_derived_inputs(action, source)
            if i.name() not in (protocol.DEPLOY_STATUS_AWARE,
                                protocol.DEPLOY_RUN_TIMEOUT)]
        if self._request:
            inputs = action_requests.with_action_inputs(
                inputs, self.properties[self.ACTION_INPUTS],
                swc_io.InputConfig)
        inputs.append(swc_io.InputConfig(
            name=protocol.DEPLOY_STATUS_AWARE, type=swc_io.STRING_TYPE,
            value=protocol.TRUE if self._status_aware() else protocol.FALSE,
            description=_('"true" if the server may signal progress with '
                          'deploy_status IN_PROGRESS.')))
        if self.properties[self.RUN_TIMEOUT]:
            inputs.append(swc_io.InputConfig(
                name=protocol.DEPLOY_RUN_TIMEOUT, type=swc_io.STRING_TYPE,
                value=str(self.properties[self.RUN_TIMEOUT]),
                description=_('Seconds the deployment may run (its '
                              'run_timeout): the agent stops the tool '
                              'then.')))
        return inputs

    def _unexpiring(self, item):
        """The deploy_signal_id input of CFN_SIGNAL signed without expiry.

        In-tree the signed URL carries a Timestamp that Keystone refuses
        after [credential] auth_ttl minutes (default 15): a tool that runs
        longer cannot signal its result. Without one the URL is valid while
        the resource's keypair lives (Heat signs alarm URLs so): as long as
        the HEAT_SIGNAL transport's password.
        """
        if (item.name() != protocol.DEPLOY_SIGNAL_ID or
                self.properties[self.SIGNAL_TRANSPORT] != protocol.CFN_SIGNAL):
            return item
        url = self._get_ec2_signed_url(never_expire=True)
        if url is None:
            return item
        values = item.as_dict()
        values[swc_io.VALUE] = url
        return swc_io.InputConfig(**values)

    def _handled(self, config):
        """The actions the config handles (a plain config: `actions`)."""
        if component_config.is_component(config):
            return component_config.handled_actions(config)
        return set(self.properties[self.DEPLOY_ACTIONS] or ())

    def _action_to_deliver(self, action, config):
        """The deploy_action to send for this resource action, or None."""
        if action == self.UPDATE and self._request:
            return self._requested_to_deliver(config)
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
        if self._request:
            props[rpc_api.SOFTWARE_DEPLOYMENT_STATUS_REASON] = _(
                'Requested action %(action)s (request %(request)s) '
                'delivered') % {'action': deliver,
                                'request': self.properties[
                                    self.ACTION_REQUEST]}
        sd = self._store_deployment(props, prev_derived_config)
        if self._request:
            self._add_event(self.UPDATE, self.IN_PROGRESS,
                            props[rpc_api.SOFTWARE_DEPLOYMENT_STATUS_REASON])
        if self._signal_transport_none():
            return None
        return dict(sd, **{deployment_waiting.DELIVERED_AT: time.time()})

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

    # -- day-two requests ---------------------------------------------------

    def _requested_to_deliver(self, config):
        """The deploy_action of the request; fails if nothing handles it."""
        handled = self._handled(config)
        deliver = action_requests.to_deliver(self._request, handled)
        if deliver is None:
            raise exception.Error(action_requests.undefined(
                self.name, self.EXTENDED_ACTION, self._request, handled,
                component_config.is_component(config)))
        return deliver

    def needs_replace_failed(self):
        # A failed request (BACKUP) changed nothing the deployment applied:
        # the next update runs in place, as the next request or not at all.
        if common.failed_in_request(self):
            return False
        return super(SoftwareDeployment, self).needs_replace_failed()

    def handle_update(self, json_snippet, tmpl_diff, prop_diff):
        changed = set(prop_diff or ())
        request = action_requests.is_new_request(
            prop_diff, self.ACTION_REQUEST,
            self.data().get(action_requests.TOKEN_KEY))
        settings = set(self.DEADLINES) | set(self.REQUEST_PROPERTIES)
        if changed and changed <= settings and not request:
            # A deadline applies from the next action, an extended_action
            # from the next request: nothing runs now.
            self.properties = json_snippet.properties(self.properties_schema,
                                                      self.context)
            return None
        self._content_changed = bool(
            changed & {self.CONFIG, self.INPUT_VALUES})
        self._request = action_requests.requested(
            json_snippet.properties(self.properties_schema, self.context)[
                self.EXTENDED_ACTION]) if request else None
        common.note_request(self, self._request,
                            prop_diff.get(self.ACTION_REQUEST))
        return super(SoftwareDeployment, self).handle_update(
            json_snippet, tmpl_diff, prop_diff)

    def validate_template(self):
        """Also check extended_action's name when only the template is.

        Template-validate skips property values (and so the constraint);
        values not known yet are checked at create or update.
        """
        super(SoftwareDeployment, self).validate_template()
        common.refuse_known_problem(
            self, self.EXTENDED_ACTION,
            lambda action: action_names.problem(action) if action else None)

    def _validate_extended_action(self):
        """A requested action the config is known to lack fails here.

        At a stack update (and create) Heat validates the new definition
        before its resources exist: `config` then names the component of
        this template, whose definition says which actions it handles.
        """
        action = self.properties[self.EXTENDED_ACTION]
        if action is None or not self.properties[self.CONFIG]:
            return
        config = self._config_known_now()
        if config is None:
            return  # not known yet: the request itself is checked
        requested = action_requests.requested(action)
        handled = self._handled(config)
        if action_requests.to_deliver(requested, handled) is None:
            raise exception.StackValidationFailed(
                message=action_requests.undefined(
                    self.name, self.EXTENDED_ACTION, requested, handled,
                    component_config.is_component(config)))

    def validate(self):
        # Before anything looks the config or the server up by id.
        for name in (self.CONFIG, self.SERVER):
            common.refuse_known_problem(self, name,
                                        protocol.storable_id_problem)
        super(SoftwareDeployment, self).validate()
        self._validate_extended_action()
        reserved = action_requests.reserved_inputs(
            self.properties[self.ACTION_INPUTS])
        if reserved:
            raise exception.StackValidationFailed(message=_(
                'Resource %(res)s: property %(prop)s: %(names)s set by '
                'Heat, not by a request') % {
                    'res': self.name, 'prop': self.ACTION_INPUTS,
                    'names': ', '.join(reserved)})
        self._validate_deadlines()

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
