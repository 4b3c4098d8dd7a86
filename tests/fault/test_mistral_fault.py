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
"""Case 6: Mistral killed (SIGKILL) while an ExternalResource's CREATE
workflow runs, and started again on the same port and database.

The functional tier covers the outage grace and its failure reasons
(tests/functional/external_resource/test_outage.py, with a Mistral of its
own); here the cloud's Mistral, behind Keystone, as heat-engine finds it
in the catalog. The CREATE workflow waits in Mistral's scheduler, then
makes its thing: after the outage the stack completes with one thing.
"""

from heat_lifecycle_fixtures import faults
from tests.e2e.test_signal_path import wait_for
from tests.fault.conftest import case
from tests.functional.external_resource.conftest import create_template
from tests.functional.external_resource.conftest import TEST_WORKFLOWS

WAITING = create_template('create_after_wait', 'wait')


def waiting_execution(mistral, known):
    """The new create_after_wait execution, once its task waits."""
    for execution in mistral.executions.list(limit=-1):
        if (execution.workflow_name == 'create_after_wait' and
                execution.id not in known and any(
                    t.state in ('DELAYED', 'RUNNING_DELAYED') for t in
                    mistral.tasks.list(workflow_execution_id=execution.id))):
            return execution
    return None


@case(6, 'Mistral SIGKILLed while an ExternalResource CREATE workflow '
         'runs')
def test_mistral_killed_mid_workflow(driver, heat, cloud, thing_store,
                                     mistral_workflows, fault_row):
    mistral = mistral_workflows  # the example's workflows, thing_delete too
    names = {w.name for w in mistral.workflows.list()}
    if 'create_after_wait' not in names:
        mistral.workflows.create(TEST_WORKFLOWS)
    known = {e.id for e in mistral.executions.list(limit=-1)}
    things_before = set(thing_store.things())
    stack_id = driver.create(WAITING, {'store': thing_store.url, 'wait': 8},
                             wait=False)
    wait_for(lambda: waiting_execution(mistral, known), 120,
             'the CREATE workflow waiting')
    with faults.outage(cloud.mistral, kill=True, at_least=4) as down:
        pass
    fault_row.back(down)
    driver.wait(stack_id, 'CREATE', timeout=120)
    fault_row.recovered('none: the workflow went on after the restart')
    thing_id = heat.resources.get(stack_id, 'thing').physical_resource_id
    made = [i for i, t in thing_store.things().items()
            if i not in things_before]
    assert made == [thing_id]
    fault_row.outcome = ('CREATE_COMPLETE; the workflow finished after the '
                         'restart, one thing made')
