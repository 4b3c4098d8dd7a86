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
"""The plain install guide (doc/source/install), followed literally.

A fresh venv with the series' Heat, our wheel installed into it with pip,
`heat-lifecycle-plugins install-loader` writing the loader, and heat-engine
started from that venv with only that plugin_dirs (nothing of the tests on
its path). `check` then finds what the guide says to expect, a stack of
each type is created and deleted through heat-api, and the guide's removal
(install-loader --remove, pip uninstall, heat-engine restarted) hands a
stack of ours back to Heat's in-tree types.
"""

import os
import re

import pytest

from heat_lifecycle_fixtures import hot
from heat_lifecycle_fixtures import stacks

WORKFLOWS = """
version: '2.0'

guide_thing_create:
  output:
    made: yes
  tasks:
    make:
      action: std.noop

guide_thing_delete:
  tasks:
    drop:
      action: std.noop
"""

EVERY_TYPE = hot.template(hot.with_server(
    component={'type': 'OS::Heat::SoftwareComponent', 'properties': {
        'configs': [{'actions': ['CREATE'], 'tool': 'script', 'config':
                     '#!/bin/sh\n'
                     'echo "created by the guide" > $heat_outputs_path.said\n'
                     }],
        'outputs': [{'name': 'said'}]}},
    deployment=hot.deployment('component', start_timeout=240),
    chain={'type': 'OS::Heat::ResourceChain', 'properties': {
        'resources': ['OS::Heat::None', 'OS::Heat::None']}},
    thing={'type': 'OS::Mistral::ExternalResource', 'properties': {
        'actions': {'CREATE': {'workflow': 'guide_thing_create'},
                    'DELETE': {'workflow': 'guide_thing_delete'}}}}),
    outputs=dict(hot.attr_outputs('deployment', 'said'), **{
        'made': {'value': {'get_attr': ['thing', 'output', 'made']}},
        'members': {'value': {'get_attr': ['chain', 'refs']}}}))

# What the guide says `check` reports on this cloud: every type of ours
# wins, and no finding fails.
OURS = ('OS::Heat::ResourceChain', 'OS::Heat::SoftwareComponent',
        'OS::Heat::SoftwareDeployment', 'OS::Mistral::ExternalResource')


@pytest.fixture(scope='module')
def guide_cloud(tmp_path_factory, operator_venv):
    from heat_lifecycle_fixtures.cloud import Cloud
    if not Cloud.available():
        pytest.fail('mariadb-server and rabbitmq-server are needed: run '
                    'tools/run-tests.sh (as root), which installs them')
    with Cloud(str(tmp_path_factory.mktemp('guide-cloud')),
               engine_python=operator_venv.python) as cloud:
        yield cloud


def test_heat_engine_runs_from_the_operators_venv(guide_cloud,
                                                  operator_venv):
    # heat-engine renames its processes (setproctitle), so its argv proves
    # nothing: the compiled modules it has mapped say where it imports from.
    venv = os.path.dirname(os.path.dirname(operator_venv.python)) + os.sep
    with open('/proc/%d/maps' % guide_cloud.heat.engine.pid) as f:
        mapped = {line.split()[-1] for line in f if '/' in line}
    site = [path for path in mapped if 'site-packages' in path]
    assert site, mapped
    assert all(path.startswith(venv) for path in site), site


def test_check_finds_what_the_guide_expects(guide_cloud, operator_venv):
    proc = operator_venv.run(
        operator_venv.bin('heat-lifecycle-plugins'), 'check',
        '--config-file', guide_cloud.heat.conf)
    lines = proc.stdout.splitlines()
    for name in OURS:
        assert any(re.match(r'ok\s+%s\s' % re.escape(name), line)
                   for line in lines), proc.stdout
    assert not [line for line in lines if line.startswith('FAIL')], \
        proc.stdout


def test_a_stack_of_each_type_is_created_and_deleted(guide_cloud, tmp_path):
    guide_cloud.mistral_client().workflows.create(WORKFLOWS)
    with stacks.StackDriver(guide_cloud.heat_client(), str(tmp_path),
                            prefix='guide') as driver:
        stack_id = driver.create(EVERY_TYPE, servers=['server'])
        outputs = driver.outputs(stack_id)
        assert outputs['said'].strip() == 'created by the guide'
        assert outputs['made'] in (True, 'yes')
        assert len(outputs['members']) == 2
        driver.delete(stack_id)
    log = open(guide_cloud.heat.engine_log, errors='replace').read()
    assert 'Traceback' not in log


def chain(members):
    return hot.template({'chain': {
        'type': 'OS::Heat::ResourceChain',
        'properties': {'resources': ['OS::Heat::None'] * members}}})


# Our entry points (heat.clients, heat.constraints) the venv still offers.
ENTRY_POINTS = (
    'import importlib.metadata as m; print(sorted('
    'e.value for g in ("heat.clients", "heat.constraints") '
    'for e in m.entry_points(group=g) if "lifecycle" in e.value))')


def chain_properties(heat_client):
    return set(heat_client.resource_types.get(
        'OS::Heat::ResourceChain')['properties'])


def test_the_guides_removal_hands_a_stack_back_to_heat(
        guide_cloud, operator_venv, wheel, tmp_path):
    # Last in this module: it uninstalls the wheel (and puts it back).
    heat = guide_cloud.heat
    loader = os.path.join(heat.plugin_dir, 'heat_lifecycle_plugins_loader.py')
    client = guide_cloud.heat_client()
    assert 'concurrency_limit' in chain_properties(client)  # ours
    with stacks.StackDriver(client, str(tmp_path), prefix='removal') as driver:
        stack_id = driver.create(chain(2))
        removed = operator_venv.run(
            operator_venv.bin('heat-lifecycle-plugins'), 'install-loader',
            '--remove', '--plugin-dir', heat.plugin_dir)
        assert removed.stdout == 'removed %s\n' % loader
        engine = heat.part('heat-engine')
        try:
            operator_venv.run(operator_venv.bin('pip'), 'uninstall', '-y',
                              'heat-lifecycle-plugins')
            engine.stop()  # the guide's restart
            engine.start()
            assert not os.path.exists(loader)
            assert 'heat-lifecycle-plugins' not in operator_venv.installed()
            assert operator_venv.run(
                operator_venv.python, '-c', ENTRY_POINTS).stdout == '[]\n'
            # Heat's in-tree ResourceChain now: it updates and deletes the
            # stack ours created.
            assert 'concurrency_limit' not in chain_properties(client)
            driver.update(stack_id, chain(1))
            driver.delete(stack_id)
        finally:
            operator_venv.pip_install(wheel)
    with open(heat.log_of('heat-engine'), errors='replace') as f:
        assert 'Traceback' not in f.read()
