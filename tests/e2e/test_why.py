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
"""`heat-lifecycle-plugins why` on failed stacks, run as their user runs it.

The command is a subprocess with the demo user's OS_* variables or a
clouds.yaml; it reads everything through heat-api.
"""

import json
import os
import subprocess
import sys

import yaml

from tests.e2e import test_failures
from tests.e2e import test_openstack_client
from tests.e2e import test_resource_chain as chain

CHAIN = chain.read('why/chain_of_steps.yaml')
CHAIN_FILES = {'why/%s' % name: chain.read('why/%s' % name)
               for name in ('configured.yaml', 'failing_script.yaml')}
STDERR_LAST_WORDS = 'psql: could not connect to server: Connection refused'


def in_a_group(template, name):
    """The template with resource `name` as the only member of a group."""
    parsed = yaml.load(template, Loader=yaml.BaseLoader)  # all text
    member = parsed['resources'].pop(name)
    parsed['resources']['things'] = {
        'type': 'OS::Heat::ResourceGroup',
        'properties': {'count': 1, 'resource_def': member}}
    return json.dumps(parsed)


def why(cloud, *args, env=None):
    """Run the command as the demo user (OS_* variables unless `env`)."""
    if env is None:
        env = cloud.keystone.demo_env()
    env = dict({k: v for k, v in os.environ.items()
                if not k.startswith('OS_')}, **env)
    command = os.path.join(os.path.dirname(sys.executable),
                           'heat-lifecycle-plugins')
    return subprocess.run([command, 'why'] + list(args), env=env,
                          capture_output=True, text=True, timeout=300)


def test_a_failing_script_in_a_chain_member_comes_first(
        cloud, driver, heat):
    stack_id = driver.create(CHAIN, files=CHAIN_FILES, servers=['server'],
                             expect='FAILED')
    name = heat.stacks.get(stack_id).stack_name

    text = why(cloud, name)
    assert text.returncode == 1, text.stderr
    assert text.stderr == ''
    lines = text.stdout.splitlines()
    assert lines[0].startswith('stack %s CREATE_FAILED: 1 cause, ' % name)
    # The first finding is the deployment, three stacks down, and the first
    # thing said about it is the script's last line on stderr.
    assert lines[2].startswith('[1] DeploymentStep1/'), lines
    assert lines[2].split()[1].endswith('/deployment'), lines
    assert lines[3] == '    cause: %s' % STDERR_LAST_WORDS, lines
    assert '    status code: 4' in lines
    assert any(line.startswith('    last progress: heat-lifecycle-agent '
                               'started script hook') for line in lines)

    report = json.loads(why(cloud, name, '--json').stdout)
    assert report['failed'] is True
    assert report['stack']['status'] == 'CREATE_FAILED'
    first, *others = report['findings']
    assert first['role'] == 'cause' and first['kind'] == 'deployment'
    assert first['cause'] == STDERR_LAST_WORDS
    assert first['type'] == 'OS::Heat::SoftwareDeployment'
    assert first['path'][0] == 'DeploymentStep1'
    assert first['path'][-1] == first['resource'] == 'deployment'
    details = first['details']
    assert details['status_code'] == 4
    assert STDERR_LAST_WORDS in details['stderr_tail']
    assert details['deployment_status'] == 'FAILED'
    assert details['last_progress']['message'].startswith(
        'heat-lifecycle-agent started script hook')
    # Then what encloses it, deeper first: the member, then the chain; the
    # member after the failing one never started and is not listed.
    member, step = others
    assert member['role'] == step['role'] == 'enclosing'
    assert member['type'] == 'why/failing_script.yaml'
    assert member['path'] == first['path'][:2]
    assert step['path'] == ['DeploymentStep1']
    assert step['type'] == 'OS::Heat::ResourceChain'


def test_a_failing_workflow_in_a_group_comes_first(
        cloud, driver, heat, thing_store, mistral_workflows, tmp_path):
    stack_id = driver.create(in_a_group(test_failures.FAILING_THING, 'thing'),
                             {'store': thing_store.url}, expect='FAILED')
    execution = [e for e in mistral_workflows.executions.list(
        limit=-1) if e.workflow_name == 'thing_create_refused'][-1]
    # As a user with a clouds.yaml: --os-cloud names the demo's entry.
    demo = cloud.keystone.demo_env()
    clouds = tmp_path / 'clouds.yaml'
    clouds.write_text(json.dumps({'clouds': {'loopback': {
        'auth': {'auth_url': demo['OS_AUTH_URL'], 'username': 'demo',
                 'password': demo['OS_PASSWORD'], 'project_name': 'demo',
                 'user_domain_name': 'Default',
                 'project_domain_name': 'Default'},
        'region_name': demo['OS_REGION_NAME']}}}))
    env = {'OS_CLIENT_CONFIG_FILE': str(clouds)}

    run = why(cloud, '--os-cloud', 'loopback', '--json', stack_id, env=env)
    assert run.returncode == 1, run.stderr
    first, group = json.loads(run.stdout)['findings']
    assert first['path'] == ['things', '0']
    assert first['kind'] == 'workflow' and first['role'] == 'cause'
    assert first['cause'] == 'task refuse failed: quota of things exceeded'
    assert first['details'] == {
        'workflow': 'thing_create_refused', 'state': 'ERROR',
        'execution': execution.id,
        'failed_tasks': [{'task': 'refuse',
                          'error': 'quota of things exceeded'}]}
    assert group['path'] == ['things'] and group['role'] == 'enclosing'

    text = why(cloud, '--os-cloud', 'loopback', stack_id, env=env)
    assert text.stdout.splitlines()[3] == (
        '    cause: task refuse failed: quota of things exceeded')


def test_a_stack_that_did_not_fail_and_one_that_does_not_exist(
        cloud, driver):
    stack_id = driver.create(test_openstack_client.NOTHING)
    fine = why(cloud, stack_id)
    assert fine.returncode == 0, fine.stderr
    assert fine.stdout.endswith('is CREATE_COMPLETE: nothing failed\n')
    missing = why(cloud, 'no-such-stack')
    assert missing.returncode == 2
    assert missing.stdout == ''
    assert missing.stderr == 'error: stack no-such-stack not found\n'
