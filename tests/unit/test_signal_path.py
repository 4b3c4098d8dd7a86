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
"""`check` diagnoses the signal path on sample heat.conf files.

Each finding is one line naming the setting to change.
"""

import pytest

from heat_lifecycle_plugins.host_checks import checks
from heat_lifecycle_plugins.host_checks import signal_path
from heat_lifecycle_plugins import releases
from tests.plugin_env import run_cli
from tests.plugin_env import SIGNAL_PATH
from tests.plugin_env import write_heat_conf

NEW = (27, 0, 1)        # needs [ec2authtoken] credentials, thread budget
OLD = (24, 1, 0)        # before the OSSA-2025-002 fix, eventlet engine


def heat_conf(tmp_path, text):
    path = tmp_path / 'heat.conf'
    path.write_text(text)
    return signal_path.read_ini(str(path))


def lines(found, levels=(checks.WARN, checks.FAIL)):
    return [checks.render(f) for f in found if f.level in levels]


def test_a_sound_signal_path_has_nothing_to_change(tmp_path):
    heat = heat_conf(tmp_path, '[DEFAULT]\n' + SIGNAL_PATH)
    found = signal_path.findings(NEW, heat)
    assert lines(found) == []
    assert [checks.render(f) for f in found] == [
        'ok   signals: [ec2authtoken] auth_type = password, '
        'endpoint_override = http://keystone.example.org:5000: heat-api-cfn '
        'can check CFN_SIGNAL signatures',
        'ok   signals: [DEFAULT] heat_metadata_server_url = '
        'http://cfn.example.org:8000',
        'ok   signals: [DEFAULT] heat_waitcondition_server_url = '
        'http://cfn.example.org:8000/v1/waitcondition',
        'ok   signals: Keystone [credential] auth_ttl not known (give '
        '--keystone-config-file): our CFN_SIGNAL URLs carry no timestamp and '
        'never expire with it',
        'ok   signals: the agent\'s max_signal_bytes = 1048576 fits '
        'heat-api\'s max_json_body_size = 1048576',
        'ok   signals: [heat_lifecycle_plugins] forget_finished_threads = '
        'true: heat-engine drops finished threads of every stack (logged at '
        'its start)',
    ]


def test_no_ec2authtoken_credentials_fail_cfn_signal(tmp_path):
    heat = heat_conf(tmp_path, '[DEFAULT]\n')
    assert lines(signal_path.ec2authtoken_findings(NEW, heat)) == [
        'FAIL signals: [ec2authtoken] auth_type is not set: heat-api-cfn '
        'answers every CFN_SIGNAL signal with HTTP 500 (MissingAuthPlugin) '
        'on Heat 27 and later; set [ec2authtoken] auth_type = password, '
        'auth_url, username, password, user_domain_name, project_name, '
        'project_domain_name']
    # A release before the fix asks Keystone without credentials.
    assert signal_path.ec2authtoken_findings(OLD, heat) == []


@pytest.mark.parametrize('version', [(24, 1, 2), (25, 0, 2), (26, 0, 2)])
def test_no_ec2authtoken_credentials_warn_where_heat_falls_back(
        tmp_path, version):
    # 24.1.1 to 26.x call ec2tokens unauthenticated: nothing fails until
    # Keystone refuses that call, and then as a refusal (403), not a 500.
    heat = heat_conf(tmp_path, '[DEFAULT]\n')
    assert lines(signal_path.ec2authtoken_findings(version, heat)) == [
        'warn signals: [ec2authtoken] auth_type is not set: on this release '
        'heat-api-cfn then checks CFN_SIGNAL signatures with an '
        'unauthenticated ec2tokens call, which a Keystone that requires '
        'authentication for it refuses (every CFN_SIGNAL signal then '
        'answers HTTP 403 AccessDenied) and which Heat 27 (2026.2) no '
        'longer makes; set [ec2authtoken] auth_type = password, auth_url, '
        'username, password, user_domain_name, project_name, '
        'project_domain_name']


def test_missing_credentials_only_warn_when_cfn_is_not_the_default(
        tmp_path):
    heat = heat_conf(tmp_path, '[DEFAULT]\n'
                     'default_deployment_signal_transport = HEAT_SIGNAL\n')
    [found] = signal_path.ec2authtoken_findings(NEW, heat)
    assert found.level == checks.WARN


def test_password_auth_without_its_options_names_them(tmp_path):
    heat = heat_conf(tmp_path, '[ec2authtoken]\nauth_type = password\n'
                     'endpoint_override = http://ks:5000\n')
    assert lines(signal_path.ec2authtoken_findings(NEW, heat)) == [
        'FAIL signals: [ec2authtoken] auth_type = password without auth_url, '
        'password, username: heat-api-cfn cannot authenticate to check '
        'CFN_SIGNAL signatures; set them in [ec2authtoken]']


@pytest.mark.parametrize('endpoint, expected', [
    (None, 'warn signals: [ec2authtoken] endpoint_override is not set: '
           'heat-api-cfn posts to <the catalog\'s identity URL>/v3/ec2tokens, '
           'wrong when that URL ends in /v3; set [ec2authtoken] '
           'endpoint_override = Keystone\'s unversioned URL'),
    ('http://ks:5000/v3/', 'FAIL signals: [ec2authtoken] endpoint_override = '
                           'http://ks:5000/v3/ is versioned: Heat appends '
                           '/v3/ec2tokens to it; set it to Keystone\'s '
                           'unversioned URL'),
])
def test_endpoint_override_must_be_set_and_unversioned(tmp_path, endpoint,
                                                       expected):
    text = ('[ec2authtoken]\nauth_type = password\nauth_url = http://ks/v3\n'
            'username = heat\npassword = x\n')
    if endpoint:
        text += 'endpoint_override = %s\n' % endpoint
    heat = heat_conf(tmp_path, text)
    assert lines(signal_path.ec2authtoken_findings(NEW, heat)) == [expected]


def test_server_urls_unset_loopback_or_misshapen(tmp_path):
    assert lines(signal_path.server_url_findings(
        heat_conf(tmp_path, '[DEFAULT]\n'))) == [
        'warn signals: [DEFAULT] heat_metadata_server_url is not set: '
        'servers poll their metadata (cfn collector) at the catalog\'s '
        'cloudformation endpoint, which servers may not reach; set '
        '[DEFAULT] heat_metadata_server_url = a heat-api-cfn URL servers '
        'reach',
        'warn signals: [DEFAULT] heat_waitcondition_server_url is not set: '
        'CFN_SIGNAL URLs and wait conditions point at the catalog\'s '
        'cloudformation endpoint, which servers may not reach; set '
        '[DEFAULT] heat_waitcondition_server_url = a heat-api-cfn URL '
        'servers reach ending in /v1/waitcondition']
    assert lines(signal_path.server_url_findings(heat_conf(
        tmp_path, '[DEFAULT]\n'
        'heat_metadata_server_url = http://127.0.0.1:8000\n'
        'heat_waitcondition_server_url = http://cfn:8000/v1/\n'))) == [
        'warn signals: [DEFAULT] heat_metadata_server_url = '
        'http://127.0.0.1:8000 is a loopback address: only servers on this '
        'machine reach it; set [DEFAULT] heat_metadata_server_url = an '
        'address servers reach',
        'FAIL signals: [DEFAULT] heat_waitcondition_server_url = '
        'http://cfn:8000/v1/ does not end in /waitcondition: Heat makes '
        'CFN_SIGNAL URLs by replacing /waitcondition with /signal; set it to '
        'http://<heat-api-cfn>:8000/v1/waitcondition']


def test_auth_ttl_against_the_agent_hook_timeout():
    agent = signal_path.agent_settings({'heat_lifecycle_agent': {
        'hook_timeout': '3600'}})
    assert checks.render(signal_path.auth_ttl_finding(15, agent)) == (
        'warn signals: Keystone [credential] auth_ttl = 15 min < the agent\'s '
        'hook_timeout = 3600 s: our CFN_SIGNAL URLs carry no timestamp and '
        'are not affected, the in-tree type\'s (and wait conditions\') are '
        'refused after 15 min; set [credential] auth_ttl >= 60 in '
        'keystone.conf if they are used')
    assert signal_path.auth_ttl_finding(60, agent).level == checks.OK


def test_auth_ttl_without_a_hook_timeout_cap():
    # The default: no cap, a tool runs until its deployment's run_timeout.
    agent = signal_path.agent_settings()
    assert agent['hook_timeout'] is None
    finding = signal_path.auth_ttl_finding(15, agent)
    assert finding.level == checks.OK
    assert 'hook_timeout is unset' in checks.render(finding)
    assert 'refused after 15 min' in checks.render(finding)


def test_agent_signal_limit_over_heats_request_limit(tmp_path):
    agent = signal_path.agent_settings({'heat_lifecycle_agent': {
        'max_signal_bytes': '2097152', 'hook_timeout': '600'}})
    assert agent['hook_timeout'] == 600.0
    heat = heat_conf(tmp_path, '[DEFAULT]\n')
    assert checks.render(signal_path.body_size_finding(heat, agent)) == (
        'FAIL signals: the agent\'s max_signal_bytes = 2097152 > heat-api\'s '
        'max_json_body_size = 1048576: a large result is refused (HTTP 400) '
        'and never delivered; set [heat_lifecycle_agent] max_signal_bytes = '
        '1048576 on the servers or [DEFAULT] max_json_body_size = 2097152 '
        'for heat-api and heat-api-cfn')
    heat = heat_conf(tmp_path, '[DEFAULT]\nmax_json_body_size = 4194304\n')
    assert signal_path.body_size_finding(heat, agent).level == checks.OK


def test_the_thread_budget_remedy_is_reported_where_it_acts(tmp_path):
    heat = heat_conf(tmp_path, '[heat_lifecycle_plugins]\n'
                     'forget_finished_threads = True\n')
    assert [checks.render(f) for f in signal_path.thread_budget_findings(
        NEW, heat)] == [
        'ok   signals: [heat_lifecycle_plugins] forget_finished_threads = '
        'true: heat-engine drops finished threads of every stack (logged at '
        'its start)']
    assert lines(signal_path.thread_budget_findings(OLD, heat)) == [
        'warn signals: [heat_lifecycle_plugins] forget_finished_threads = '
        'true has no effect on this release (its engine frees its threads); '
        'remove it']


def test_the_thread_budget_remedy_left_off_is_a_warning_where_it_acts(
        tmp_path):
    heat = heat_conf(tmp_path, '[DEFAULT]\n')
    [finding] = signal_path.thread_budget_findings(NEW, heat)
    assert finding.level == checks.WARN
    assert checks.render(finding).startswith(
        'warn signals: [heat_lifecycle_plugins] forget_finished_threads is '
        'off: this release keeps every finished thread of a stack and '
        'refuses the 1001st;')
    assert signal_path.thread_budget_findings(OLD, heat) == []


def test_the_defaults_are_the_services_own():
    from heat.common import config as heat_config
    from heat.common import wsgi
    assert signal_path.HEAT_MAX_JSON_BODY_SIZE == wsgi.json_size_opt.default
    opts = heat_config.service_opts + heat_config.engine_opts
    [transport] = [o for o in opts
                   if o.name == 'default_deployment_signal_transport']
    assert signal_path.HEAT_DEFAULT_TRANSPORT == transport.default
    keystone_credential = pytest.importorskip('keystone.conf.credential')
    assert signal_path.KEYSTONE_AUTH_TTL_MINUTES == (
        keystone_credential.auth_ttl.default)


def test_check_command_fails_on_a_broken_signal_path(tmp_path):
    plugin_dir = str(tmp_path / 'plugins')
    run_cli('install-loader', '--plugin-dir', plugin_dir)
    conf = write_heat_conf(str(tmp_path / 'heat.conf'), plugin_dir,
                           signal_path='')
    agent_conf = tmp_path / 'agent.conf'
    agent_conf.write_text('[heat_lifecycle_agent]\nhook_timeout = 7200\n')
    keystone_conf = tmp_path / 'keystone.conf'
    keystone_conf.write_text('[credential]\nauth_ttl = 1\n')
    checked = run_cli('check', '--config-file', conf,
                      '--agent-config-file', str(agent_conf),
                      '--keystone-config-file', str(keystone_conf))
    # A FAIL from Heat 27; 24.1.1 to 26.x fall back and only warn.
    required = (releases.installed_heat_version() >=
                releases.EC2AUTH_REQUIRED_SINCE)
    assert checked.returncode == (1 if required else 0), checked.stdout
    out = checked.stdout.splitlines()
    assert ('warn signals: Keystone [credential] auth_ttl = 1 min < the '
            'agent\'s hook_timeout = 7200 s: our CFN_SIGNAL URLs carry no '
            'timestamp and are not affected, the in-tree type\'s (and wait '
            'conditions\') are refused after 1 min; set [credential] '
            'auth_ttl >= 120 in keystone.conf if they are used') in out
    assert any(line.startswith('%s signals: [ec2authtoken] auth_type is '
                               'not set' % ('FAIL' if required else 'warn'))
               for line in out), out
    assert 'ok   Test::Lifecycle::Probe' in checked.stdout


def test_check_names_an_agent_file_it_cannot_read(tmp_path):
    plugin_dir = str(tmp_path / 'plugins')
    run_cli('install-loader', '--plugin-dir', plugin_dir)
    conf = write_heat_conf(str(tmp_path / 'heat.conf'), plugin_dir)
    missing = str(tmp_path / 'agent.conf')
    checked = run_cli('check', '--config-file', conf,
                      '--agent-config-file', missing)
    assert checked.returncode == 1
    assert ('FAIL signals: %s cannot be read: [Errno 2] No such file or '
            'directory: %r' % (missing, missing)) in checked.stdout


def test_split_deployments_judge_heat_api_cfns_own_file(tmp_path):
    engine_only = '[DEFAULT]\n' + SIGNAL_PATH.split('[ec2authtoken]')[0]
    engine = heat_conf(tmp_path, engine_only)
    cfn_path = tmp_path / 'heat-api-cfn.conf'
    cfn_path.write_text('[ec2authtoken]' + SIGNAL_PATH.split(
        '[ec2authtoken]')[1])
    cfn = signal_path.read_ini(str(cfn_path))
    # The engine's file has no [ec2authtoken]; heat-api-cfn's has it.
    assert lines(signal_path.findings(NEW, engine)) != []
    assert lines(signal_path.findings(NEW, engine, cfn=cfn)) == []
    # And the other way round: the engine's section does not count.
    both = heat_conf(tmp_path, '[DEFAULT]\n' + SIGNAL_PATH)
    assert lines(signal_path.ec2authtoken_findings(
        NEW, both, cfn={'DEFAULT': {}}))[0].startswith(
        'FAIL signals: [ec2authtoken] auth_type is not set')


def test_check_names_a_cfn_config_file_it_cannot_read(tmp_path):
    conf = write_heat_conf(str(tmp_path / 'heat.conf'),
                           str(tmp_path / 'plugins'))
    missing = str(tmp_path / 'heat-api-cfn.conf')
    checked = run_cli('check', '--config-file', conf,
                      '--cfn-config-file', missing)
    assert checked.returncode == 1
    assert checked.stderr == ''
    assert 'FAIL signals: %s cannot be read' % missing in checked.stdout


def test_the_operators_files_are_read_in_one_place(tmp_path):
    first, second = tmp_path / 'heat.conf', tmp_path / 'override.conf'
    first.write_text('[DEFAULT]\nmax_json_body_size = 100\n'
                     'heat_metadata_server_url = http://a:8000\n')
    second.write_text('[DEFAULT]\nmax_json_body_size = 200\n')
    keystone = tmp_path / 'keystone.conf'
    keystone.write_text('[credential]\nauth_ttl = 30\n')
    found = signal_path.read_files(signal_path.OperatorFiles(
        [str(first), str(second)], None, str(keystone), None))
    # Later files win, as in oslo.config; the rest is kept.
    assert found.heat['DEFAULT'] == {
        'max_json_body_size': '200',
        'heat_metadata_server_url': 'http://a:8000'}
    assert (found.auth_ttl, found.cfn) == (30, None)
    assert found.agent == signal_path.agent_settings()
    with pytest.raises(signal_path.ConfigFileError) as raised:
        signal_path.read_files(signal_path.OperatorFiles(
            [str(first)], str(tmp_path / 'agent.conf'), None, None))
    assert str(tmp_path / 'agent.conf') in str(raised.value)
