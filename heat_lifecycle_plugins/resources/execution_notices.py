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
"""Mistral tells an OS::Mistral::ExternalResource when an execution ends.

An action whose signals Heat takes (not DELETE or SUSPEND) starts its
execution with a webhook (Mistral's `notify`) to the resource's pre-signed
heat-api-cfn URL for the end events. The signal only records which
execution Mistral said ended (resource data, in the signal's RPC call, as
a deployment's signals are); the check that finds the record reads the
execution once from Mistral, so the webhook's body never decides a result.
A fallback poll every [heat_lifecycle_plugins]
mistral_notified_poll_interval seconds covers a notification Mistral lost
(it never sends one again). Read (the body), decide (notice(), pure),
write (the record). The credentials behind the URL (a stack-domain user
and its EC2 keypair, made on first use) go with the resource.
"""

import collections
import threading

from oslo_log import log as logging

from heat_lifecycle_plugins import action_requests
from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.resources import waiting_checks

LOG = logging.getLogger(__name__)

END_EVENTS = ('WORKFLOW_SUCCEEDED', 'WORKFLOW_FAILED', 'WORKFLOW_CANCELLED')
# Resource data: the id of the execution Mistral last said ended.
ENDED_KEY = 'mistral_ended_execution'
SIGNAL_EVENT = 'SIGNAL'
# Longest execution id taken from a body (Mistral's are 36-character UUIDs).
MAX_ID = 64

# How an action waits: told (a webhook URL) or polling, and why.
Waiting = collections.namedtuple('Waiting', 'url why')


def notice(details):
    """(the id of the execution that ended, or None; the event's reason).

    `details`: a signal's body, as Mistral's webhook sends it (an object
    with the execution's `id` and the `event`) or anything else.
    """
    if not isinstance(details, dict):
        return None, ('signal ignored: not a Mistral notification (an '
                      'object with id and event): %s' % protocol.shown(
                          details))
    execution_id, event = details.get('id'), details.get('event')
    if (not isinstance(execution_id, str) or not execution_id or
            len(execution_id) > MAX_ID or
            protocol.storable_id_problem(execution_id)):
        return None, ('signal ignored: the notification names no execution '
                      'id: %s' % protocol.shown(execution_id))
    if event not in END_EVENTS:
        return None, ('signal ignored: %s is not an end of execution %s '
                      '(ends: %s)' % (protocol.shown(event), execution_id,
                                      ', '.join(END_EVENTS)))
    return execution_id, 'Mistral: execution %s ended (%s)' % (execution_id,
                                                               event)


def with_webhook(params, url):
    """Execution params that also notify `url` of the end events.

    The template's own `notify` entries are kept.
    """
    params = dict(params or {})
    own = params.get('notify')
    hooks = list(own) if isinstance(own, list) else []
    hooks.append({'type': 'webhook', 'url': url,
                  'headers': {'Content-Type': 'application/json'},
                  'event_types': list(END_EVENTS)})
    params['notify'] = hooks
    return params


def waiting_reason(run, waiting, period, heat_action=None):
    """The start event's reason: the execution and how Heat waits for it.

    heat_action: Heat's action that runs it; a request's custom action
    (run.action, BACKUP) is named when it is not Heat's (UPDATE).
    """
    started = 'Mistral execution %s of workflow %s started%s' % (
        run.execution_id,
        protocol.shown(run.workflow, protocol.MAX_NAME_SHOWN),
        action_requests.started_for(run.action, heat_action or run.action))
    if waiting.url:
        return ('%s; Mistral tells its end to heat-api-cfn (fallback poll '
                'every %d s)' % (started, period))
    return '%s; polling it: %s' % (started, waiting.why)


def ended_reason(run, told):
    return 'Mistral execution %s ended: %s' % (
        run.execution_id, 'told by Mistral' if told else
        'found by the fallback poll (no notification came)')


def _stored_notices(resource_ids):
    return heat_internals.resource_data_values(ENDED_KEY, resource_ids)


# The checks of this engine process waiting for a notice. A signal whose
# RPC call lands in the same process wakes its check at once (wake()); one
# that another worker handled is found by the process's watch, within
# waiting_checks.WATCH_EVERY seconds.
WAITING = waiting_checks.WaitingChecks(_stored_notices)


def wake(execution_id):
    """Wake this process's checks waiting for `execution_id`'s notice."""
    WAITING.wake(execution_id)


class Notice(object):
    """Whether Mistral said `execution_id` ended, as wait_told asks it.

    A context manager: while inside, pause() can be woken by wake() or by
    the watch of `waiting` (WAITING by default).
    """

    def __init__(self, resource, execution_id, waiting=None):
        self.resource = resource
        self.execution_id = execution_id
        self._waiting = WAITING if waiting is None else waiting
        self._waiter = waiting_checks.Waiter(
            getattr(resource, 'id', None), execution_id, threading.Event())

    def __enter__(self):
        self._waiting.enter(self._waiter)
        return self

    def __exit__(self, *exc_info):
        self._waiting.leave(self._waiter)

    def pause(self, seconds):
        """Wait `seconds`, or less if woken; True if woken."""
        woken = self._waiter.event.wait(seconds)
        self._waiter.event.clear()
        return woken

    def ended(self):
        stored = heat_internals.resource_data_value(self.resource, ENDED_KEY)
        return stored == self.execution_id

    def dismiss(self):
        LOG.warning('%s: a notification said execution %s ended; it runs',
                    self.resource, self.execution_id)
        self.resource._forget(ENDED_KEY)
        self._waiting.again(self._waiter)


class ExecutionNotices(object):
    """Notices of ended executions (a mixin of ExternalResource)."""

    # Not a method: EngineService.resource_signal then runs the signal in
    # the RPC call, not in a thread of the stack's (see software_deployment).
    handle_signal = None
    signal_needs_metadata_updates = False
    # A signal only records a notice: no authenticated call follows it.
    requires_deferred_auth = False

    def _waiting(self, notify):
        """Waiting: how the current action's execution is waited for."""
        action = self.action
        if not notify:
            return Waiting(None, 'notifications are off ([heat_lifecycle_'
                                 'plugins] mistral_notify)')
        if action in self.no_signal_actions:
            return Waiting(None, 'Heat refuses signals during %s' % action)
        try:
            url = self._get_ec2_signed_url(never_expire=True)
        except Exception as exc:
            LOG.warning('%s: no signed heat-api-cfn URL, polling: %s',
                        self, exc)
            return Waiting(None, 'no signed heat-api-cfn URL: %s'
                           % protocol.storable_text(exc, 300))
        if not url:
            return Waiting(None, 'no signed heat-api-cfn URL (no EC2 '
                                 'keypair for the stack user)')
        return Waiting(url, None)

    def _get_user_id(self):
        """The signed URL's stack-domain user, or None.

        Not StackUser's: lacking one, it takes the physical id for a user
        id (a legacy of old resources) and stores it; ours is a Mistral
        thing's.
        """
        return self.data().get('user_id')

    def _handle_signal(self, details):
        """Record a notice of an ended execution; add its SIGNAL event."""
        ended, reason = notice(details)
        if ended is not None:
            self.data_set(ENDED_KEY, ended)
            wake(ended)
        else:
            LOG.info('%s: %s', self, reason)
        self._add_event(SIGNAL_EVENT, self.status,
                        protocol.storable_text(reason, 250))

    def _delete_notice_credentials(self):
        """Delete the URL's EC2 keypair and stack-domain user, if any.

        Keystone's errors fail the DELETE, so that none is left behind.
        """
        self._delete_user()  # its keypair first
