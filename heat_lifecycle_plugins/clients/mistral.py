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
"""The Mistral v2 calls of our resources, with bounded retries.

mistral_plugin.py (Heat's client plugin `lifecycle_mistral`) finds the
endpoint and makes this client for a request context. It is not Heat's
`mistral` plugin's client: on every supported Heat (24.1 to 27.0, the same
code) that one sends its requests through the context's Keystone session,
which has no request timeout (a Mistral that accepts a connection and
never answers would hold the engine's thread for good) and ignores the
`[clients_mistral]` TLS options (ca_file, cert_file, key_file, insecure),
which this one honours. Errors name the endpoint.
"""

import time

from keystoneauth1 import exceptions as ka_exceptions
from keystoneauth1 import session as ka_session
from mistralclient.api import base as mistral_base
from mistralclient.api import client as mistral_client
from oslo_config import cfg
from oslo_log import log as logging
from oslo_serialization import jsonutils
import requests

from heat_lifecycle_plugins.clients import executions
from heat_lifecycle_plugins import config
from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import protocol

LOG = logging.getLogger(__name__)

OPTIONS_CLIENT = 'mistral'  # whose [clients_*] options we honour
SERVICE_TYPE = 'workflowv2'
BACKOFF_START = 0.5  # seconds before the first retry; doubles each time
BACKOFF_MAX = 8.0

_CONNECT_ERRORS = (ka_exceptions.ConnectionError,
                   requests.exceptions.ConnectionError)
_HTTP_ERRORS = (mistral_base.APIException, ka_exceptions.HttpError)
# What mistralclient raises on an answer it cannot read: a body that is not
# JSON, or not the map or list it expects.
_UNREADABLE = (ValueError, TypeError, KeyError, AttributeError)
MAX_MESSAGE = 600  # characters of Mistral's error text an error quotes


class MistralError(Exception):
    """Mistral answered, with an error (its message storable text).

    The message may name what was asked for (a workflow as the template
    gave it) and may become a status_reason.
    """

    def __init__(self, message, status=None):
        super(MistralError, self).__init__(protocol.storable_text(message))
        self.status = status

    @property
    def transient(self):
        """Whether Mistral may answer otherwise soon (5xx, unreachable)."""
        return self.status is not None and self.status >= 500


class MistralUnreachable(MistralError):
    """Mistral did not answer, even after the configured retries."""

    @property
    def transient(self):
        return True


def _status_of(exc):
    if isinstance(exc, mistral_base.APIException):
        return exc.error_code
    if isinstance(exc, ka_exceptions.HttpError):
        return exc.http_status
    return None


def _message_of(exc):
    if isinstance(exc, mistral_base.APIException):
        text = exc.error_message or str(exc)
    elif isinstance(exc, ka_exceptions.HttpError):
        text = exc.details or exc.message or str(exc)
    else:
        text = exc
    # It may become a status_reason: text the database can hold.
    return protocol.storable_text(text, MAX_MESSAGE)


def _answer_of(exc):
    """The HTTP error a failed call got, or `exc` (a body not read).

    mistralclient fails on an error body that is not a JSON map while it
    handles the HTTP error: that error's status still counts.
    """
    if not isinstance(exc, _HTTP_ERRORS) and isinstance(
            exc.__context__, _HTTP_ERRORS):
        return exc.__context__
    return exc


def _opts():
    return cfg.CONF[config.GROUP.name]


def tls_options():
    """mistralclient's TLS arguments from [clients_mistral] / [clients]."""
    option = heat_internals.client_option
    return {'cacert': option(OPTIONS_CLIENT, 'ca_file'),
            'insecure': option(OPTIONS_CLIENT, 'insecure'),
            'cert': option(OPTIONS_CLIENT, 'cert_file'),
            'key': option(OPTIONS_CLIENT, 'key_file')}


class MistralClient(object):
    """The calls our resources make, as the request's auth plugin."""

    def __init__(self, endpoint, auth_plugin):
        opts = _opts()
        self.retries = opts.mistral_request_retries
        self.endpoint = endpoint
        session = ka_session.Session(auth=auth_plugin,
                                     timeout=opts.mistral_request_timeout)
        try:
            self._client = mistral_client.client(
                mistral_url=self.endpoint, session=session, **tls_options())
        except ValueError as exc:  # a CA file that is not there
            raise MistralError('cannot use Mistral at %s with the TLS '
                               'options of [clients_%s]: %s'
                               % (self.endpoint, OPTIONS_CLIENT, exc))

    def _call(self, what, func, *args, retry_server_errors=True,
              retries=None, **kwargs):
        """func(*args, **kwargs), retried with exponential backoff.

        Retried on connection failures, and on 5xx answers if
        retry_server_errors; `retries` times (None: mistral_request_retries).
        """
        retries = self.retries if retries is None else retries
        delay = BACKOFF_START
        attempt = 0
        while True:
            attempt += 1
            try:
                return func(*args, **kwargs)
            except _CONNECT_ERRORS as exc:
                error, status = exc, None
            except _HTTP_ERRORS + _UNREADABLE as exc:
                error = _answer_of(exc)
                status = _status_of(error)
                if status is None:
                    raise MistralError('Mistral at %s answered %s with a '
                                       'body that cannot be read: %s: %s'
                                       % (self.endpoint, what,
                                          type(error).__name__,
                                          _message_of(error)))
                if not (retry_server_errors and status >= 500):
                    raise MistralError('Mistral at %s refused to %s: '
                                       'HTTP %s: %s'
                                       % (self.endpoint, what, status,
                                          _message_of(exc)), status)
            if attempt > retries:
                if status is None:
                    raise MistralUnreachable(
                        'Mistral at %s is unreachable (%s failed %d '
                        'time(s)): %s' % (self.endpoint, what, attempt,
                                          _message_of(error)))
                raise MistralError('Mistral at %s failed to %s %d time(s): '
                                   'HTTP %s: %s'
                                   % (self.endpoint, what, attempt, status,
                                      _message_of(error)), status)
            LOG.warning('Mistral at %(url)s: %(what)s failed (attempt '
                        '%(n)d of %(max)d), retrying in %(delay).1fs: '
                        '%(error)s',
                        {'url': self.endpoint, 'what': what, 'n': attempt,
                         'max': retries + 1, 'delay': delay,
                         'error': _message_of(error)})
            time.sleep(delay)
            delay = min(delay * 2, BACKOFF_MAX)

    # -- workflows ---------------------------------------------------------

    def workflow(self, identifier):
        """The workflow the request's project sees, or None.

        Mistral answers 404 alike for a workflow that does not exist and
        for one private to another project.
        """
        try:
            return self._call('get workflow %s' % identifier,
                              self._client.workflows.get, identifier)
        except MistralError as exc:
            if exc.status == 404:
                return None
            raise

    def workflow_exists(self, identifier):
        return self.workflow(identifier) is not None

    def workflow_inputs(self, identifier):
        """{name: has a default} of the inputs a workflow declares.

        None when the project does not see the workflow.
        """
        found = self.workflow(identifier)
        if found is None:
            return None
        return declared_inputs(getattr(found, 'input', None) or '')

    # -- executions --------------------------------------------------------

    def start_execution(self, workflow, workflow_input, description, params):
        """Start an execution; its id. The input is always sent, {} too."""
        # A 5xx here may have started an execution already: no retry then.
        execution = self._call(
            'start workflow %s' % workflow, self._client.executions.create,
            workflow, workflow_input=jsonutils.dumps(workflow_input),
            description=description, retry_server_errors=False, **params)
        execution_id = getattr(execution, 'id', None)
        problem = executions.execution_id_problem(execution_id)
        if problem:
            self._stop_unkept(execution_id, problem)
            raise MistralError(
                'Mistral at %s started workflow %s as an execution Heat '
                'cannot keep: %s' % (self.endpoint, workflow, problem))
        return execution_id

    def _stop_unkept(self, execution_id, problem):
        """Cancel an execution whose id Heat cannot keep, if it can."""
        if not isinstance(execution_id, str) or not execution_id:
            return
        try:
            self.cancel_execution(execution_id, 'Heat cannot keep its id: '
                                  + problem)
        except Exception as exc:  # any answer: the error says enough
            LOG.warning('Could not cancel the execution Heat cannot keep: '
                        '%s', protocol.storable_text(exc, 300))

    def execution(self, execution_id, retries=None):
        """An executions.Execution, values as Mistral sends them."""
        what = 'get execution %s' % execution_id
        execution = self._call(what, self._client.executions.get,
                               execution_id, retries=retries)
        if getattr(execution, 'state', None) is None:
            raise MistralError('Mistral at %s answered %s without a state'
                               % (self.endpoint, what))
        return executions.Execution(execution.state,
                                    getattr(execution, 'state_info', None),
                                    getattr(execution, 'output', None))

    def cancel_execution(self, execution_id, reason):
        """Cancel an execution that may still run; False if already over."""
        state = self.execution(execution_id).state
        if not executions.is_running(state):
            return False
        # executions.update() cannot send state_info, the reason Mistral
        # records; the manager's own PUT helper can.
        manager = self._client.executions
        self._call('cancel execution %s' % execution_id, manager._update,
                   '/executions/%s' % execution_id,
                   {'state': 'CANCELLED', 'state_info': reason})
        return True

    def tasks(self, execution_id):
        """The execution's tasks, values as Mistral sends them."""
        tasks = self._call('list tasks of execution %s' % execution_id,
                           self._client.tasks.list,
                           workflow_execution_id=execution_id)
        # Values Mistral left out are None.
        return [executions.Task(*(getattr(task, field, None)
                                  for field in executions.Task._fields))
                for task in tasks]


def _top_level_parts(text):
    """text split at the commas outside brackets and quotes."""
    parts, depth, quote, start = [], 0, None, 0
    for i, char in enumerate(text):
        if quote:
            quote = None if char == quote else quote
        elif char in '"\'':
            quote = char
        elif char in '[{(':
            depth += 1
        elif char in ']})':
            depth -= 1
        elif char == ',' and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def declared_inputs(spec):
    """{name: has a default} of Mistral's input text ("a, b=1, c=null")."""
    inputs = {}
    for part in _top_level_parts(spec):
        name, sep, _default = part.partition('=')
        inputs[name.strip()] = bool(sep)
    return inputs
