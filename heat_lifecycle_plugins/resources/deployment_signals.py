"""What a signal means for a software deployment, and how it is stored.

Heat handles HEAT_SIGNAL and CFN_SIGNAL signals concurrently, one thread per
signal. A signal is therefore read (snapshot), interpreted (interpret) and
then written only if the deployment is still IN_PROGRESS with the same
derived config (store_if_in_progress, a compare-and-swap UPDATE ... WHERE):
a progress signal can never overwrite a COMPLETE or FAILED that raced it,
and a late signal can never complete the next action's deployment.
"""

import collections

from oslo_log import log as logging
from oslo_utils import timeutils

from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins import protocol

LOG = logging.getLogger(__name__)

# What a deployment looks like when a signal is read.
Snapshot = collections.namedtuple(
    'Snapshot', 'id action status config_id outputs output_values')

# reason: the text of the SIGNAL event; values: the columns to store, or
# None when the signal changes nothing.
Outcome = collections.namedtuple('Outcome', 'reason values')

MAX_SHOWN = 200
# Heat cuts an event's reason at 255 characters: the end of stderr that a
# failure's reason quotes stays well inside that.
MAX_STDERR_SHOWN = 120


def _shown(value):
    text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + '...'


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
                    sd.config.get('outputs') or [], sd.output_values)


def interpret(sd, details):
    """The Outcome of signal `details` for deployment snapshot `sd`."""
    if details is not None and not isinstance(details, dict):
        return Outcome(
            'deployment %s: signal ignored, its body must be a map of '
            'outputs and deploy_* values, not %s %s' % (
                sd.id, type(details).__name__, _shown(details)), None)
    details = details or {}
    status = details.get(protocol.DEPLOY_STATUS)
    if status is not None and status not in protocol.STATUSES:
        return Outcome(
            'deployment %s: signal ignored, unknown %s %s (expected one of '
            '%s)' % (sd.id, protocol.DEPLOY_STATUS, _shown(status),
                     ', '.join(protocol.STATUSES)), None)
    if sd.status != protocol.IN_PROGRESS:
        return Outcome(
            'deployment %s: signal ignored, the deployment is not in '
            'progress (%s %s): late, duplicate or for a previous action' % (
                sd.id, sd.action, sd.status), None)
    if status == protocol.IN_PROGRESS:
        text = str(details.get(protocol.DEPLOY_STATUS_REASON) or
                   'no reason given')
        return Outcome('deployment %s in progress: %s' % (sd.id, text),
                       {'status_reason': 'In progress: %s' % text})
    return _final_outcome(sd, details, status)


def _final_outcome(sd, details, status):
    values = dict(sd.output_values)
    failures = []
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
        reason = ', '.join(failures)
        return Outcome('deployment %s failed: %s' % (sd.id, reason),
                       {'output_values': values, 'status': protocol.FAILED,
                        'status_reason': reason})
    return Outcome('deployment %s succeeded' % sd.id,
                   {'output_values': values, 'status': protocol.COMPLETE,
                    'status_reason': 'Outputs received'})


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
    outcome = interpret(sd, details)
    if outcome.values is None or store_if_in_progress(context, sd,
                                                      outcome.values):
        return outcome.reason
    return ('deployment %s: signal ignored, the deployment left IN_PROGRESS '
            'while the signal was handled (a concurrent signal or action won)'
            % sd.id)
