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
"""Mistral stopped (SIGKILL) and started again while an action runs.

A rolling upgrade of Mistral: its own process is killed by its PID and
started again on the same port and database (fixtures.faults). The CREATE
workflow waits in Mistral's scheduler (wait-before, kept in its database),
then makes its thing. An outage shorter than mistral_outage_grace is ridden
through; a longer one fails the action naming the endpoint and how long it
was silent, and the next update or delete takes the execution's result in
(or cancels it): no thing is left behind.
"""

import pytest

from heat_lifecycle_fixtures import faults
from heat_lifecycle_fixtures.mistral import Mistral
from heat_lifecycle_fixtures.process import wait_until
from tests.functional.external_resource.conftest import create_template
from tests.functional.external_resource.conftest import executions_of
from tests.functional.external_resource.conftest import register_workflows
from tests.functional.external_resource.conftest import use_mistral

WAITING = create_template('create_after_wait', 'wait')


@pytest.fixture(scope='module')
def restartable(tmp_path_factory):
    """A Mistral of this module's own: the tests stop and start it."""
    with Mistral(str(tmp_path_factory.mktemp('mistral'))) as server:
        register_workflows(server)
        yield server


@pytest.fixture
def heat_on(heat, restartable):
    use_mistral(heat, restartable)
    yield heat


def _waiting_execution(mistral, known):
    """The new create_after_wait execution, once its task waits.

    Killed before, Mistral may not have stored the task's wait yet: the
    execution would then stay RUNNING for good.
    """
    def waiting():
        for execution in executions_of(mistral, 'create_after_wait'):
            if execution.id in known:
                continue
            tasks = mistral.client().tasks.list(
                workflow_execution_id=execution.id)
            if any(t.state in ('DELAYED', 'RUNNING_DELAYED')
                   for t in tasks):
                return execution
    return wait_until(waiting, 30, 'a waiting create_after_wait execution')


def _known(mistral):
    return {e.id for e in executions_of(mistral, 'create_after_wait')}


def _made_by(thing_store):
    return {i for i, t in thing_store.things().items()
            if t.get('state') == 'made-after-wait'}


def test_an_outage_shorter_than_the_grace_is_ridden_through(
        heat_on, restartable, thing_store, options):
    options(mistral_outage_grace=60)
    known = _known(restartable)
    ident = heat_on.create(WAITING, params={'store': thing_store.url,
                                            'wait': 8}, wait=False)
    _waiting_execution(restartable, known)
    with faults.outage(restartable, kill=True, at_least=4) as down:
        pass
    assert down.seconds >= 4
    heat_on.wait(ident, 'CREATE', timeout=90)
    thing_id = heat_on.physical_ids(ident)['thing']
    assert thing_store.things()[thing_id]['state'] == 'made-after-wait'
    # Heat's own events (ours say how the execution is waited for).
    statuses = [e['resource_status'] for e in heat_on.events(ident)
                if e['resource_name'] == 'thing' and not
                (e['resource_status_reason'] or '').startswith(
                    'Mistral execution')]
    assert statuses == ['IN_PROGRESS', 'COMPLETE']
    heat_on.delete(ident)
    assert thing_id not in thing_store.things()


def _fail_beyond_grace(heat, mistral, thing_store, wait):
    """Create, kill Mistral until the action fails; Mistral is back after.

    Returns the stack and the CREATE execution.
    """
    known = _known(mistral)
    ident = heat.create(WAITING, params={'store': thing_store.url,
                                         'wait': wait}, wait=False)
    execution = _waiting_execution(mistral, known)
    with faults.outage(mistral, kill=True):
        heat.wait(ident, 'CREATE', expect='FAILED', timeout=60)
    reason = heat.show(ident)['stack_status_reason']
    assert 'MistralUnreachable: resources.thing: Mistral at %s has not ' \
        'answered for ' % mistral.url in reason
    assert (' s, more than [heat_lifecycle_plugins] mistral_outage_grace '
            '(2 s), while execution %s of workflow create_after_wait ran'
            % execution.id) in reason
    # The execution is the physical id, for the DELETE to come.
    assert heat.physical_ids(ident) == {'thing': execution.id}
    return ident, execution


def test_beyond_the_grace_fails_and_an_update_recovers(
        heat_on, restartable, thing_store, options):
    options(mistral_outage_grace=2)
    before = _made_by(thing_store)
    ident, execution = _fail_beyond_grace(heat_on, restartable, thing_store,
                                          wait=10)
    # Mistral is back: the execution ends as planned and makes its thing.
    wait_until(lambda: restartable.client().executions.get(
        execution.id).state == 'SUCCESS', 60, 'the execution done')
    [made] = _made_by(thing_store) - before

    # The update replaces the failed resource; the old one's DELETE gets
    # the result its CREATE never read, and deletes that thing.
    heat_on.update(ident, WAITING, params={'store': thing_store.url,
                                           'wait': 0})
    new_id = heat_on.physical_ids(ident)['thing']
    things = thing_store.things()
    assert made not in things and new_id in things
    heat_on.delete(ident)
    assert _made_by(thing_store) == before


def test_beyond_the_grace_fails_and_a_delete_recovers(
        heat_on, restartable, thing_store, options):
    options(mistral_outage_grace=2)
    before = _made_by(thing_store)
    ident, execution = _fail_beyond_grace(heat_on, restartable, thing_store,
                                          wait=30)
    # Deleted while the execution still waits: it is cancelled, so it
    # never makes a thing.
    heat_on.delete(ident)
    assert restartable.client().executions.get(
        execution.id).state == 'CANCELLED'
    assert _made_by(thing_store) == before
