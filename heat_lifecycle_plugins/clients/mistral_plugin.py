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
"""Heat's client plugin `lifecycle_mistral`, and the workflow constraint.

Registered under the `heat.clients` entry point, beside Heat's own
`mistral` plugin (whose client has no request timeout and ignores the TLS
options): ExternalResource sets default_client_name to it and calls
self.client(). The endpoint is the `workflowv2` one of the request's
Keystone catalog, with the interface `[clients_mistral] endpoint_type`
names; requests carry the context's auth plugin (the user's token, or the
stack's trust when heat-engine acts on the user's behalf).
"""

from heat.common import exception
from heat.engine.clients import client_plugin
from heat.engine import constraints
from keystoneauth1 import exceptions as ka_exceptions
import requests

from heat_lifecycle_plugins.clients import mistral
from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import protocol

CLIENT_NAME = 'lifecycle_mistral'
SERVICE_TYPE = 'workflowv2'


class WorkflowUnavailable(exception.HeatException):
    """The project may not use the workflow, or Mistral cannot say."""

    msg_fmt = '%(reason)s'

    def __init__(self, reason):
        super(WorkflowUnavailable, self).__init__(
            reason=protocol.storable_text(reason))


def named(workflow):
    """A workflow's name or id as a message quotes it."""
    return protocol.storable_text(workflow, protocol.MAX_NAME_SHOWN)


def missing_workflow(workflow, endpoint, context):
    project = getattr(context, 'project_name', None) or context.project_id
    return ('workflow "%s" does not exist in Mistral at %s, or project %s '
            'may not use it (it is private to another project)'
            % (named(workflow), endpoint, project))


class LifecycleMistralClientPlugin(client_plugin.ClientPlugin):
    """mistral.MistralClient for a request context."""

    service_types = [SERVICE_TYPE]

    def _create(self, version=None):
        return mistral.MistralClient(self.endpoint(),
                                     self.context.auth_plugin)

    def endpoint(self):
        """The Mistral URL of the request's catalog."""
        interface = heat_internals.client_option(mistral.OPTIONS_CLIENT,
                                                 'endpoint_type')
        try:
            return self.url_for(service_type=SERVICE_TYPE,
                                endpoint_type=interface)
        except ka_exceptions.EndpointNotFound:
            raise mistral.MistralError(
                'the Keystone catalog has no Mistral (%s) endpoint with '
                'interface %s: Mistral is not available in this cloud'
                % (SERVICE_TYPE, interface))
        except (ka_exceptions.ClientException, ka_exceptions.ConnectionError,
                requests.exceptions.ConnectionError) as exc:
            raise mistral.MistralUnreachable(
                'could not look the Mistral (%s) endpoint up in the '
                'Keystone catalog: %s' % (SERVICE_TYPE, exc))

    def is_not_found(self, ex):
        return isinstance(ex, mistral.MistralError) and ex.status == 404

    def missing(self, workflow):
        """Why the project may not use `workflow` (its endpoint named)."""
        return missing_workflow(workflow, self.client().endpoint,
                                self.context)

    def workflow_inputs(self, workflow):
        """{input: has a default} the workflow declares.

        Raises WorkflowUnavailable when the project may not use it or
        Mistral cannot be asked.
        """
        try:
            found = self.client().workflow_inputs(workflow)
        except mistral.MistralError as exc:
            raise WorkflowUnavailable(reason='cannot check workflow "%s": '
                                             '%s' % (named(workflow), exc))
        if found is None:
            raise WorkflowUnavailable(reason=self.missing(workflow))
        return found


class WorkflowConstraint(constraints.BaseCustomConstraint):
    """The value names a Mistral workflow the project may use.

    Checked by Heat wherever property values are validated (stack create,
    update and preview), except for values that come from resources not
    created yet; answers are cached as for Heat's other client
    constraints ([constraint_validation_cache]).
    """

    message = 'Value must be the name or id of an existing Mistral workflow'
    resource_client_name = CLIENT_NAME
    resource_getter_name = 'workflow_inputs'
    expected_exceptions = (WorkflowUnavailable,)
