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
"""Whether an update of an OS::Mistral::ExternalResource replaces it.

UpdateDecisions, mixed into ExternalResource: a changed input listed in
replace_on_change_inputs replaces; a CHECK_FAILED resource whose thing is
different (not missing) is repaired in place by the UPDATE workflow; a
failed day-two request is not replaced; otherwise the replace_decision
workflow, when there is one, decides.
"""

from heat.common import exception
from heat.engine import resource
from oslo_log import log as logging

from heat_lifecycle_plugins import config
from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins.resources import common
from heat_lifecycle_plugins.resources import execution_results as results
from heat_lifecycle_plugins.resources import workflow_runs

LOG = logging.getLogger(__name__)


class UpdateDecisions(object):
    """Replace or update (a mixin of ExternalResource)."""

    # -- update decisions --------------------------------------------------

    def _repairs(self):
        """Whether an update repairs a CHECK_FAILED resource in place.

        Yes if the CHECK found the thing different (not missing) and there
        is an UPDATE workflow to run; Heat replaces it otherwise.
        """
        drift = self._drift()
        return bool((self.action, self.status) == (self.CHECK, self.FAILED)
                    and drift is not None
                    and drift.drift == results.DIFFERENT
                    and self._action_spec(self.UPDATE))

    @property
    def always_replace_on_check_failed(self):
        return not self._repairs()

    def needs_replace_failed(self):
        # A failed request (a custom action) leaves the thing as it was:
        # the next update runs in place.
        if common.failed_in_request(self):
            return False
        return not self._repairs()

    def _new_value(self, after_props, name):
        """after_props[name]; a value Heat refuses names the property.

        Read before Heat validates the new properties: a value that came
        through get_attr is checked here first.
        """
        try:
            return after_props[name]
        except (TypeError, ValueError) as exc:
            raise exception.StackValidationFailed(
                error='Property error', path=common.property_path(self, name),
                message=protocol.storable_text(exc))

    def _needs_update(self, after, before, after_props, before_props,
                      prev_resource, check_init_complete=True):
        old_input = before_props[self.INPUT] or {}
        new_input = self._new_value(after_props, self.INPUT) or {}
        for name in self._new_value(after_props,
                                    self.REPLACE_ON_CHANGE) or []:
            if old_input.get(name) != new_input.get(name):
                LOG.info('%(res)s: input %(name)s changed; replacing',
                         {'res': self, 'name': name})
                raise resource.UpdateReplace(self)
        # Heat's own rules first: a FAILED resource is replaced, never
        # "repaired" by the UPDATE workflow (but for a thing CHECK found
        # different, see _repairs).
        changed = super(UpdateDecisions, self)._needs_update(
            after, before, after_props, before_props, prev_resource,
            check_init_complete)
        if self._repairs():
            return True
        if (changed and old_input != new_input and
                self._new_value(after_props, self.REPLACE_DECISION) and
                self._decides_replace(after_props, old_input)):
            raise resource.UpdateReplace(self)
        return changed or bool(self._new_value(after_props,
                                               self.ALWAYS_UPDATE))

    def _decides_replace(self, props, old_input):
        """Run the replace_decision workflow and wait: True to replace.

        Heat waits for it before updating; its errors fail the update.
        """
        timeout = workflow_runs.opts().mistral_decision_timeout
        watch = None
        try:
            watch = self._start(workflow_runs.DECISION, props, spec=props[
                self.REPLACE_DECISION], extra_env={
                    results.ENV_PREVIOUS_INPUT: old_input}, notify=False)
            execution = self._poll_until(watch, timeout, horizon=timeout)
            if execution is None:
                self._cancel_execution(watch.run, 'no decision in %d s'
                                       % timeout)
                raise workflow_runs.WorkflowFailed(
                    'replace_decision workflow %s did not decide within %d '
                    's ([%s] mistral_decision_timeout), execution %s' % (
                        watch.run.workflow, timeout, config.GROUP.name,
                        watch.run.execution_id))
            replace, failure = results.replace_decision(
                watch.run, execution,
                self._tasks(watch.run, execution.state))
            if failure is not None:
                raise workflow_runs.FAILURES[failure.kind](failure.reason)
        except Exception as exc:
            # Raised before Heat records an UPDATE: the failure must be a
            # ResourceFailure for the stack to fail (and not hang).
            raise exception.ResourceFailure(exc, self, self.UPDATE)
        LOG.info('%(res)s: replace_decision workflow %(wf)s decided to '
                 '%(what)s', {'res': self, 'wf': watch.run.workflow,
                              'what': 'replace' if replace else 'update'})
        return replace
