"""A small Mistral v2 client for our resources.

python-mistralclient over a keystoneauth1 session, with bounded retries and
errors that name the endpoint.

Authentication follows [heat_lifecycle_plugins] mistral_auth_type: with
`keystone` (the cloud case) the session carries the request context's auth
plugin and the endpoint is `mistral_endpoint` or else the workflowv2 entry
of the Keystone catalog; with `none` the session has no auth and
`mistral_endpoint` is required (Mistral run with auth_enable = False).
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

from heat_lifecycle_plugins import config
from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins.resources import execution_results

LOG = logging.getLogger(__name__)

SERVICE_TYPE = 'workflowv2'
BACKOFF_START = 0.5  # seconds before the first retry; doubles each time
BACKOFF_MAX = 8.0

_CONNECT_ERRORS = (ka_exceptions.ConnectionError,
                   requests.exceptions.ConnectionError)


class MistralError(Exception):
    """Mistral answered, with an error."""

    def __init__(self, message, status=None):
        super(MistralError, self).__init__(message)
        self.status = status


class MistralUnreachable(MistralError):
    """Mistral did not answer, even after the configured retries."""


def _status_of(exc):
    if isinstance(exc, mistral_base.APIException):
        return exc.error_code
    if isinstance(exc, ka_exceptions.HttpError):
        return exc.http_status
    return None


def _message_of(exc):
    if isinstance(exc, mistral_base.APIException):
        return exc.error_message or str(exc)
    if isinstance(exc, ka_exceptions.HttpError):
        return exc.details or exc.message or str(exc)
    return str(exc)


def _opts():
    return cfg.CONF[config.GROUP.name]


class MistralClient(object):
    """The calls our resources make, for one request context."""

    def __init__(self, context):
        opts = _opts()
        self.retries = opts.mistral_request_retries
        if opts.mistral_auth_type == 'none':
            if not opts.mistral_endpoint:
                raise MistralError(
                    '[%s] mistral_auth_type = none needs mistral_endpoint'
                    % config.GROUP.name)
            session = ka_session.Session(
                timeout=opts.mistral_request_timeout)
        else:
            session = ka_session.Session(
                auth=context.auth_plugin,
                timeout=opts.mistral_request_timeout)
        self.endpoint = opts.mistral_endpoint or self._catalog_endpoint(
            session)
        self._client = mistral_client.client(mistral_url=self.endpoint,
                                             session=session)

    @staticmethod
    def _catalog_endpoint(session):
        region = cfg.CONF.region_name_for_services
        try:
            interface = heat_internals.client_option('mistral',
                                                     'endpoint_type')
        except Exception:
            interface = 'publicURL'
        try:
            url = session.get_endpoint(service_type=SERVICE_TYPE,
                                       interface=interface,
                                       region_name=region)
        except ka_exceptions.ClientException as exc:
            raise MistralError('could not find the Mistral (%s) endpoint in '
                               'the Keystone catalog: %s'
                               % (SERVICE_TYPE, exc))
        if not url:
            raise MistralError('the Keystone catalog has no %s endpoint '
                               '(set [%s] mistral_endpoint)'
                               % (SERVICE_TYPE, config.GROUP.name))
        return url

    def _call(self, what, func, *args, retry_server_errors=True, **kwargs):
        """func(*args, **kwargs), retried with exponential backoff.

        Retried on connection failures, and on 5xx answers if
        retry_server_errors.
        """
        delay = BACKOFF_START
        attempt = 0
        while True:
            attempt += 1
            try:
                return func(*args, **kwargs)
            except _CONNECT_ERRORS as exc:
                error, status = exc, None
                retriable = True
            except (mistral_base.APIException, ka_exceptions.HttpError) as exc:
                error, status = exc, _status_of(exc)
                retriable = (retry_server_errors and status is not None and
                             status >= 500)
                if not retriable:
                    raise MistralError('Mistral at %s refused to %s: '
                                       'HTTP %s: %s'
                                       % (self.endpoint, what, status,
                                          _message_of(exc)), status)
            if attempt > self.retries:
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
                         'max': self.retries + 1, 'delay': delay,
                         'error': _message_of(error)})
            time.sleep(delay)
            delay = min(delay * 2, BACKOFF_MAX)

    # -- workflows ---------------------------------------------------------

    def workflow_exists(self, identifier):
        try:
            self._call('get workflow %s' % identifier,
                       self._client.workflows.get, identifier)
        except MistralError as exc:
            if exc.status == 404:
                return False
            raise
        return True

    # -- executions --------------------------------------------------------

    def start_execution(self, workflow, workflow_input, description, params):
        """Start an execution; its id. The input is always sent, {} too."""
        # A 5xx here may have started an execution already: no retry then.
        execution = self._call(
            'start workflow %s' % workflow, self._client.executions.create,
            workflow, workflow_input=jsonutils.dumps(workflow_input),
            description=description, retry_server_errors=False, **params)
        return execution.id

    def execution(self, execution_id):
        """An execution_results.Execution, values as Mistral sends them."""
        execution = self._call('get execution %s' % execution_id,
                               self._client.executions.get, execution_id)
        return execution_results.Execution(
            execution.state, execution.state_info, execution.output)

    def cancel_execution(self, execution_id, reason):
        """Cancel an execution that may still run; False if already over."""
        state = self.execution(execution_id).state
        if not execution_results.is_running(state):
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
        return [execution_results.Task(task.name, task.state,
                                       task.state_info,
                                       getattr(task, 'published', None))
                for task in tasks]
