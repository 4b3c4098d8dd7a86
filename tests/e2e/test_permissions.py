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
"""Who may do what: another project, and a user with only the reader role.

A stack of the demo project with a deployment on a DeployedServer (its
real agent) and an ExternalResource. A user of another project cannot
signal it, request a day-two action of it, read its outputs or its
deployment, nor use the demo project's workflows; a reader of the demo
project cannot request an action, nor signal a running deployment (its
server, through heat-api or a heat-api-cfn signed URL, and a member still
can). Each refusal is a 403 or a 404 from heat-api, never a 5xx, and
changes nothing.

The cloud's heat-api loads the policy of the install guide's step
(`heat-lifecycle-plugins install-policy` into policy.d): a reader who
reads all it may finds no credential of a deployment, and signals with
what it found are refused. With a real Swift (the `swift` fixture), the
same for a POLL_TEMP_URL server and a TEMP_URL_SIGNAL deployment, the
reader asking Swift too; and for a ZAQAR_MESSAGE server, whose metadata
is in a queue of a real Zaqar (the `zaqar` fixture).
"""

import json
import os
import re
from urllib import parse
import uuid

from heatclient import exc
from keystoneauth1.identity import v3
from keystoneauth1 import session as ks_session
import pytest
import requests
import yaml

from heat_lifecycle_fixtures import hot
from tests.e2e.conftest import example
from tests.e2e import test_signal_path as signal_path
from tests.e2e.test_software_component import journal_lines

DAY_TWO = example('day_two.yaml')
EXTERNAL = example('external_resource.yaml')
PASSWORD = 'permissions-secret'


@pytest.fixture(scope='module')
def intruder(cloud):
    """python-heatclient as a member of another project."""
    cloud.keystone.add_user('intruder', PASSWORD, 'elsewhere')
    return cloud.heat_client(cloud.keystone.session(
        'intruder', PASSWORD, project_name='elsewhere'))


@pytest.fixture(scope='module')
def reader(cloud):
    """python-heatclient as a user with only the reader role on demo."""
    cloud.keystone.add_user('onlyreads', PASSWORD, 'demo', roles=('reader',))
    return cloud.heat_client(cloud.keystone.session(
        'onlyreads', PASSWORD, project_name='demo'))


def refused(call):
    """The HTTP status of a refused call; fails on success or a 5xx."""
    with pytest.raises(exc.HTTPException) as raised:
        call()
    code = raised.value.code
    assert code in (403, 404), (code, str(raised.value))
    return code


def test_another_project_cannot_touch_a_stack(
        driver, heat, intruder, tmp_path):
    journal = str(tmp_path / 'journal')
    stack_id = driver.create(DAY_TWO, {'journal': journal,
                                       'backup_dir': str(tmp_path / 'b')},
                             servers=['server'])
    deployment = heat.resources.get(stack_id, 'deployment')
    before = heat.stacks.get(stack_id).updated_time

    refused(lambda: intruder.stacks.get(stack_id))
    refused(lambda: intruder.stacks.output_list(stack_id))
    refused(lambda: intruder.resources.signal(
        stack_id, 'deployment', data={'deploy_status_code': 1}))
    refused(lambda: intruder.stacks.update(
        stack_id, existing=True,
        parameters={'backup_request': 'from-elsewhere'}))
    refused(lambda: intruder.software_deployments.get(
        deployment.physical_resource_id))
    refused(lambda: intruder.software_deployments.update(
        deployment.physical_resource_id, status='FAILED'))

    # Nothing changed: no update, no signal, no run of the tool.
    assert heat.stacks.get(stack_id).updated_time == before
    assert heat.stacks.get(stack_id).stack_status == 'CREATE_COMPLETE'
    assert journal_lines(journal) == ['configure']
    driver.delete(stack_id)


def test_a_reader_cannot_request_an_action(driver, heat, reader, tmp_path):
    journal = str(tmp_path / 'journal')
    stack_id = driver.create(DAY_TWO, {'journal': journal,
                                       'backup_dir': str(tmp_path / 'b')},
                             servers=['server'])
    # Reading is what the role is for.
    assert reader.stacks.get(stack_id).stack_status == 'CREATE_COMPLETE'
    assert refused(lambda: reader.stacks.update(
        stack_id, existing=True,
        parameters={'backup_request': 'by-a-reader'})) == 403
    assert heat.stacks.get(stack_id).stack_status == 'CREATE_COMPLETE'
    assert journal_lines(journal) == ['configure']
    driver.delete(stack_id)


# os-collect-config's collector for each software_config_transport.
COLLECTORS = {'POLL_SERVER_HEAT': 'heat', 'POLL_SERVER_CFN': 'cfn',
              'POLL_TEMP_URL': 'request', 'ZAQAR_MESSAGE': 'zaqar'}


def polling(template, poll):
    """A template's text, its server polling through `poll`."""
    template = yaml.safe_load(template)
    template['resources']['server']['properties'][
        'software_config_transport'] = poll
    return yaml.safe_dump(template)


def running_deployment(driver, heat, transport, seconds,
                       server_transport='POLL_SERVER_HEAT'):
    """A stack whose deployment's script runs `seconds`, once it runs."""
    stack_id = driver.create(
        polling(signal_path.template(transport), server_transport),
        {'seconds': seconds},
        servers=['server'], wait=False,
        agent_options={'collector': COLLECTORS[server_transport]})
    signal_path.wait_for(
        lambda: signal_path.deployment(heat, stack_id).status ==
        'IN_PROGRESS', 120, 'deployment waiting for its signal')
    return stack_id


@pytest.mark.parametrize('transport', ['HEAT_SIGNAL', 'CFN_SIGNAL'])
def test_a_reader_cannot_signal_a_running_deployment(
        driver, heat, reader, transport):
    stack_id = running_deployment(driver, heat, transport, 25)
    for body in ({'deploy_status': 'FAILED',
                  'deploy_status_reason': 'failed by a reader'},
                 {'deploy_status': 'IN_PROGRESS',
                  'deploy_status_reason': 'progress by a reader'}):
        with pytest.raises(exc.HTTPForbidden) as raised:
            reader.resources.signal(stack_id, 'deployment', data=body)
        assert ('You are not authorized to use signals to deployment (the '
                'caller has neither a member role on the project (its '
                'roles: reader) nor the deployment\'s own credentials'
                ) in str(raised.value), str(raised.value)
    # A member's signal is taken (an event), then the server's own result.
    heat.resources.signal(stack_id, 'deployment', data={
        'deploy_status': 'IN_PROGRESS',
        'deploy_status_reason': 'progress by a member'})
    driver.wait(stack_id, 'CREATE')
    assert driver.outputs(stack_id)['result'] == 'done after 25 s'
    sd = signal_path.deployment(heat, stack_id)
    assert (sd.status, sd.status_reason) == ('COMPLETE', 'Outputs received')
    events = signal_path.signal_events(driver, stack_id)
    assert not [e for e in events if 'by a reader' in e], events
    assert 'Signal: deployment %s in progress: progress by a member' % (
        sd.id) in events
    assert events[-1] == 'Signal: deployment %s succeeded' % sd.id
    driver.delete(stack_id)


# What the deployment's server holds that signals as the deployment.
CREDENTIAL_INPUTS = ('deploy_password', 'deploy_signal_id')
# The reads the installed policy gives to members (and the stack user).
REFUSED_TO_READERS = {
    'resource list', 'resource show server', 'resource show deployment',
    'resource metadata', 'deployments metadata', 'config show',
    'deployment show', 'snapshot list'}


# The server's own credential, in each collector's os_collect_config.
COLLECTOR_SECRETS = {'heat': 'password', 'cfn': 'secret_access_key',
                     'request': 'metadata_url', 'zaqar': 'password'}
# A Swift temp URL, as anything a reader reads might hold one.
TEMP_URL = re.compile(r'https?://[^\s"\'\\]+temp_url_sig=[^\s"\'\\]+')


def credentials_of(heat, stack_id):
    """The secrets a member sees: the deployment's and the server's."""
    metadata = heat.resources.metadata(stack_id, 'server')
    secrets = [i['value'] for d in metadata['deployments']
               for i in d['inputs']
               if i['name'] in CREDENTIAL_INPUTS and i.get('value')]
    server = heat.resources.get(stack_id, 'server',
                                with_attr=['os_collect_config'])
    collect = server.attributes['os_collect_config']
    secrets.extend(collect[name][key]
                   for name, key in sorted(COLLECTOR_SECRETS.items())
                   if isinstance(collect.get(name), dict) and
                   collect[name].get(key))
    return secrets


def everything_a_reader_reads(reader, stack_id, deployment, server_id):
    """{read: its answer, or ('refused', HTTP status)}."""
    def events():
        return [reader.events.get(stack_id, e.resource_name, e.id).to_dict()
                for e in reader.events.list(stack_id)]

    def outputs():
        return [reader.stacks.output_show(stack_id, o['output_key'])
                for o in reader.stacks.output_list(stack_id)['outputs']]

    reads = {
        'stack show': lambda: reader.stacks.get(stack_id).to_dict(),
        'stack list': lambda: [s.to_dict() for s in reader.stacks.list()],
        'outputs': outputs,
        'template': lambda: reader.stacks.template(stack_id),
        'environment': lambda: reader.stacks.environment(stack_id),
        'files': lambda: reader.stacks.files(stack_id),
        'events': events,
        'resource list': lambda: [r.to_dict() for r in reader.resources.list(
            stack_id, with_detail=True)],
        'resource show server': lambda: reader.resources.get(
            stack_id, 'server', with_attr=['os_collect_config']).to_dict(),
        'resource show deployment': lambda: reader.resources.get(
            stack_id, 'deployment').to_dict(),
        'resource metadata': lambda: reader.resources.metadata(
            stack_id, 'server'),
        'deployment list': lambda: [
            d.to_dict() for d in reader.software_deployments.list()],
        'deployment show': lambda: reader.software_deployments.get(
            deployment.id).to_dict(),
        'deployments metadata': lambda: reader.software_deployments.metadata(
            server_id),
        'config list': lambda: [
            c.to_dict() for c in reader.software_configs.list()],
        'config show': lambda: reader.software_configs.get(
            deployment.config_id).to_dict(),
        'snapshot list': lambda: reader.stacks.snapshot_list(stack_id),
    }
    answers = {}
    for name, read in reads.items():
        try:
            answers[name] = read()
        except exc.HTTPException as refusal:
            assert refusal.code in (403, 404), (name, str(refusal))
            answers[name] = ('refused', refusal.code)
    return answers


def found_inputs(answer, found=None):
    """deploy_* values anywhere in an answer, as an intruder looks."""
    found = {} if found is None else found
    if isinstance(answer, dict):
        if isinstance(answer.get('name'), str) and answer.get('value'):
            found.setdefault(answer['name'], answer['value'])
        for key, value in answer.items():
            if key.startswith('deploy_') and isinstance(value, str):
                found.setdefault(key, value)
            found_inputs(value, found)
    elif isinstance(answer, (list, tuple)):
        for value in answer:
            found_inputs(value, found)
    return found


def forged_signals(cloud, reader, stack_id, answers):
    """Signal FAILED with whatever was read; each attempt's HTTP status."""
    body = {'deploy_status_code': 1, 'deploy_stderr': 'forged by a reader'}
    found = found_inputs(answers)
    tried = {}
    # A temp URL read anywhere: what it gives (a POLL_TEMP_URL server's
    # metadata holds its deployments' signal URLs) is read too.
    for url in TEMP_URL.findall(json.dumps(answers, default=str)):
        got = requests.get(url, timeout=60)
        tried['GET temp URL'] = got.status_code
        if got.ok:
            found_inputs(got.json(), found)
    if found.get('deploy_password') and found.get('deploy_user_id'):
        as_server = v3.Password(
            auth_url=cloud.keystone.url, user_id=found['deploy_user_id'],
            password=found['deploy_password'],
            project_id=found.get('deploy_project_id'))
        client = cloud.heat_client(ks_session.Session(auth=as_server))
        try:
            client.resources.signal(stack_id, 'deployment', data=body)
            tried['deploy_password'] = 200
        except exc.HTTPException as refusal:
            tried['deploy_password'] = refusal.code
    if found.get('deploy_signal_id'):
        tried['deploy_signal_id'] = requests.request(
            found.get('deploy_signal_verb') or 'POST',
            found['deploy_signal_id'], json=body, timeout=60).status_code
    try:  # nothing found: its own token
        reader.resources.signal(stack_id, 'deployment', data=body)
        tried['own token'] = 200
    except exc.HTTPException as refusal:
        tried['own token'] = refusal.code
    return tried


@pytest.mark.parametrize('transport', ['HEAT_SIGNAL', 'CFN_SIGNAL'])
def test_a_reader_reads_no_credential_and_cannot_forge_a_signal(
        cloud, driver, heat, reader, transport):
    stack_id = running_deployment(driver, heat, transport, 30)
    sd = signal_path.deployment(heat, stack_id)
    secrets = credentials_of(heat, stack_id)
    assert len(secrets) == 2, secrets  # the deployment's, the server's
    server_id = heat.resources.get(stack_id, 'server').physical_resource_id

    answers = everything_a_reader_reads(reader, stack_id, sd, server_id)
    tried = forged_signals(cloud, reader, stack_id, answers)
    driver.wait(stack_id, 'CREATE')
    reader_found_nothing_and_changed_nothing(
        driver, heat, stack_id, secrets, answers, tried, 30)


def reader_found_nothing_and_changed_nothing(
        driver, heat, stack_id, secrets, answers, tried, seconds):
    """The checks of a reader's reads and forged signals, once deployed."""
    # Every forged signal was refused, and the server's result stands.
    assert tried == {'own token': 403}, tried
    assert driver.outputs(stack_id)['result'] == 'done after %d s' % seconds
    sd = signal_path.deployment(heat, stack_id)
    assert (sd.status, sd.status_reason) == ('COMPLETE', 'Outputs received')
    assert not [e for e in signal_path.signal_events(driver, stack_id)
                if 'forged' in e]
    # No credential in any answer; the reader still reads the stack.
    refused = {name for name, answer in answers.items()
               if isinstance(answer, tuple) and answer[0] == 'refused'}
    assert refused == REFUSED_TO_READERS, answers
    shown = json.dumps(answers, default=str)
    assert not [s for s in secrets if s in shown], sorted(answers)
    assert stack_id in shown and sd.id in shown
    driver.delete(stack_id)


# What a reader asks of Swift (with its own token) for a POLL_TEMP_URL
# server: the project's account, and the containers and objects of the
# server's metadata and the deployment's signal.
SWIFT_READS = ('swift account', 'swift metadata container',
               'swift metadata object', 'swift signal container',
               'swift signal object')


def everything_a_reader_reads_in_swift(cloud, swift, metadata_url,
                                       signal_url):
    """{read: its answer, or ('refused', HTTP status)}, and the forged PUT.

    The reader knows the names here only if it guessed them: its reads
    through Heat show none.
    """
    session = cloud.keystone.session('onlyreads', PASSWORD,
                                     project_name='demo')
    headers = {'X-Auth-Token': session.get_token()}
    account = swift.url % {'project_id': cloud.keystone.demo_project_id}
    paths = {'swift account': ''}
    for what, url in (('metadata', metadata_url), ('signal', signal_url)):
        container, name = parse.urlparse(url).path.split('/')[-2:]
        paths['swift %s container' % what] = '/' + container
        paths['swift %s object' % what] = '/%s/%s' % (container, name)
    answers = {}
    for read, path in paths.items():
        got = requests.get(account + path, headers=headers, timeout=60)
        assert got.status_code < 500, (read, got.status_code, got.text)
        answers[read] = (_body(got) if got.ok else
                         ('refused', got.status_code))
    forged = requests.put(
        account + paths['swift signal object'], headers=headers,
        json={'deploy_status_code': 1, 'deploy_stderr': 'forged by a '
              'reader'}, timeout=60)
    return answers, forged.status_code


# Runs until the test opens its gate (a file), and says when it started:
# the reader reads and forges while the server's deployment runs.
GATED_SCRIPT = """#!/bin/sh
touch "$gate.started"
echo "waiting for the gate"
n=0
while [ ! -e "$gate" ] && [ $n -lt 600 ]; do sleep 0.2; n=$((n+1)); done
printf 'passed the gate' > "$heat_outputs_path.result"
"""
GATED_TEMP_URL = polling(hot.template(
    hot.with_server(config=hot.script_config(GATED_SCRIPT, ['gate'],
                                             ['result']),
                    deployment=hot.deployment(
                        'config', 'TEMP_URL_SIGNAL',
                        input_values=hot.from_params('gate'))),
    hot.params(gate='string'), hot.attr_outputs('deployment', 'result')),
    'POLL_TEMP_URL')


def _body(response):
    try:
        return response.json()
    except ValueError:
        return response.text


def test_a_reader_reads_no_temp_url_and_cannot_forge_a_signal(
        cloud, swift, driver, heat, reader, tmp_path):
    """POLL_TEMP_URL and TEMP_URL_SIGNAL, through a real Swift.

    The server reads its metadata from a Swift temp URL, the agent PUTs
    its result to the deployment's; heat-engine reads it from Swift.
    """
    gate = str(tmp_path / 'gate')
    stack_id = driver.create(GATED_TEMP_URL, {'gate': gate},
                             servers=['server'], wait=False,
                             agent_options={'collector': 'request'})
    signal_path.wait_for(lambda: os.path.exists(gate + '.started'), 120,
                         'the deployment\'s script')
    sd = signal_path.deployment(heat, stack_id)
    secrets = credentials_of(heat, stack_id)
    assert len(secrets) == 2, secrets  # the signal's and metadata's URLs
    assert all('temp_url_sig=' in s for s in secrets), secrets
    signal_url, metadata_url = secrets
    server_id = heat.resources.get(stack_id, 'server').physical_resource_id

    answers = everything_a_reader_reads(reader, stack_id, sd, server_id)
    in_swift, put_with_own_token = everything_a_reader_reads_in_swift(
        cloud, swift, metadata_url, signal_url)
    answers.update(in_swift)
    tried = dict(forged_signals(cloud, reader, stack_id, answers),
                 **{'PUT own token': put_with_own_token})
    # Forged while the server's script still ran: a taken signal decides.
    assert signal_path.deployment(heat, stack_id).status == 'IN_PROGRESS'
    open(gate, 'w').close()
    driver.wait(stack_id, 'CREATE')

    # Every forged signal was refused, and the server's result stands.
    assert tried == {'own token': 403, 'PUT own token': 403}, tried
    assert driver.outputs(stack_id)['result'] == 'passed the gate'
    sd = signal_path.deployment(heat, stack_id)
    assert (sd.status, sd.status_reason) == ('COMPLETE', 'Outputs received')
    assert sd.output_values['deploy_stdout'] == 'waiting for the gate\n'
    # No temp URL in any answer; the reader still reads the stack.
    refused = {name for name, answer in answers.items()
               if isinstance(answer, tuple) and answer[0] == 'refused'}
    assert refused == REFUSED_TO_READERS | set(SWIFT_READS), answers
    shown = json.dumps(answers, default=str)
    assert 'temp_url_sig' not in shown, sorted(answers)
    assert stack_id in shown and sd.id in shown
    driver.delete(stack_id)


def test_a_zaqar_message_server_deploys_and_a_reader_gets_nothing(
        cloud, zaqar, driver, heat, reader):
    """ZAQAR_MESSAGE: Heat posts the server's metadata to its queue.

    The queue is in the stack user's project, which the reader's token is
    not scoped to. The reader is given the queue's name and project (as if
    both had leaked) and reads and posts with its own token: Zaqar takes
    the project from the token, so the reader meets its own project's
    queue, never the server's.
    """
    stack_id = running_deployment(driver, heat, 'HEAT_SIGNAL', 20,
                                  server_transport='ZAQAR_MESSAGE')
    sd = signal_path.deployment(heat, stack_id)
    secrets = credentials_of(heat, stack_id)
    assert len(secrets) == 2, secrets  # the deployment's, the server's
    server = heat.resources.get(stack_id, 'server',
                                with_attr=['os_collect_config'])
    queue = ServerQueue(zaqar, server.attributes['os_collect_config'][
        'zaqar'])
    # What Heat posts to the server's queue, kept in a queue of the same
    # project that the server does not pop.
    queue.post(queue.kept, heat.resources.metadata(stack_id, 'server'))

    answers = everything_a_reader_reads(
        reader, stack_id, sd, server.physical_resource_id)
    reader_token = cloud.keystone.session(
        'onlyreads', PASSWORD, project_name='demo').get_token()
    zaqar_reads = queue.reads_with(reader_token)
    assert not [s for s, _ in zaqar_reads.values() if s >= 500], zaqar_reads
    answers.update(zaqar_reads)
    tried = forged_signals(cloud, reader, stack_id, answers)
    tried['zaqar post'] = queue.post_with(reader_token, queue.kept, {
        'deployments': [], 'forged': 'by a reader'})
    driver.wait(stack_id, 'CREATE')

    assert [m['body'] for m in queue.messages(queue.kept)] == [
        heat.resources.metadata(stack_id, 'server')], 'only the member\'s'
    assert tried.pop('zaqar post') == 201  # into its own project's queue
    reader_found_nothing_and_changed_nothing(
        driver, heat, stack_id, secrets, answers, tried, 20)


class ServerQueue(object):
    """A ZAQAR_MESSAGE server's queue, read as its stack user or not."""

    def __init__(self, zaqar, credentials):
        self.url = zaqar.url + '/v2/queues'
        self.name = credentials['queue_id']
        self.kept = self.name + '-kept'
        self.project_id = credentials['project_id']
        self.token = ks_session.Session(auth=v3.Password(
            auth_url=credentials['auth_url'],
            user_id=credentials['user_id'],
            password=credentials['password'],
            project_id=self.project_id)).get_token()

    def _call(self, method, path, token, **kwargs):
        headers = {'Client-ID': str(uuid.uuid4()), 'X-Auth-Token': token,
                   'X-Project-ID': self.project_id}
        headers.update(kwargs.pop('headers', {}))
        return requests.request(method, self.url + path, headers=headers,
                                timeout=60, **kwargs)

    def post(self, queue, body):
        self.post_with(self.token, queue, body)

    def post_with(self, token, queue, body):
        return self._call('POST', '/%s/messages' % queue, token, json={
            'messages': [{'body': body, 'ttl': 600}]}).status_code

    def messages(self, queue, token=None):
        answer = self._call('GET', '/%s/messages?echo=true' % queue,
                            token or self.token)
        assert answer.status_code in (200, 204), answer.text
        return answer.json()['messages'] if answer.content else []

    def reads_with(self, token):
        """{read: (HTTP status, answer)} of the reads a reader tries."""
        signed = {'URL-Signature': 'f' * 64, 'URL-Expires': '2999-01-01',
                  'URL-Methods': 'GET', 'URL-Paths': '/v2/queues/' +
                  self.name + '/messages', 'X-Auth-Token': ''}
        reads = {
            'zaqar queues': ('GET', '?detailed=true', {}),
            'zaqar messages': ('GET', '/%s/messages?echo=true' % self.name,
                               {}),
            'zaqar kept messages': (
                'GET', '/%s/messages?echo=true' % self.kept, {}),
            'zaqar queue': ('GET', '/' + self.name, {}),
            'zaqar stats': ('GET', '/%s/stats' % self.name, {}),
            'zaqar signed url': ('GET', '/%s/messages' % self.name, signed),
        }
        return {name: (answer.status_code, answer.text)
                for name, (method, path, headers) in reads.items()
                for answer in [self._call(method, path, token,
                                          headers=headers)]}


def test_a_server_polling_heat_api_cfn_still_deploys(driver, heat):
    """POLL_SERVER_CFN: its stack user's DescribeStackResource is kept.

    (POLL_SERVER_HEAT's resource metadata: the tests above.)
    """
    stack_id = driver.create(polling(signal_path.template('CFN_SIGNAL'),
                                     'POLL_SERVER_CFN'),
                             {'seconds': 1}, servers=['server'],
                             agent_options={'collector': 'cfn'})
    assert driver.outputs(stack_id)['result'] == 'done after 1 s'
    sd = signal_path.deployment(heat, stack_id)
    assert (sd.status, sd.status_reason) == ('COMPLETE', 'Outputs received')
    # Stopped first: a poll after the DELETE removed its EC2 key is a 500
    # from Heat 24.x's heat-api-cfn, which logs the signed request.
    for agent in driver.agents:
        agent.stop()
    driver.delete(stack_id)


def test_another_project_cannot_use_the_demo_projects_workflows(
        cloud, intruder, thing_store, mistral_workflows):
    with pytest.raises(exc.HTTPBadRequest) as raised:
        intruder.stacks.create(stack_name='e2e-intruder', template=EXTERNAL,
                               parameters={'store': thing_store.url})
    # The first workflow Heat validates is named (which one varies).
    assert re.search(
        r'resources\.thing\.properties\.actions\.[A-Z]+\.workflow: : '
        r'workflow "thing_[a-z]+" does not exist in Mistral at %s, or '
        r'project elsewhere may not use it \(it is private to another '
        r'project\)' % re.escape(cloud.mistral.url), str(raised.value)), \
        str(raised.value)


def test_a_reader_cannot_signal_an_external_resource(
        driver, heat, reader, thing_store, mistral_workflows):
    stack_id = driver.create(EXTERNAL, {'store': thing_store.url})
    [created] = [e for e in mistral_workflows.executions.list(limit=-1)
                 if e.workflow_name == 'thing_create' and
                 e.id in ' '.join(thing_events(driver, stack_id))]
    notice = {'id': created.id, 'event': 'WORKFLOW_FAILED'}
    before = thing_events(driver, stack_id)
    with pytest.raises(exc.HTTPForbidden) as raised:
        reader.resources.signal(stack_id, 'thing', data=notice)
    assert ('You are not authorized to use signals to thing (the caller '
            'has neither a member role on the project (its roles: reader) '
            'nor the resource\'s own credentials; a reader may read a '
            'resource, not change it)') in str(raised.value), str(
                raised.value)
    assert thing_events(driver, stack_id) == before  # nothing stored
    # A member's notice is taken (an event); it decides nothing.
    heat.resources.signal(stack_id, 'thing', data=notice)
    assert thing_events(driver, stack_id)[len(before):] == [
        'Mistral: execution %s ended (WORKFLOW_FAILED)' % created.id]
    assert heat.stacks.get(stack_id).stack_status == 'CREATE_COMPLETE'
    driver.delete(stack_id)


def thing_events(driver, stack_id):
    return [e.resource_status_reason for e in driver.events(stack_id)
            if e.resource_name == 'thing']
