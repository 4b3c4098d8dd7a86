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
"""Can Mistral tell an OS::Mistral::ExternalResource that an execution ended?

`check` reads heat.conf (signal_path.read_ini) and says whether the
resource is told (Mistral's webhook to its pre-signed heat-api-cfn URL) and
what it falls back to otherwise: polling, where no URL can be made, or the
fallback poll alone, where notifications are lost. heat-api-cfn's URL and
[ec2authtoken] are judged by signal_path (its `signals` lines); Mistral's
own configuration is out of sight, so the last line says what it needs.
"""

import ipaddress
import urllib.parse

from heat_lifecycle_plugins import config
from heat_lifecycle_plugins.host_checks import checks
from heat_lifecycle_plugins.host_checks import signal_path
from heat_lifecycle_plugins import releases

TOPIC = 'mistral-notify'
# Mistral 23's [action_std_http] denied_cidrs default.
DENIED_BY_DEFAULT = '127.0.0.0/8, ::1, 169.254.0.0/16 and fe80::/10'
SIGNAL_URL_OPTION = 'heat_waitcondition_server_url'
DOMAIN_OPTIONS = ('stack_user_domain_name', 'stack_user_domain_id')
DOMAIN_ADMIN_OPTIONS = ('stack_domain_admin', 'stack_domain_admin_password')


def settings(heat):
    """The [heat_lifecycle_plugins] Mistral options, as heat-engine reads.

    ValueError names a value an option refuses.
    """
    return signal_path.option_values(config.mistral_opts, config.GROUP.name,
                                     heat)


def _default(heat, option):
    return signal_path.setting(heat, 'DEFAULT', option)


def polls(opts):
    return ('poll their execution (every tenth of its age, at most every '
            '%g s: mistral_poll_interval)' % opts['mistral_poll_interval'])


def lost(opts):
    return ('notifications are lost and actions end by the fallback poll '
            'alone, up to %d s after their workflow '
            '(mistral_notified_poll_interval)'
            % opts['mistral_notified_poll_interval'])


def _warn(text):
    return checks.Finding(checks.WARN, TOPIC, text)


def domain_findings(heat, opts):
    """The stack domain, where Heat makes each resource's signal user."""
    domain = (_default(heat, DOMAIN_OPTIONS[0]) or
              _default(heat, DOMAIN_OPTIONS[1]))
    if not domain:
        return [_warn(
            'no stack domain ([DEFAULT] %s or %s): Heat makes each '
            'resource\'s signal user in the stack\'s own project with its '
            'owner\'s credentials, which Keystone allows admins only; the '
            'others\' actions are not told and %s; set [DEFAULT] %s, %s and '
            '%s' % (DOMAIN_OPTIONS + (polls(opts), DOMAIN_OPTIONS[0]) +
                    DOMAIN_ADMIN_OPTIONS))]
    missing = [name for name in DOMAIN_ADMIN_OPTIONS
               if not _default(heat, name)]
    if missing:
        return [checks.Finding(checks.FAIL, TOPIC, (
            'stack domain %s without [DEFAULT] %s: heat-engine refuses to '
            'start; set them' % (domain, ', '.join(missing))))]
    return []


def _denied_by_default(host):
    """What Mistral 23 denies `host` as by default, or None."""
    if host == 'localhost':
        return 'a loopback address'
    try:
        address = ipaddress.ip_address(host or '')
    except ValueError:
        return None
    if address.is_loopback:
        return 'a loopback address'
    return 'a link-local address' if address.is_link_local else None


def url_findings(heat, opts):
    """Where the webhook goes: heat_waitcondition_server_url."""
    option = SIGNAL_URL_OPTION
    url = _default(heat, option)
    if signal_path.signal_url_finding(heat).level == checks.FAIL:
        return [_warn(
            'the webhook goes to a wrong URL (the signals line on [DEFAULT] '
            '%s): heat-api-cfn refuses it, so %s' % (option, lost(opts)))]
    if not url:
        return [_warn(
            '[DEFAULT] %s is not set: the webhook goes to the catalog\'s '
            'cloudformation endpoint, which Mistral must reach, or %s; '
            'without that endpoint actions %s' % (
                option, lost(opts), polls(opts)))]
    denied = _denied_by_default(urllib.parse.urlparse(url).hostname)
    if denied:
        return [_warn(
            '[DEFAULT] %s = %s is %s: Mistral must run on this host and, '
            'from Mistral 23 on, leave it out of [action_std_http] '
            'denied_cidrs (by default %s), or %s' % (
                option, url, denied, DENIED_BY_DEFAULT, lost(opts)))]
    return []


def signature_findings(version, heat, cfn, opts):
    """Whether heat-api-cfn can check the signature of a notification."""
    keys = {issue.key for issue in releases.issues_of(version)}
    if 'ossa-2025-002-unfixed' in keys:
        return [_warn(
            'this release\'s heat-api-cfn checks signatures in a way a '
            'Keystone with the OSSA-2025-002 fix refuses (the '
            'ossa-2025-002-unfixed line): there it refuses every '
            'notification, so %s' % lost(opts))]
    # Judged as for CFN_SIGNAL deployments, their default transport ({}).
    judged = signal_path.ec2authtoken_findings(
        version, {}, heat if cfn is None else cfn)
    levels = {finding.level for finding in judged}
    if checks.FAIL in levels:
        return [_warn(
            'heat-api-cfn cannot check a notification\'s signature (the '
            'signals lines on [ec2authtoken]): it refuses every one, so %s'
            % lost(opts))]
    if checks.WARN in levels:
        return [_warn(
            'heat-api-cfn may not check a notification\'s signature (the '
            'signals lines on [ec2authtoken]): if it cannot, it refuses '
            'every one, so %s' % lost(opts))]
    return []


def told_finding(heat, opts):
    """The resource is told, as far as heat.conf shows."""
    url = _default(heat, SIGNAL_URL_OPTION)
    return checks.Finding(checks.OK, TOPIC, (
        'OS::Mistral::ExternalResource is told by Mistral when an execution '
        'ends: a webhook to %s (signed with a user of the stack domain, '
        'deleted with the resource), a fallback poll every %d s; DELETE '
        'and SUSPEND, whose signals Heat refuses, %s' % (
            url.replace('/waitcondition', '/signal/...'),
            opts['mistral_notified_poll_interval'], polls(opts))))


def webhook_target(url):
    """(host, 'host:port', https) of the URL Mistral posts to."""
    parsed = urllib.parse.urlparse(url)
    https = parsed.scheme == 'https'
    host = parsed.hostname or url
    try:
        port = parsed.port or (443 if https else 80)
    except ValueError:
        return host, host, https
    return host, ('[%s]:%d' if ':' in host else '%s:%d') % (host, port), https


def mistral_finding(heat, opts):
    """What Mistral needs, which check cannot see.

    kolla-ansible (roles/heat/templates/heat.conf.j2) and openstack-ansible
    (os_heat defaults/main.yml) set heat_waitcondition_server_url to the
    public heat-api-cfn endpoint: that is where Mistral's engine posts.
    """
    url = _default(heat, SIGNAL_URL_OPTION)
    if url:
        host, target, https = webhook_target(url)
        reach = ('Mistral\'s engine must reach %s (heat_waitcondition_server'
                 '_url)%s' % (target, ' and trust its TLS certificate'
                              if https else ''))
    else:
        host = 'heat-api-cfn\'s address'
        reach = ('Mistral\'s engine must reach the catalog\'s '
                 'cloudformation endpoint')
    return checks.Finding(checks.OK, TOPIC, (
        '%s; Mistral\'s configuration is not read here; it needs a running '
        'mistral-notifier or [notifier] type = local (with the default, '
        'remote, and no notifier every notification is lost silently) '
        'and, from Mistral 23 on, [action_std_http] denied_cidrs and '
        'allowed_hosts that let it post to %s; a lost notification is '
        'never sent again: its action ends by the fallback poll, up to %d '
        's after its workflow' % (
            reach, host, opts['mistral_notified_poll_interval'])))


def findings(version, heat, cfn=None):
    """The notify path's findings.

    heat: heat.conf as signal_path.read_ini() gives it; cfn: heat-api-cfn's
    own configuration on split deployments, or None.
    """
    try:
        opts = settings(heat)
    except ValueError as exc:
        return [checks.Finding(checks.FAIL, TOPIC, exc)]
    if not opts['mistral_notify']:
        return [checks.Finding(checks.OK, TOPIC, (
            '[%s] mistral_notify = false: the actions of '
            'OS::Mistral::ExternalResource %s' % (
                config.GROUP.name, polls(opts))))]
    found = (domain_findings(heat, opts) + url_findings(heat, opts) +
             signature_findings(version, heat, cfn, opts))
    if not found:
        found.append(told_finding(heat, opts))
    return found + [mistral_finding(heat, opts)]
