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
"""The bodies the agent signals to Heat: progress, and the result.

A result carries the outputs by name, deploy_stdout, deploy_stderr and
deploy_status_code; when the deployment is status-aware also deploy_status
and deploy_status_reason. It fits Heat's request size limit, and the
deployment's secrets are scrubbed from its logs.
"""

from oslo_log import log as logging

from heat_lifecycle_plugins.agent import hook_runner
from heat_lifecycle_plugins.agent import trim
from heat_lifecycle_plugins import protocol

LOG = logging.getLogger(__name__)

# How the agent marks its own lines in a tool's stderr.
AGENT_NOTE = '[heat-lifecycle-agent] '


def progress(deployment, tool):
    """The IN_PROGRESS signal sent before `tool`'s hook starts."""
    return {
        protocol.DEPLOY_STATUS: protocol.IN_PROGRESS,
        protocol.DEPLOY_STATUS_REASON:
            'heat-lifecycle-agent started %s hook for %s%s' % (
                tool, deployment.name,
                ' (action %s)' % deployment.action
                if deployment.action else ''),
    }


def heartbeat(deployment, tool, seconds):
    """The IN_PROGRESS signal sent while `tool`'s hook still runs."""
    return {
        protocol.DEPLOY_STATUS: protocol.IN_PROGRESS,
        protocol.DEPLOY_STATUS_REASON:
            '%s hook still running after %d s' % (tool, seconds),
    }


def milestone(deployment, tool, reached, replaced):
    """The IN_PROGRESS signal of a milestone the tool reported.

    reached: a milestones.Milestone; replaced: how many earlier ones it
    stands for (not sent). Scrubbed of the deployment's secrets.
    """
    reason = '%s hook: %s' % (tool, deployment.redactor.text(
        reached.message))
    if reached.percent is not None:
        reason += ' (%d%%)' % reached.percent
    if replaced:
        reason += ' [%d earlier milestone%s not sent]' % (
            replaced, '' if replaced == 1 else 's')
    return {protocol.DEPLOY_STATUS: protocol.IN_PROGRESS,
            protocol.DEPLOY_STATUS_REASON: reason}


def result(outcome, deployment):
    """The final signal for a hook_runner.HookResult."""
    scrub = deployment.redactor.text
    body = dict(outcome.outputs)
    stderr = scrub(outcome.stderr)
    if outcome.reason:
        stderr += ('\n' if stderr else '') + AGENT_NOTE + scrub(
            outcome.reason)
    body[protocol.DEPLOY_STDOUT] = scrub(outcome.stdout)
    body[protocol.DEPLOY_STDERR] = stderr
    body[protocol.DEPLOY_STATUS_CODE] = outcome.status_code
    if deployment.status_aware:
        body[protocol.DEPLOY_STATUS] = (protocol.FAILED if outcome.failed
                                        else protocol.COMPLETE)
        # A reason may quote the tool (its failed task's message).
        body[protocol.DEPLOY_STATUS_REASON] = protocol.storable_text(
            scrub(outcome.reason) if outcome.reason else (
                'Deployment succeeded' if not outcome.failed else
                'Deployment exited with status %s' % outcome.status_code))
    return body


def fit(body, max_bytes, status_aware, name):
    """`body` within Heat's size limit, saying what was trimmed."""
    fitted, trimmed = trim.fit(body, max_bytes)
    if fitted is None:
        LOG.error('Deployment %s: its outputs alone exceed %d bytes; '
                  'signalling failure without them', name, max_bytes)
        fitted = {
            protocol.DEPLOY_STDOUT: '',
            protocol.DEPLOY_STATUS_CODE: hook_runner.ERROR_STATUS,
            protocol.DEPLOY_STDERR:
                AGENT_NOTE + 'the outputs of the deployment exceed the '
                '%d-byte signal limit and were dropped' % max_bytes}
        if status_aware:
            fitted[protocol.DEPLOY_STATUS] = protocol.FAILED
            fitted[protocol.DEPLOY_STATUS_REASON] = fitted[
                protocol.DEPLOY_STDERR]
        return fitted
    if trimmed:
        LOG.warning('Deployment %s: %d characters trimmed from the start of '
                    '%s/%s to fit %d bytes', name, trimmed,
                    protocol.DEPLOY_STDOUT, protocol.DEPLOY_STDERR,
                    max_bytes)
        if status_aware:
            fitted[protocol.DEPLOY_STATUS_REASON] += (
                ' (%d characters of output trimmed to fit the signal)'
                % trimmed)
    return fitted
