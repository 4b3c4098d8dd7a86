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
"""What a signal means for a software deployment, and how it is stored.

Signals to our deployments run in the engine's RPC call (see
deployment_waiting), several at once. A signal is therefore read
(snapshot), decided (signal_outcome) and then written only if the deployment
is still IN_PROGRESS with the same derived config (store_if_in_progress, a
compare-and-swap UPDATE ... WHERE): a progress signal can never overwrite a
COMPLETE or FAILED that raced it, and a late signal can never complete the
next action's deployment. Deadlines (expired_reason) are decided the same
way, from a snapshot, and stored with the same compare-and-swap.
"""

import collections

from oslo_log import log as logging
from oslo_utils import timeutils

from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import protocol

LOG = logging.getLogger(__name__)

# What a deployment looks like when a signal is read. updated_at: a naive
# UTC datetime (Heat's column), or None.
Snapshot = collections.namedtuple(
    'Snapshot', 'id action status config_id outputs output_values '
                'status_reason updated_at',
    defaults=('', None))

# reason: the text of the SIGNAL event; values: the columns to store, or
# None when the signal changes nothing.
Outcome = collections.namedtuple('Outcome', 'reason values')

MAX_SHOWN = 200
# Heat cuts an event's reason at 255 characters: the end of stderr that a
# failure's reason quotes stays well inside that.
MAX_STDERR_SHOWN = 120
# The deployment's status_reason is a TEXT column (64 KiB in MySQL, which
# refuses more in strict mode); a reason longer than this keeps its start
# and end around a note (4 bytes a character at most: well inside).
MAX_REASON_CHARS = 4096
CUT_NOTE = ' [... %d characters cut: a status reason keeps at most %d ...] '

# How a progress signal's reason is stored: a deployment whose
# status_reason starts so has heard from its server during this action.
PROGRESS_PREFIX = 'In progress: '
OUTPUTS_RECEIVED = 'Outputs received'

# The deadline properties, as the reasons name them.
START_TIMEOUT, RUN_TIMEOUT = 'start_timeout', 'run_timeout'
NEVER_STARTED = (
    'the server never started the deployment in %(limit)d s (%(name)s): no '
    'signal arrived. Likely causes: server not booted, agent not polling, '
    'metadata server unreachable, signals blocked')
STILL_RUNNING = ('still running after %(limit)d s (%(name)s); last '
                 'progress: %(progress)s at %(at)s')


# The engine's database or message bus restarting, as a check meets it (an
# RPC call to the engine reports the engine's error as a RemoteError that
# names it): the check polls again; the deadlines and the stack's timeout
# still end the wait.
OUTAGE_ERRORS = ('DBConnectionError', 'MessagingTimeout')


def outage_of(error):
    """The name of the outage `error` reports; None for a real failure."""
    name = getattr(error, 'exc_type', None) or type(error).__name__
    return name if name in OUTAGE_ERRORS else None


def bounded(text, limit=MAX_REASON_CHARS):
    """`text` if it fits `limit` characters, else its start and end.

    Between them a note says how much was cut. Characters the database
    cannot hold (protocol.storable_text) are replaced.
    """
    text = protocol.storable_text(text, limit=None)  # cut below
    if len(text) <= limit:
        return text
    kept = limit - len(CUT_NOTE % (len(text), limit))
    head, tail = kept - kept // 2, kept // 2
    note = CUT_NOTE % (len(text) - kept, limit)
    return text[:head] + note + text[len(text) - tail:]


def _tail(text, said=(), limit=MAX_STDERR_SHOWN):
    """The end of a tool's stderr as one line (the end says what failed).

    Without the lines that repeat what `said` already says (an agent's note of
    its own reason).
    """
    lines = [line.strip() for line in str(text or '').splitlines()]
    text = ' | '.join(line for line in lines
                      if line and not any(s in line for s in said))
    return text if len(text) <= limit else '...' + text[-limit:]


def snapshot(context, deployment_id):
    """The deployment's state, read through Heat's DB API."""
    sd = heat_internals.software_deployment_row(context, deployment_id)
    return Snapshot(sd.id, sd.action, sd.status, sd.config_id,
                    sd.config.get('outputs') or [], sd.output_values,
                    sd.status_reason or '', sd.updated_at)


def signal_outcome(sd, details):
    """The Outcome of signal `details` for deployment snapshot `sd`."""
    if details is not None and not isinstance(details, dict):
        return Outcome(
            'deployment %s: signal ignored, its body must be a map of '
            'outputs and deploy_* values, not %s %s' % (
                sd.id, type(details).__name__,
                protocol.shown(details, MAX_SHOWN)), None)
    if sd.status != protocol.IN_PROGRESS:
        return Outcome(
            'deployment %s: signal ignored, the deployment is not in '
            'progress (%s %s): late, duplicate or for a previous action' % (
                sd.id, sd.action, sd.status), None)
    if details is None:
        # As in-tree: no body completes (heat-api passes no body for one
        # that is not a JSON map).
        outcome = _final_outcome(sd, {}, None)
        return outcome._replace(reason=outcome.reason + ' (a signal without '
                                'a body: no outputs; heat-api drops a body '
                                'that is not a JSON map)')
    status = details.get(protocol.DEPLOY_STATUS)
    if status == protocol.IN_PROGRESS:
        text = bounded(details.get(protocol.DEPLOY_STATUS_REASON) or
                       'no reason given')
        return Outcome('deployment %s in progress: %s' % (sd.id, text),
                       {'status_reason': PROGRESS_PREFIX + text})
    return _final_outcome(sd, details, status)


def _final_outcome(sd, details, status):
    """A final signal: COMPLETE, or FAILED with the causes it carries.

    An unknown deploy_status fails the deployment naming the value: the
    agent speaks a protocol this engine does not, and guessing could
    report success for a failure (or wait for ever).
    """
    values = dict(sd.output_values)
    failures = []
    if status is not None and status not in protocol.STATUSES:
        failures.append('unknown %s %s (expected one of %s)' % (
            protocol.DEPLOY_STATUS, protocol.shown(status, MAX_SHOWN),
            ', '.join(protocol.STATUSES)))
    if status == protocol.FAILED:
        failures.append(str(details.get(protocol.DEPLOY_STATUS_REASON) or
                            '%s FAILED without a %s' % (
                                protocol.DEPLOY_STATUS,
                                protocol.DEPLOY_STATUS_REASON)))
    code = details.get(protocol.DEPLOY_STATUS_CODE)
    if code and str(code) != '0':
        failures.append('Deployment exited with non-zero status code: %s'
                        % code)
    for output in sd.outputs:
        name = output[protocol.IO_NAME]
        if name in details:
            values[name] = details[name]
            if output.get(protocol.IO_ERROR_OUTPUT):
                failures.append('%s : %s' % (name, details[name]))
    for name in protocol.STANDARD_OUTPUTS:
        values[name] = details.get(name)
    if failures:
        stderr_tail = _tail(values.get(protocol.DEPLOY_STDERR), failures)
        if stderr_tail:
            failures.append('stderr: %s' % stderr_tail)
        # Nothing lost on failure: the attribute is text, never None.
        values[protocol.DEPLOY_STDERR] = (
            values.get(protocol.DEPLOY_STDERR) or '')
        reason = bounded(', '.join(failures))
        return Outcome('deployment %s failed: %s' % (sd.id, reason),
                       {'output_values': values, 'status': protocol.FAILED,
                        'status_reason': reason})
    return Outcome('deployment %s succeeded' % sd.id,
                   {'output_values': values, 'status': protocol.COMPLETE,
                    'status_reason': OUTPUTS_RECEIVED})


def store_if_in_progress(context, sd, values):
    """Write values iff the deployment is still IN_PROGRESS on sd's config.

    Returns True if written; False if another signal or action won the race.
    """
    values = dict(values, updated_at=timeutils.utcnow())
    rows = heat_internals.update_software_deployment_where(
        context, sd.id,
        {'config_id': sd.config_id, 'status': protocol.IN_PROGRESS}, values)
    LOG.debug('Deployment %(id)s signal stored: %(rows)s row(s)',
              {'id': sd.id, 'rows': rows})
    return rows == 1


def handle(context, deployment_id, details):
    """Apply one signal; return the reason for the resource's SIGNAL event."""
    sd = snapshot(context, deployment_id)
    outcome = signal_outcome(sd, details)
    if outcome.values is None or store_if_in_progress(context, sd,
                                                      outcome.values):
        return outcome.reason
    return ('deployment %s: signal ignored, the deployment left IN_PROGRESS '
            'while the signal was handled (a concurrent signal or action won)'
            % sd.id)


# -- deadlines ---------------------------------------------------------------

def _utc_text(when):
    return when.strftime('%Y-%m-%dT%H:%M:%SZ') if when else 'an unknown time'


def expired_reason(sd, elapsed, start_timeout=None, run_timeout=None):
    """Why deployment `sd` must fail `elapsed` seconds after delivery, or None.

    start_timeout: seconds the server may take to send its first signal
    of any kind; run_timeout: seconds the whole deployment may take. None:
    no such deadline.
    """
    if sd.status != protocol.IN_PROGRESS:
        return None
    started = sd.status_reason.startswith(PROGRESS_PREFIX)
    limits = [(run_timeout, RUN_TIMEOUT)]
    if not started:
        limits.append((start_timeout, START_TIMEOUT))
    expired = sorted((limit, name) for limit, name in limits
                     if limit is not None and elapsed >= limit)
    if not expired:
        return None
    limit, name = expired[0]
    if not started:
        return NEVER_STARTED % {'limit': limit, 'name': name}
    return STILL_RUNNING % {
        'limit': limit, 'name': name,
        'progress': sd.status_reason[len(PROGRESS_PREFIX):],
        'at': _utc_text(sd.updated_at)}


def enforce_deadlines(context, deployment_id, elapsed, start_timeout,
                      run_timeout):
    """Fail the deployment if a deadline passed; the reason, or None.

    None also when a signal ended the deployment first (it wins the
    compare-and-swap; the caller's next check sees it).
    """
    sd = snapshot(context, deployment_id)
    reason = expired_reason(sd, elapsed, start_timeout, run_timeout)
    if reason is None:
        return None
    reason = bounded(reason)
    if not store_if_in_progress(context, sd, {'status': protocol.FAILED,
                                              'status_reason': reason}):
        return None
    LOG.info('Deployment %(id)s: %(reason)s',
             {'id': deployment_id, 'reason': reason})
    return reason
