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
"""Faults while a ResourceChain creates or updates its members.

Members are OS::Heat::TestResource (each waits a little, so that the fault
lands mid-chain). What counts: after the recovery, every member is COMPLETE
and was created once (one CREATE_COMPLETE event per member name, the same
physical ids after an in-place update), the chain's nested stack holds its
members and nothing else, and the chain's attributes list them in order.
Cases 1 (heat-engine SIGKILLed) and 5 (RabbitMQ restarted) of the tier.
"""

import collections
import time

from heat_lifecycle_fixtures import faults
from tests.e2e.test_signal_path import wait_for
from tests.fault.conftest import case

TEMPLATE = """
heat_template_version: 2016-10-14
parameters:
  value:
    type: string
resources:
  chain:
    type: OS::Heat::ResourceChain
    properties:
      concurrent: %(concurrent)s
      concurrency_limit: %(limit)s
      resources: %(types)s
      resource_properties:
        value: {get_param: value}
        action_wait_secs: {create: %(wait)s, update: %(wait)s}
outputs:
  refs:
    value: {get_attr: [chain, refs]}
  values:
    value: {get_attr: [chain, attributes, output]}
"""


MEMBER_TYPE = 'OS::Heat::TestResource'


def template(members, concurrent=False, wait=1, limit=10):
    return TEMPLATE % {'concurrent': str(concurrent).lower(), 'wait': wait,
                       'types': [MEMBER_TYPE] * members, 'limit': limit}


def nested_id(heat, stack_id):
    return heat.resources.get(stack_id, 'chain').physical_resource_id


def members(heat, stack_id):
    """{member name: resource} of the chain's nested stack.

    A concurrent chain's stack also holds its end marker (chain_end).
    """
    return {r.resource_name: r
            for r in heat.resources.list(nested_id(heat, stack_id))
            if r.resource_type == MEMBER_TYPE}


def member_events(driver, stack_id, status, names):
    """{member name: how many `status` events} of the chain's members."""
    counts = collections.Counter(
        e.resource_name for e in driver.events(stack_id)
        if e.resource_status == status)
    return {name: counts[name] for name in names}


def completed(heat, stack_id, action):
    return sum(1 for r in members(heat, stack_id).values()
               if r.resource_status == '%s_COMPLETE' % action)


def creating_chain(driver, heat, count, created):
    """A sequential chain of `count` being created, `created` done."""
    stack_id = driver.create(template(count), {'value': 'v1'}, wait=False)
    wait_for(lambda: completed(heat, stack_id, 'CREATE') >= created, 180,
             '%d members created' % created)
    return stack_id


def recover_with_update(driver, heat, stack_id, params):
    """`openstack stack update --existing`, waited for; the old state."""
    stack = heat.stacks.get(stack_id)
    heat.stacks.update(stack_id, existing=True, parameters=params)
    driver.wait(stack_id, 'UPDATE', timeout=240)
    return stack.stack_status


# heat-api answers HTTP 500 to a read its engine call lost while the
# broker restarted; a user reads again. More than this many fail the case.
SERVER_ERRORS_TOLERATED = 3


def server_error(exc):
    """`exc` as 'HTTP 500 (MessagingTimeout)', or None if not a 5xx."""
    code = getattr(exc, 'code', None)
    if not isinstance(code, int) or code < 500:
        return None
    error = getattr(exc, 'error', None) or {}
    kind = (error.get('error') or {}).get('type') if isinstance(
        error, dict) else None
    return 'HTTP %d (%s)' % (code, kind or type(exc).__name__)


def wait_reading_again(driver, stack_id, action, timeout):
    """driver.wait, reading again after a 5xx; the 5xx answers seen."""
    deadline = time.monotonic() + timeout
    answered = []
    while True:
        try:
            driver.wait(stack_id, action,
                        timeout=max(1, deadline - time.monotonic()))
            return answered
        except Exception as exc:
            error = server_error(exc)
            if error is None:
                raise
            answered.append(error)
            if len(answered) > SERVER_ERRORS_TOLERATED:
                raise AssertionError('heat-api kept answering 5xx: %s'
                                     % ', '.join(answered)) from exc
            time.sleep(1)


def assert_chain_whole(driver, heat, stack_id, count, value, replaced=()):
    """Every member COMPLETE, in order, nothing else; returns them.

    Each member was created once, but those `replaced` (Heat replaces a
    resource its dead engine left FAILED): twice, the first one deleted.
    """
    found = members(heat, stack_id)
    names = [str(i) for i in range(count)]
    assert sorted(found) == sorted(names), sorted(found)
    assert all(r.resource_status.endswith('_COMPLETE')
               for r in found.values()), [
        (n, r.resource_status) for n, r in found.items()]
    expected = {n: 2 if n in replaced else 1 for n in names}
    assert member_events(driver, stack_id, 'CREATE_COMPLETE',
                         names) == expected
    # A replaced member's first self is deleted (so may be one that was
    # being created when the engine died): none is left behind.
    deleted = member_events(driver, stack_id, 'DELETE_COMPLETE', names)
    assert all(deleted[n] == 1 if n in replaced else deleted[n] <= 1
               for n in names), deleted
    outputs = driver.outputs(stack_id)
    assert outputs['refs'] == [found[n].physical_resource_id
                               for n in names]
    assert outputs['values'] == dict.fromkeys(names, value)
    # No stray nested stack: the chain's own is its only child.
    children = [s for s in heat.stacks.list(show_nested=True)
                if getattr(s, 'parent', None) == stack_id]
    assert [s.id for s in children] == [nested_id(heat, stack_id)]
    return found


@case(1, 'heat-engine SIGKILLed (master and workers) mid-create of a '
         '30-member sequential chain')
def test_an_engine_killed_mid_create_of_a_sequential_chain(
        driver, heat, cloud, fault_row):
    stack_id = creating_chain(driver, heat, 30, 8)
    with faults.outage(cloud.heat.part('heat-engine'), kill=True) as down:
        pass
    fault_row.back(down)
    left = recover_with_update(driver, heat, stack_id, {'value': 'v1'})
    fault_row.recovered('stack update --existing')
    assert_chain_whole(driver, heat, stack_id, 30, 'v1')
    fault_row.outcome = (
        'left %s; after the update: 30 members COMPLETE, each created once, '
        'no orphan, refs and attributes right' % left)


@case(1, 'heat-engine SIGKILLed mid-update of a concurrent chain that '
         'changes resource_properties')
def test_an_engine_killed_mid_update_of_a_concurrent_chain(
        driver, heat, cloud, fault_row):
    """Some members updated in place, some replaced.

    Both halves seen failing on 2026.2 (2026-11-28), each broken once:
    odd members given update_replace in chain_plan.chain_template (the
    first assertion: 1, 3, 5, 7, 9 replaced, only 6 and 8 interrupted);
    Heat's Resource.needs_replace_failed returning False (no interrupted
    member replaced).
    """
    # Two waves of 5 lanes: the engine dies while the second updates,
    # once the first is done.
    body = template(10, concurrent=True, wait=4, limit=5)
    stack_id = driver.create(body, {'value': 'v1'})
    ids = {n: r.physical_resource_id
           for n, r in members(heat, stack_id).items()}
    heat.stacks.update(stack_id, template=body, parameters={'value': 'v2'})
    wait_for(lambda: completed(heat, stack_id, 'UPDATE') >= 3, 120,
             'the first members updated')
    with faults.outage(cloud.heat.part('heat-engine'), kill=True) as down:
        pass
    fault_row.back(down)
    # What the dead engine left: the members it was updating.
    interrupted = {n for n, r in members(heat, stack_id).items()
                   if r.resource_status in ('UPDATE_IN_PROGRESS',
                                            'UPDATE_FAILED')}
    assert interrupted, 'no member was updating when the engine died'
    left = recover_with_update(driver, heat, stack_id, {'value': 'v2'})
    fault_row.recovered('stack update --existing')
    after = {n: r.physical_resource_id
             for n, r in members(heat, stack_id).items()}
    # Only a member the dead engine was updating may be replaced: Heat
    # replaces one it marks FAILED ("Worker went down"); one it finds
    # still IN_PROGRESS, unlocked, it may update in place (seen once on
    # 2026.2: 3 of 4 replaced). Both halves: the members done before the
    # kill (at least 3) kept their ids, and some interrupted one was
    # replaced.
    replaced = {n for n in ids if after.get(n) != ids[n]}
    in_place = {n for n in ids if after.get(n) == ids[n]}
    assert replaced <= interrupted, (sorted(replaced), sorted(interrupted))
    assert len(in_place) >= 3 and set(ids) - interrupted <= in_place, (
        sorted(in_place), sorted(interrupted))
    assert replaced, 'no interrupted member replaced: %s' % sorted(
        interrupted)
    assert_chain_whole(driver, heat, stack_id, 10, 'v2', replaced)
    fault_row.outcome = (
        'left %s; after the update: all 10 members v2, %d updated in place '
        '(same ids); of the %d that were updating when the engine died, %d '
        'replaced by Heat (old ones deleted); no orphan, attributes right'
        % (left, 10 - len(replaced), len(interrupted), len(replaced)))


@case(5, 'RabbitMQ restarted (SIGTERM) mid-create of a 20-member chain')
def test_a_broker_restart_mid_create_of_a_chain(
        driver, heat, cloud, fault_row):
    stack_id = creating_chain(driver, heat, 20, 5)
    with faults.outage(cloud.rabbitmq, at_least=3) as down:
        pass
    fault_row.back(down)
    # The engine reconnects and the create goes on by itself: a case that
    # needs an update fails (its row says it needed nothing).
    answered = wait_reading_again(driver, stack_id, 'CREATE', timeout=180)
    fault_row.recovered('none: the create went on')
    assert_chain_whole(driver, heat, stack_id, 20, 'v1')
    fault_row.outcome = (
        'the create went on: 20 members COMPLETE, each created once, no '
        'orphan')
    if answered:
        fault_row.outcome += (
            '; heat-api answered %d read(s) just after the restart with %s, '
            'the next read worked' % (len(answered), ', '.join(answered)))
