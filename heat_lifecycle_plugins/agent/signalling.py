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
"""Sending a deployment's signals to Heat, with retries.

Two paths, chosen from the deployment's inputs as heat-agents does:
`deploy_signal_id` (a pre-signed URL, CFN_SIGNAL or TEMP_URL_SIGNAL) with its
`deploy_signal_verb`, or Heat's native signal API (HEAT_SIGNAL) with the
deploy_auth_url/user/password/project credentials through python-heatclient.
Connection errors and 5xx answers are retried with exponential backoff; a
4xx answer is final and raised as SignalRejected. Errors are reported
without the deployment's secrets.
"""

import time

from oslo_log import log as logging
import requests

from heat_lifecycle_plugins.agent import redaction
from heat_lifecycle_plugins.agent import trim
from heat_lifecycle_plugins import protocol

LOG = logging.getLogger(__name__)
MAX_BACKOFF_SECONDS = 60


class SignalError(Exception):
    """The signal could not be delivered (retries exhausted)."""


class SignalRejected(SignalError):
    """Heat answered the signal with a 4xx: retrying would not help."""


class UnsupportedTransport(SignalError):
    """The deployment asks for a transport this agent does not speak."""


class Retry(object):
    def __init__(self, retries, backoff, sleep=time.sleep):
        self.retries = retries
        self.backoff = backoff
        self.sleep = sleep


def _status_of(exc):
    """The HTTP status an exception carries, or None (connection error)."""
    for attr in ('http_status', 'code', 'status_code'):
        value = getattr(exc, attr, None)
        if isinstance(value, int):
            return value
    response = getattr(exc, 'response', None)
    return getattr(response, 'status_code', None)


class Signaller(object):
    """Sends the signals of one deployments.Deployment."""

    def __init__(self, deployment, retry, timeout):
        self.inputs = inputs = deployment.values
        self.redactor = deployment.redactor
        self.retry = retry
        self.timeout = timeout
        if inputs.get(protocol.DEPLOY_SIGNAL_ID):
            self.transport = 'url'
            self.target = redaction.safe_url(
                inputs[protocol.DEPLOY_SIGNAL_ID])
        elif inputs.get(protocol.DEPLOY_QUEUE_ID):
            self.transport = 'zaqar'
            self.target = 'zaqar queue %s' % inputs[protocol.DEPLOY_QUEUE_ID]
        elif inputs.get(protocol.DEPLOY_AUTH_URL):
            self.transport = 'heat'
            self.target = 'resource %s of stack %s' % (
                inputs.get(protocol.DEPLOY_RESOURCE_NAME),
                inputs.get(protocol.DEPLOY_STACK_ID))
        else:
            self.transport = None
            self.target = None

    @property
    def enabled(self):
        return self.transport is not None

    def send(self, body):
        """Deliver `body`; raise SignalError/SignalRejected on failure."""
        if self.transport == 'zaqar':
            raise UnsupportedTransport(
                '%s is not supported by heat-lifecycle-agent; use %s, %s or '
                '%s' % (protocol.ZAQAR_SIGNAL, protocol.HEAT_SIGNAL,
                        protocol.CFN_SIGNAL, protocol.TEMP_URL_SIGNAL))
        send_once = (self._send_url if self.transport == 'url'
                     else self._send_heat)
        data = trim.encode(body)
        attempt = 0
        while True:
            try:
                return send_once(body, data)
            except Exception as exc:  # classified below, outside the except
                error = exc
            self._raise_unless_retryable(error, attempt)
            delay = min(self.retry.backoff * (2 ** attempt),
                        MAX_BACKOFF_SECONDS)
            LOG.warning('Signal to %(target)s failed (%(error)s); retry '
                        '%(n)d of %(total)d in %(delay).2fs',
                        {'target': self.target, 'error': self._message(error),
                         'n': attempt + 1, 'total': self.retry.retries,
                         'delay': delay})
            self.retry.sleep(delay)
            attempt += 1

    def _raise_unless_retryable(self, exc, attempt):
        status = _status_of(exc)
        if status is not None and 400 <= status < 500:
            raise SignalRejected('signal to %s rejected with HTTP %s: %s'
                                 % (self.target, status, self._message(exc)))
        if not (_is_connection_error(exc) or
                (status is not None and status >= 500)):
            raise SignalError('signal to %s failed: %s'
                              % (self.target, self._message(exc)))
        if attempt >= self.retry.retries:
            raise SignalError('signal to %s failed after %d attempts: %s'
                              % (self.target, attempt + 1,
                                 self._message(exc)))

    def _send_url(self, body, data):
        verb = (self.inputs.get(protocol.DEPLOY_SIGNAL_VERB) or
                protocol.DEFAULT_SIGNAL_VERB).upper()
        response = requests.request(
            verb, self.inputs[protocol.DEPLOY_SIGNAL_ID], data=data,
            headers={'Content-Type': 'application/json'},
            timeout=self.timeout)
        response.raise_for_status()
        return response.status_code

    def _heat_client(self):
        from heatclient import client as heat_client
        from keystoneauth1.identity import v3
        from keystoneauth1 import session as ks_session
        inputs = self.inputs
        user_id = inputs.get(protocol.DEPLOY_USER_ID) or None
        auth = v3.Password(
            auth_url=inputs[protocol.DEPLOY_AUTH_URL],
            user_id=user_id,
            username=(None if user_id
                      else inputs.get(protocol.DEPLOY_USERNAME)),
            password=inputs.get(protocol.DEPLOY_PASSWORD),
            project_id=inputs.get(protocol.DEPLOY_PROJECT_ID))
        session = ks_session.Session(auth=auth, timeout=self.timeout)
        return heat_client.Client(
            '1', session=session, service_type='orchestration',
            region_name=inputs.get(protocol.DEPLOY_REGION_NAME) or None)

    def _send_heat(self, body, data):
        heat = self._heat_client()
        heat.resources.signal(self.inputs.get(protocol.DEPLOY_STACK_ID),
                              self.inputs.get(protocol.DEPLOY_RESOURCE_NAME),
                              data=body)
        return 200

    def _message(self, exc):
        """The error's text without the URL's signature or the password."""
        try:
            text = '%s: %s' % (type(exc).__name__, exc)
        except Exception:
            # heatclient's errors fail to print a body not in Heat's
            # format (a proxy's error page, for instance).
            text = '%s (HTTP %s)' % (type(exc).__name__, _status_of(exc))
        text = self.redactor.text(text)
        return text if len(text) < 500 else text[:500] + '...'


def _is_connection_error(exc):
    from keystoneauth1 import exceptions as ks_exc
    return isinstance(exc, (requests.ConnectionError, requests.Timeout,
                            ks_exc.ConnectionError))
