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
"""`check` says whether Mistral can tell an ExternalResource, from heat.conf.

Told, or what it falls back to: polling where no signed URL can be made,
the fallback poll alone where notifications are lost.
"""

import pytest

from heat_lifecycle_plugins.host_checks import checks
from heat_lifecycle_plugins.host_checks import notify_path
from heat_lifecycle_plugins.host_checks import signal_path
from heat_lifecycle_plugins import releases
from tests.plugin_env import run_cli
from tests.plugin_env import SIGNAL_PATH
from tests.plugin_env import write_heat_conf

NEW = (27, 0, 1)        # needs [ec2authtoken] credentials
OLD = (24, 1, 0)        # before the OSSA-2025-002 fix
URL = 'http://cfn.example.org:8000/v1/waitcondition'
POLLS = ('poll their execution (every tenth of its age, at most every 3 s: '
         'mistral_poll_interval)')
LOST = ('notifications are lost and actions end by the fallback poll alone, '
        'up to 30 s after their workflow (mistral_notified_poll_interval)')


def heat_conf(tmp_path, text, name='heat.conf'):
    path = tmp_path / name
    path.write_text(text)
    return signal_path.read_ini(str(path))


def sound(tmp_path):
    return heat_conf(tmp_path, '[DEFAULT]\n' + SIGNAL_PATH)


def rendered(found):
    return [checks.render(f) for f in found]


def problems(found):
    return [checks.render(f) for f in found if f.level != checks.OK]


def mistral_line(host='cfn.example.org', period=30, target=None):
    reach = ('the catalog\'s cloudformation endpoint' if target is False else
             '%s (heat_waitcondition_server_url)' % (
                 target or '%s:8000' % host))
    return (
        'ok   mistral-notify: Mistral\'s engine must reach %s; '
        'Mistral\'s configuration is not read here; it '
        'needs a running mistral-notifier or [notifier] type = local (with '
        'the default, remote, and no notifier every notification is lost '
        'silently) and, from Mistral 23 on, [action_std_http] denied_cidrs '
        'and allowed_hosts that let it post to %s; a lost notification is '
        'never sent again: its action ends by the fallback poll, up to %d s '
        'after its workflow' % (reach, host, period))


def test_a_sound_cloud_is_told_and_says_what_mistral_needs(tmp_path):
    assert rendered(notify_path.findings(NEW, sound(tmp_path))) == [
        'ok   mistral-notify: OS::Mistral::ExternalResource is told by '
        'Mistral when an execution ends: a webhook to '
        'http://cfn.example.org:8000/v1/signal/... (signed with a user of '
        'the stack domain, deleted with the resource), a fallback poll '
        'every 30 s; DELETE and SUSPEND, whose signals Heat refuses, '
        + POLLS,
        mistral_line()]


def test_the_periods_shown_are_heat_confs(tmp_path):
    section = '[heat_lifecycle_plugins]\n'
    heat = heat_conf(tmp_path, '[DEFAULT]\n' + SIGNAL_PATH.replace(
        section, section + 'mistral_notified_poll_interval = 12\n'
        'mistral_poll_interval = 0.5\n'))
    told, mistral = rendered(notify_path.findings(NEW, heat))
    assert 'a fallback poll every 12 s' in told
    assert 'at most every 0.5 s' in told
    assert mistral == mistral_line(period=12)


def test_notify_off_polls_and_needs_nothing(tmp_path):
    # Nothing else is judged: the cloud's signal path does not matter.
    heat = heat_conf(tmp_path, '[heat_lifecycle_plugins]\n'
                     'mistral_notify = False\nmistral_poll_interval = 5\n')
    assert rendered(notify_path.findings(NEW, heat)) == [
        'ok   mistral-notify: [heat_lifecycle_plugins] mistral_notify = '
        'false: the actions of OS::Mistral::ExternalResource poll their '
        'execution (every tenth of its age, at most every 5 s: '
        'mistral_poll_interval)']


@pytest.mark.parametrize('text, expected', [
    ('mistral_notify = maybe', '[heat_lifecycle_plugins] mistral_notify = '
                               'maybe: Unexpected boolean value \'maybe\''),
    ('mistral_notified_poll_interval = 0',
     '[heat_lifecycle_plugins] mistral_notified_poll_interval = 0: Should '
     'be greater than or equal to 1'),
])
def test_a_value_heat_engine_refuses_fails_naming_it(tmp_path, text,
                                                     expected):
    heat = heat_conf(tmp_path, '[heat_lifecycle_plugins]\n%s\n' % text)
    assert rendered(notify_path.findings(NEW, heat)) == [
        'FAIL mistral-notify: ' + expected]


def test_without_a_stack_domain_only_admins_are_told(tmp_path):
    domainless = SIGNAL_PATH.replace('stack_user_domain_name', '#')
    heat = heat_conf(tmp_path, '[DEFAULT]\n' + domainless)
    found = notify_path.findings(NEW, heat)
    assert problems(found) == [
        'warn mistral-notify: no stack domain ([DEFAULT] '
        'stack_user_domain_name or stack_user_domain_id): Heat makes each '
        'resource\'s signal user in the stack\'s own project with its '
        'owner\'s credentials, which Keystone allows admins only; the '
        'others\' actions are not told and ' + POLLS + '; set [DEFAULT] '
        'stack_user_domain_name, stack_domain_admin and '
        'stack_domain_admin_password']
    assert rendered(found)[-1] == mistral_line()


def test_a_stack_domain_by_id_counts(tmp_path):
    heat = heat_conf(tmp_path, '[DEFAULT]\n' + SIGNAL_PATH.replace(
        'stack_user_domain_name', 'stack_user_domain_id'))
    assert problems(notify_path.findings(NEW, heat)) == []


def test_a_stack_domain_without_its_admin_fails(tmp_path):
    heat = heat_conf(tmp_path, '[DEFAULT]\n' + SIGNAL_PATH.replace(
        'stack_domain_admin_password', '#'))
    assert problems(notify_path.findings(NEW, heat)) == [
        'FAIL mistral-notify: stack domain heat without [DEFAULT] '
        'stack_domain_admin_password: heat-engine refuses to start; set them']


@pytest.mark.parametrize('host, kind', [
    ('127.0.0.1', 'a loopback address'),
    ('127.0.1.1', 'a loopback address'),
    ('localhost', 'a loopback address'),
    ('[::1]', 'a loopback address'),
    ('169.254.169.254', 'a link-local address'),
    ('[fe80::1]', 'a link-local address'),
])
def test_addresses_mistral_23_denies_by_default(tmp_path, host, kind):
    url = 'http://%s:8000/v1/waitcondition' % host
    heat = sound(tmp_path)
    heat['DEFAULT']['heat_waitcondition_server_url'] = url
    found = notify_path.findings(NEW, heat)
    assert problems(found) == [
        'warn mistral-notify: [DEFAULT] heat_waitcondition_server_url = %s '
        'is %s: Mistral must run on this host and, from Mistral 23 on, '
        'leave it out of [action_std_http] denied_cidrs (by default '
        '127.0.0.0/8, ::1, 169.254.0.0/16 and fe80::/10), or %s' % (
            url, kind, LOST)]
    assert rendered(found)[-1] == mistral_line(host.strip('[]'),
                                               target='%s:8000' % host)


def test_a_url_that_is_no_address_is_not_judged(tmp_path):
    heat = sound(tmp_path)
    heat['DEFAULT']['heat_waitcondition_server_url'] = (
        'http://10.0.0.5:8000/v1/waitcondition')
    assert problems(notify_path.findings(NEW, heat)) == []


def test_no_signal_url_the_catalogs_endpoint_or_polling(tmp_path):
    heat = sound(tmp_path)
    del heat['DEFAULT']['heat_waitcondition_server_url']
    found = notify_path.findings(NEW, heat)
    assert problems(found) == [
        'warn mistral-notify: [DEFAULT] heat_waitcondition_server_url is not '
        'set: the webhook goes to the catalog\'s cloudformation endpoint, '
        'which Mistral must reach, or %s; without that endpoint actions %s'
        % (LOST, POLLS)]
    assert rendered(found)[-1] == mistral_line('heat-api-cfn\'s address',
                                               target=False)


def test_check_names_the_host_mistral_must_reach_and_its_tls(tmp_path):
    heat = sound(tmp_path)
    heat['DEFAULT']['heat_waitcondition_server_url'] = (
        'https://cloud.example.org/v1/waitcondition')
    [line] = [f.text for f in notify_path.findings(NEW, heat)
              if f.text.startswith('Mistral\'s engine')]
    assert line.startswith(
        'Mistral\'s engine must reach cloud.example.org:443 '
        '(heat_waitcondition_server_url) and trust its TLS certificate; ')
    assert 'allowed_hosts that let it post to cloud.example.org;' in line


def test_a_misshapen_signal_url_loses_every_notification(tmp_path):
    heat = sound(tmp_path)
    heat['DEFAULT']['heat_waitcondition_server_url'] = 'http://cfn:8000/v1/'
    assert problems(notify_path.findings(NEW, heat)) == [
        'warn mistral-notify: the webhook goes to a wrong URL (the signals '
        'line on [DEFAULT] heat_waitcondition_server_url): heat-api-cfn '
        'refuses it, so ' + LOST]


def test_broken_ec2authtoken_loses_every_notification(tmp_path):
    # Whatever the deployments' transport: the webhook is a CFN signal.
    engine_only = SIGNAL_PATH.split('[ec2authtoken]')[0]
    heat = heat_conf(tmp_path, '[DEFAULT]\n'
                     'default_deployment_signal_transport = HEAT_SIGNAL\n'
                     + engine_only)
    assert problems(notify_path.findings(NEW, heat)) == [
        'warn mistral-notify: heat-api-cfn cannot check a notification\'s '
        'signature (the signals lines on [ec2authtoken]): it refuses every '
        'one, so ' + LOST]
    # Split deployments: heat-api-cfn's own file is the one judged.
    cfn = heat_conf(tmp_path, '[ec2authtoken]' + SIGNAL_PATH.split(
        '[ec2authtoken]')[1], name='heat-api-cfn.conf')
    assert problems(notify_path.findings(NEW, heat, cfn)) == []
    assert problems(notify_path.findings(NEW, sound(tmp_path), {})) != []


def test_a_doubtful_ec2authtoken_may_lose_them(tmp_path):
    heat = heat_conf(tmp_path, '[DEFAULT]\n' + SIGNAL_PATH.replace(
        'endpoint_override', '#'))
    assert problems(notify_path.findings(NEW, heat)) == [
        'warn mistral-notify: heat-api-cfn may not check a notification\'s '
        'signature (the signals lines on [ec2authtoken]): if it cannot, it '
        'refuses every one, so ' + LOST]


def test_a_release_before_the_ossa_fix_may_lose_them(tmp_path):
    assert problems(notify_path.findings(OLD, sound(tmp_path))) == [
        'warn mistral-notify: this release\'s heat-api-cfn checks '
        'signatures in a way a Keystone with the OSSA-2025-002 fix refuses '
        '(the ossa-2025-002-unfixed line): there it refuses every '
        'notification, so ' + LOST]


def test_the_option_defaults_are_the_engines():
    from heat_lifecycle_plugins import config
    opts = notify_path.settings({})
    conf = config.CONF.heat_lifecycle_plugins
    assert opts['mistral_notify'] is conf.mistral_notify is True
    assert opts['mistral_poll_interval'] == conf.mistral_poll_interval
    assert (opts['mistral_notified_poll_interval'] ==
            conf.mistral_notified_poll_interval)


def test_check_command_reports_the_notify_path_after_the_signals(tmp_path):
    plugin_dir = str(tmp_path / 'plugins')
    run_cli('install-loader', '--plugin-dir', plugin_dir)
    conf = write_heat_conf(str(tmp_path / 'heat.conf'), plugin_dir,
                           signal_path='heat_waitcondition_server_url = '
                                       'http://127.0.0.1:8000/v1/'
                                       'waitcondition\n')
    checked = run_cli('check', '--config-file', conf)
    out = checked.stdout.splitlines()
    topics = [line[5:].split(':')[0] for line in out]
    first = topics.index('mistral-notify')
    assert 'signals' in topics[:first]
    assert 'signals' not in topics[first:]
    notify = [line for line in out if line[5:].startswith('mistral-notify')]
    assert [line[:4] for line in notify] == ['warn'] * 3 + ['ok  ']
    assert notify[0].startswith('warn mistral-notify: no stack domain')
    assert notify[1].startswith(
        'warn mistral-notify: [DEFAULT] heat_waitcondition_server_url = '
        'http://127.0.0.1:8000/v1/waitcondition is a loopback address')
    # No [ec2authtoken]: refused from Heat 27, a fallback before it.
    required = (releases.installed_heat_version() >=
                releases.EC2AUTH_REQUIRED_SINCE)
    assert notify[2].startswith('warn mistral-notify: heat-api-cfn %s' % (
        'cannot' if required else 'may not'))
    assert notify[3] == mistral_line('127.0.0.1')
