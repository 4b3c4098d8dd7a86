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
"""A second heat-engine host takes over when the first dies for good.

The cloud's heat-engine and another heat-engine service with its own
`host` name (as on a second machine) share the database and the broker.
The case finds, in the two engines' logs, the one that runs the resource
under test, SIGKILLs its master and workers and never starts it again
while the case runs; the other host is all Heat has. Cases 11 (a chain's
create) and 12 (a deployment waiting for its signal) of the fault tier.
"""

import time

import pytest

from tests.e2e.test_signal_path import deployment
from tests.e2e.test_signal_path import wait_for
from tests.fault.conftest import case
from tests.fault import test_chain_faults as chains
from tests.fault import test_deployment_faults as deployments

SECOND_HOST = 'engine-b'


class EngineHosts(object):
    """The cloud's two heat-engine hosts, by process name."""

    def __init__(self, heat):
        self.heat = heat
        self.names = ['heat-engine', heat.start_engine_host(SECOND_HOST)]

    def running_resource(self, resource, stack_id):
        """The host whose log shows it creating `resource` of the stack.

        resource: as Heat logs it, e.g. 'ResourceChain "chain"'.
        """
        wanted = 'creating %s Stack ' % resource
        found = []
        for name in self.names:
            with open(self.heat.log_of(name), errors='replace') as f:
                if any(wanted in line and stack_id in line for line in f):
                    found.append(name)
        assert len(found) == 1, 'hosts that logged %s: %s' % (wanted, found)
        return found[0]

    def kill_for_good(self, name, row):
        """SIGKILL host `name`; the row's recovery time runs from now."""
        self.heat.running(name).stop(kill=True)
        row.back_at = time.monotonic()
        row.down = None

    def restore(self):
        """The cloud's own engine running again, the second host gone."""
        for name in self.names:
            running = [p for p in self.heat.processes
                       if p.name == name and not p.stopped]
            if name == 'heat-engine' and not running:
                self.heat.restart(name)
            elif name != 'heat-engine' and running:
                running[0].stop()


@pytest.fixture
def engine_hosts(cloud):
    hosts = EngineHosts(cloud.heat)
    yield hosts
    hosts.restore()


@case(11, 'the heat-engine host running a chain\'s create SIGKILLed for '
          'good, a second host running on')
def test_a_second_host_takes_over_a_chain_create(
        driver, heat, engine_hosts, fault_row):
    stack_id = chains.creating_chain(driver, heat, 30, 8)
    host = engine_hosts.running_resource('ResourceChain "chain"', stack_id)
    engine_hosts.kill_for_good(host, fault_row)
    # The chain's create ran in the dead host's thread: nothing on the
    # other host ends it, the stack waits for an update.
    deployments.stays(heat, stack_id, 'CREATE_IN_PROGRESS', 30)
    chains.recover_with_update(driver, heat, stack_id, {'value': 'v1'})
    fault_row.recovered('stack update --existing, on the other host')
    chains.assert_chain_whole(driver, heat, stack_id, 30, 'v1')
    fault_row.outcome = (
        'left CREATE_IN_PROGRESS (30 s); after one update on the other host: '
        '30 members COMPLETE, each created once, no orphan, refs and '
        'attributes right')


@case(12, 'the heat-engine host running a deployment SIGKILLed for good '
          'while it waits for its signal, a second host running on')
def test_a_second_host_takes_a_waiting_deployment_s_signals(
        driver, heat, engine_hosts, fault_row, tmp_path):
    path = tmp_path / 'journal'
    stack_id = deployments.waiting_deployment(driver, path, 25)
    host = engine_hosts.running_resource('SoftwareDeployment "deployment"',
                                         stack_id)
    engine_hosts.kill_for_good(host, fault_row)
    # Only the other host is left to take the server's signals.
    wait_for(lambda: deployment(heat, stack_id).status == 'COMPLETE', 90,
             'the final signal landing on the other host')
    assert len(deployments.succeeded(driver, stack_id)) == 1
    # The create's wait ran in the dead host's thread: as after a restart
    # (case 2), one update ends it, running the tool again.
    fault_row.recovered(deployments.recovers_with_one_update(
        driver, heat, stack_id, 'CREATE_IN_PROGRESS', 30))
    assert heat.stacks.get(stack_id).stack_status == 'UPDATE_COMPLETE'
    assert deployments.journal(path, 'started') == 2
    assert deployment(heat, stack_id).status == 'COMPLETE'
    deployments.late_signal_is_an_event(driver, heat, stack_id)
    fault_row.outcome = (
        'signals landed on the other host (deployment COMPLETE), stack left '
        'CREATE_IN_PROGRESS; one update there: UPDATE_COMPLETE, tool runs: '
        '2, server kept; a late signal is an event')
