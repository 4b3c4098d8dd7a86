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
"""Day-two actions on a running stack, as its user runs them.

examples/day_two.yaml on a DeployedServer whose real agent runs the
scripts: BACKUP requested by `heat-lifecycle-plugins run-action` and by
the plain `openstack stack update --existing --parameter` form, twice in
all; the journal on the server shows each run once, nothing replaced; an
undefined action refused before anything changes; a failing BACKUP that
the next request recovers from.
"""

import os
import subprocess
import sys

from tests.e2e.conftest import example
from tests.e2e.test_software_component import journal_lines

DAY_TWO = example('day_two.yaml')


def as_demo(cloud, command, *args):
    env = {k: v for k, v in os.environ.items() if not k.startswith('OS_')}
    env.update(cloud.keystone.demo_env())
    path = os.path.join(os.path.dirname(sys.executable), command)
    return subprocess.run([path] + list(args), env=env, capture_output=True,
                          text=True, timeout=600)


def run_action(cloud, *args):
    return as_demo(cloud, 'heat-lifecycle-plugins', 'run-action',
                   '--poll', '0.5', *args)


def physical_ids(heat, stack_id):
    return {r.resource_name: r.physical_resource_id
            for r in heat.resources.list(stack_id)}


def test_backup_runs_on_request_twice_nothing_replaced(
        cloud, driver, heat, tmp_path):
    journal = str(tmp_path / 'journal')
    backups = str(tmp_path / 'backups')
    stack_id = driver.create(DAY_TWO, {'journal': journal,
                                       'backup_dir': backups},
                             servers=['server'])
    assert journal_lines(journal) == ['configure']
    ids = physical_ids(heat, stack_id)

    run = run_action(cloud, stack_id, 'deployment', 'BACKUP',
                     '--input', 'label=first')
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith('requested BACKUP of deployment (request ')
    assert any('UPDATE_IN_PROGRESS: Requested action BACKUP' in line
               for line in lines), run.stdout
    assert 'BACKUP of deployment: COMPLETE' in lines
    assert '  backup_path: "%s/first.tar"' % backups in lines
    assert os.path.exists(os.path.join(backups, 'first.tar'))

    update = as_demo(cloud, 'openstack', 'stack', 'update', '--existing',
                     '--parameter', 'backup_request=by-hand-1',
                     '--parameter', 'action_inputs={}', '--wait', stack_id)
    assert update.returncode == 0, update.stdout + update.stderr
    assert driver.outputs(stack_id)['backup_path'] == (
        '%s/manual.tar' % backups)

    assert journal_lines(journal) == ['configure', 'backup label=first',
                                      'backup label=manual']
    assert physical_ids(heat, stack_id) == ids

    # An action the component does not define: refused, nothing changes.
    refused = run_action(cloud, stack_id, 'deployment', 'DRAIN')
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert refused.stderr == (
        "error: Resource deployment: property extended_action: the "
        "component defines no action 'DRAIN' (it defines CREATE, DELETE, "
        "UPDATE, BACKUP)\n")
    assert heat.stacks.get(stack_id).stack_status == 'UPDATE_COMPLETE'

    # The same through heat-api alone: the engine's validation refuses it.
    plain = as_demo(cloud, 'openstack', 'stack', 'update', '--existing',
                    '--parameter', 'day_two_action=DRAIN',
                    '--parameter', 'backup_request=by-hand-2', '--wait',
                    stack_id)
    assert plain.returncode != 0, plain.stdout
    assert ("Resource deployment: property extended_action: the "
            "component defines no action 'DRAIN'") in plain.stderr
    assert 'Traceback' not in plain.stderr
    assert heat.stacks.get(stack_id).stack_status == 'UPDATE_COMPLETE'
    assert not [r for r in heat.resources.list(stack_id)
                if r.resource_status.endswith('FAILED')]

    driver.delete(stack_id)
    assert journal_lines(journal)[-1] == 'remove'
    assert journal_lines(journal).count('configure') == 1


def test_a_failing_backup_is_recovered_by_the_next_request(
        cloud, driver, heat, tmp_path):
    journal = str(tmp_path / 'journal')
    stack_id = driver.create(DAY_TWO, {'journal': journal,
                                       'backup_dir': str(tmp_path / 'b')},
                             servers=['server'])
    ids = physical_ids(heat, stack_id)

    failed = run_action(cloud, stack_id, 'deployment', 'BACKUP',
                        '--input', 'fail=yes', '--input', 'label=broken')
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert 'BACKUP of deployment: FAILED' in failed.stdout
    assert 'backup broken: disk full' in failed.stdout
    assert heat.resources.get(stack_id, 'deployment').resource_status == \
        'UPDATE_FAILED'

    again = run_action(cloud, stack_id, 'deployment', 'BACKUP',
                       '--input', 'label=retry')
    assert again.returncode == 0, again.stdout + again.stderr
    assert heat.resources.get(stack_id, 'deployment').resource_status == \
        'UPDATE_COMPLETE'
    assert physical_ids(heat, stack_id) == ids
    assert journal_lines(journal) == ['configure',
                                      'backup-failed label=broken',
                                      'backup label=retry']

    # Re-applying the config without a change (no DeployIdentifier).
    reapplied = run_action(cloud, stack_id, 'deployment', 'UPDATE')
    assert reapplied.returncode == 0, reapplied.stdout + reapplied.stderr
    assert journal_lines(journal)[-1] == 'configure'
    assert physical_ids(heat, stack_id) == ids
    driver.delete(stack_id)


def test_external_resource_custom_action_runs_its_workflow(
        cloud, driver, heat, thing_store, mistral_workflows):
    """examples/day_two_external_resource.yaml's ROTATE_KEYS in Mistral."""
    stack_id = driver.create(example('day_two_external_resource.yaml'),
                             {'store': thing_store.url})
    thing_id = driver.outputs(stack_id)['thing_id']

    run = run_action(cloud, stack_id, 'thing', 'ROTATE_KEYS',
                     '--input', 'key_label=k1')
    assert run.returncode == 0, run.stdout + run.stderr
    assert 'ROTATE_KEYS of thing: COMPLETE' in run.stdout
    assert '  key_label: "k1"' in run.stdout.splitlines()
    run = run_action(cloud, stack_id, 'thing', 'ROTATE_KEYS')
    assert run.returncode == 0, run.stdout + run.stderr
    assert '  rotations: 2' in run.stdout.splitlines()
    assert thing_store.things()[thing_id]['key_label'] == 'rotated'
    assert physical_ids(heat, stack_id) == {'thing': thing_id}
    assert driver.outputs(stack_id)['output']['size'] == 1

    refused = run_action(cloud, stack_id, 'thing', 'DRAIN')
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "actions has no workflow for 'DRAIN'" in refused.stderr
    driver.delete(stack_id)
    assert thing_id not in thing_store.things()
