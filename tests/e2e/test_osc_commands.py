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
"""`openstack lifecycle ...` from a workstation's venv, without Heat.

The workstation venv holds python-openstackclient and our wheel with its
client extra, nothing of the server side; the real `openstack` executable
runs as the demo user (OS_* variables) against the loopback cloud. Each
test asserts what is printed and the exit status.
"""

import json
import os
import re
import subprocess
import time

import pytest

from heat_lifecycle_fixtures import venvs
from tests.e2e import test_failures
from tests.e2e import test_resource_chain as chain
from tests.e2e import test_signal_path as signal_path

CHAIN = chain.read('osc/chain.yaml')
FILES = {'osc/%s' % name: chain.read('osc/%s' % name)
         for name in ('quiet.yaml', 'steps.yaml', 'exit3.yaml')}
CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SERVER_SIDE = {'openstack-heat', 'mistral', 'keystone'}


@pytest.fixture(scope='session')
def workstation(tmp_path_factory):
    """python-openstackclient and the wheel's [client] extra, no Heat."""
    constraints = venvs.series_constraints()
    assert constraints, 'not run in a venv of tools/venv.sh'
    env = venvs.FreshVenv(str(tmp_path_factory.mktemp('workstation')),
                          constraints)
    env.pip_install('python-openstackclient',
                    venvs.wheel_under_test(CHECKOUT) + '[client]')
    assert not env.installed() & SERVER_SIDE
    return env


def openstack(workstation, cloud, *args, env=None, timeout=600):
    """The workstation's `openstack` as the demo user (or with `env`)."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith('OS_') and
             k not in ('PYTHONPATH', 'VIRTUAL_ENV')}
    clean.update(cloud.keystone.demo_env() if env is None else env)
    return subprocess.run([workstation.bin('openstack')] + list(args),
                          env=clean, capture_output=True, text=True,
                          timeout=timeout)


def listed(run):
    """The rows of a `-f json` listing."""
    assert 'Traceback' not in run.stderr, run.stderr
    return json.loads(run.stdout)


def one_line_error(run):
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    assert 'Traceback' not in run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    return lines[0]


def test_a_tool_that_exits_3_in_a_chain_member_comes_first(
        workstation, cloud, driver):
    stack_id = driver.create(CHAIN, {'second': 'osc/exit3.yaml'},
                             files=FILES, servers=['server'],
                             expect='FAILED')
    run = openstack(workstation, cloud, 'lifecycle', 'cause', 'list',
                    stack_id, '-f', 'json')
    assert run.returncode == 1, run.stderr
    first, member, step = listed(run)
    assert first['Resource'] == 'chain/1/deployment'
    assert first['Role'] == 'cause'
    assert first['Cause'] == 'cannot reach the database at db.internal:5432'
    assert 'status code: 3' in first['Details'].splitlines()
    assert '  migrating the schema' in first['Details'].splitlines()
    assert (member['Resource'], member['Role']) == ('chain/1', 'enclosing')
    assert (step['Resource'], step['Role']) == ('chain', 'enclosing')
    assert step['Cause'] == 'its nested stack failed: see [1]'

    # The table's value format and -c, as every OSC listing takes them.
    value = openstack(workstation, cloud, 'lifecycle', 'cause', 'list',
                      stack_id, '-f', 'value', '-c', 'Resource', '-c',
                      'Cause')
    assert value.stdout.splitlines()[0] == (
        'chain/1/deployment cannot reach the database at db.internal:5432')


def test_a_failed_workflow_names_its_task(
        workstation, cloud, driver, thing_store, mistral_workflows):
    stack_id = driver.create(test_failures.FAILING_THING,
                             {'store': thing_store.url}, expect='FAILED')
    run = openstack(workstation, cloud, 'lifecycle', 'cause', 'list',
                    stack_id, '-f', 'json')
    assert run.returncode == 1, run.stderr
    [first] = listed(run)
    assert first['Resource'] == 'thing'
    assert first['Cause'] == 'task refuse failed: quota of things exceeded'
    assert 'workflow: thing_create_refused, execution ' in first['Details']


def deployment_reason(heat, stack_id):
    row = heat.resources.get(stack_id, 'deployment')
    if not row.physical_resource_id:
        return ''
    return heat.software_deployments.get(
        row.physical_resource_id).status_reason or ''


def test_a_deployment_stuck_until_its_run_timeout(
        workstation, cloud, driver, heat):
    stack_id = driver.create(
        signal_path.template(run_timeout=40), {'seconds': 120},
        servers=['server'], wait=False,
        agent_options={'heartbeat_interval': 5})
    deadline = time.monotonic() + 120
    while 'still running' not in deployment_reason(heat, stack_id):
        assert time.monotonic() < deadline, deployment_reason(heat, stack_id)
        time.sleep(1)

    waiting = openstack(workstation, cloud, 'lifecycle', 'cause', 'list',
                        stack_id, '-f', 'json')
    assert waiting.returncode == 0, waiting.stderr
    [row] = listed(waiting)
    assert (row['Resource'], row['Role']) == ('deployment', 'waiting')
    assert re.match(r'^last progress \d+ s ago: script hook still running '
                    r'after \d+ s$', row['Cause']), row['Cause']
    details = row['Details'].splitlines()
    assert re.match(r'^deadline: run_timeout fires at \S+Z \(in -?\d+ s\)$',
                    details[0]), details
    assert details[-1].startswith('signals: HEAT_SIGNAL to http://'), details

    watched = openstack(workstation, cloud, 'lifecycle', 'progress',
                        'watch', stack_id, '--interval', '1')
    assert watched.returncode == 1, watched.stdout + watched.stderr
    lines = watched.stdout.splitlines()
    assert lines[-1].endswith('CREATE_FAILED') or lines[-2].endswith(
        'CREATE_FAILED'), lines
    assert [line for line in lines if re.match(
        r'^deployment +FAILED +still running after 40 s \(run_timeout\)',
        line)], lines

    failed = openstack(workstation, cloud, 'lifecycle', 'cause', 'list',
                       stack_id, '-f', 'json')
    assert failed.returncode == 1
    [row] = listed(failed)
    assert row['Cause'].startswith('still running after 40 s (run_timeout); '
                                   'last progress: script hook still '
                                   'running after'), row['Cause']


def journal_of_watch(lines):
    """The progress messages of chain/1/deployment, in the order shown."""
    return [re.split(r'\s{2,}', line.strip(), maxsplit=3)[-1]
            for line in lines if line.startswith('chain/1/deployment ')]


def test_milestones_followed_then_backup_twice_in_a_chain_member(
        workstation, cloud, driver, heat):
    stack_id = driver.create(CHAIN, files=FILES, servers=['server'],
                             wait=False,
                             agent_options={'milestone_interval': 1})
    watched = openstack(workstation, cloud, 'lifecycle', 'progress',
                        'watch', stack_id, '--interval', '0.5')
    assert watched.returncode == 0, watched.stdout + watched.stderr
    assert '\x1b[' not in watched.stdout  # not a terminal: plain lines
    shown = journal_of_watch(watched.stdout.splitlines())
    for n, step in enumerate(('fetching', 'unpacking', 'migrating',
                              'restarting', 'checking'), 1):
        assert any('step %d of 5: %s (%d%%)' % (n, step, n * 20) in s
                   for s in shown), shown
    assert watched.stdout.splitlines()[0].endswith('CREATE_IN_PROGRESS')
    assert [line for line in watched.stdout.splitlines()
            if line.endswith(' CREATE_COMPLETE')], watched.stdout

    rows = listed(openstack(workstation, cloud, 'lifecycle', 'progress',
                            'list', stack_id, '-f', 'json'))
    assert [(r['Deployment'], r['Status']) for r in rows] == [
        ('chain/0/deployment', 'COMPLETE'),
        ('chain/1/deployment', 'COMPLETE')]

    quiet_id = heat.resources.get(
        heat.resources.get(stack_id, 'chain').physical_resource_id,
        '0').physical_resource_id
    for label in ('first', 'second'):
        run = openstack(workstation, cloud, 'lifecycle', 'action', 'run',
                        stack_id, 'chain.1.deployment', 'BACKUP',
                        '--input', 'label=%s' % label)
        assert run.returncode == 0, run.stdout + run.stderr
        lines = run.stdout.splitlines()
        assert lines[0].startswith('requested BACKUP of chain.1.deployment '
                                   '(request ')
        assert 'BACKUP of chain.1.deployment: COMPLETE' in lines
        assert '  backup_path: "%s.tar"' % label in lines
    # The quiet member's deployment took no request.
    quiet = heat.resources.get(quiet_id, 'deployment')
    assert quiet.resource_status == 'CREATE_COMPLETE'


def test_bad_input_is_one_line_and_exit_2(workstation, cloud, driver):
    stack_id = driver.create(signal_path.template(), {'seconds': 0},
                             servers=['server'])
    assert one_line_error(openstack(
        workstation, cloud, 'lifecycle', 'cause', 'list', 'no-such-stack')
    ) == 'error: stack no-such-stack not found'
    assert one_line_error(openstack(
        workstation, cloud, 'lifecycle', 'action', 'run', stack_id,
        'nothing', 'BACKUP')) == (
        'error: stack %s has no resource nothing' % stack_id)
    assert one_line_error(openstack(
        workstation, cloud, 'lifecycle', 'action', 'run', stack_id,
        'deployment', 'backup')).startswith('error: ACTION ')
    assert one_line_error(openstack(
        workstation, cloud, 'lifecycle', 'action', 'run', stack_id,
        'deployment', 'BACKUP')).startswith(
        'error: resource deployment is not wired for requests')
    assert one_line_error(openstack(
        workstation, cloud, 'lifecycle', 'progress', 'watch', stack_id,
        '--interval', '0')) == 'error: --interval must be positive'
    # No credentials at all: OSC's own line and status, as for its own
    # commands (OSC authenticates before ours run).
    bare = openstack(workstation, cloud, 'lifecycle', 'cause', 'list',
                     stack_id, env={})
    assert bare.returncode == 1, (bare.stdout, bare.stderr)
    assert bare.stderr.strip() == (
        'Missing value auth-url required for auth plugin password')
    # A user of another project.
    cloud.keystone.add_user('outsider', 'outsider-secret', 'outside')
    outsider = dict(cloud.keystone.demo_env(), OS_USERNAME='outsider',
                    OS_PASSWORD='outsider-secret', OS_PROJECT_NAME='outside')
    for command in (('cause', 'list', stack_id),
                    ('progress', 'list', stack_id),
                    ('action', 'run', stack_id, 'deployment', 'UPDATE')):
        assert one_line_error(openstack(
            workstation, cloud, 'lifecycle', *command, env=outsider)) == (
            'error: stack %s not found' % stack_id)
