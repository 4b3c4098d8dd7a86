"""Sending a deployment's signals to Heat, with retries.

Two paths, chosen from the deployment's inputs as heat-agents does:
`deploy_signal_id` (a pre-signed URL, CFN_SIGNAL or TEMP_URL_SIGNAL) with its
`deploy_signal_verb`, or Heat's native signal API (HEAT_SIGNAL) with the
deploy_auth_url/user/password/project credentials through python-heatclient.
Connection errors and 5xx answers are retried with exponential backoff; a
4xx answer is final and raised as SignalRejected.
"""

import time
from urllib import parse

from oslo_log import log as logging
import requests

from heat_lifecycle_plugins.agent import trim

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


def safe_url(url):
    """`url` without its query (a signature or token) for logs."""
    parts = parse.urlsplit(url)
    return parse.urlunsplit((parts.scheme, parts.netloc, parts.path, '', ''))


def _status_of(exc):
    """The HTTP status an exception carries, or None (connection error)."""
    for attr in ('http_status', 'code', 'status_code'):
        value = getattr(exc, attr, None)
        if isinstance(value, int):
            return value
    response = getattr(exc, 'response', None)
    return getattr(response, 'status_code', None)


class Signaller(object):
    """Sends the signals of one deployment."""

    def __init__(self, inputs, retry, timeout):
        self.inputs = inputs
        self.retry = retry
        self.timeout = timeout
        if inputs.get('deploy_signal_id'):
            self.transport = 'url'
            self.target = safe_url(inputs['deploy_signal_id'])
        elif inputs.get('deploy_queue_id'):
            self.transport = 'zaqar'
            self.target = 'zaqar queue %s' % inputs['deploy_queue_id']
        elif inputs.get('deploy_auth_url'):
            self.transport = 'heat'
            self.target = 'resource %s of stack %s' % (
                inputs.get('deploy_resource_name'),
                inputs.get('deploy_stack_id'))
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
                'ZAQAR_SIGNAL is not supported by heat-lifecycle-agent; use '
                'HEAT_SIGNAL, CFN_SIGNAL or TEMP_URL_SIGNAL')
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
        verb = (self.inputs.get('deploy_signal_verb') or 'POST').upper()
        response = requests.request(
            verb, self.inputs['deploy_signal_id'], data=data,
            headers={'Content-Type': 'application/json'},
            timeout=self.timeout)
        response.raise_for_status()
        return response.status_code

    def _heat_client(self):
        from heatclient import client as heat_client
        from keystoneauth1.identity import v3
        from keystoneauth1 import session as ks_session
        auth = v3.Password(
            auth_url=self.inputs['deploy_auth_url'],
            user_id=self.inputs.get('deploy_user_id') or None,
            username=(None if self.inputs.get('deploy_user_id')
                      else self.inputs.get('deploy_username')),
            password=self.inputs.get('deploy_password'),
            project_id=self.inputs.get('deploy_project_id'))
        session = ks_session.Session(auth=auth, timeout=self.timeout)
        return heat_client.Client(
            '1', session=session, service_type='orchestration',
            region_name=self.inputs.get('deploy_region_name') or None)

    def _send_heat(self, body, data):
        heat = self._heat_client()
        heat.resources.signal(self.inputs.get('deploy_stack_id'),
                              self.inputs.get('deploy_resource_name'),
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
        url = self.inputs.get('deploy_signal_id')
        if url:
            text = text.replace(url, safe_url(url))
            query = parse.urlsplit(url).query
            if query:
                text = text.replace(query, '***')
        password = self.inputs.get('deploy_password')
        if password:
            text = text.replace(password, '***')
        return text if len(text) < 500 else text[:500] + '...'


def _is_connection_error(exc):
    from keystoneauth1 import exceptions as ks_exc
    return isinstance(exc, (requests.ConnectionError, requests.Timeout,
                            ks_exc.ConnectionError))
