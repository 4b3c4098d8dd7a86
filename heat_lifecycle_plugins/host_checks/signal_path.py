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
"""The signal path an operator configured, diagnosed from its files.

`heat-lifecycle-plugins check --config-file heat.conf` reads heat.conf (and,
when given, the agent's configuration and keystone.conf) as INI files, no
Heat import, and gives one checks.Finding per line, each naming the setting
to change. findings() decides from the parsed files: unit-tested on sample
files.
"""

import collections
import configparser
import urllib.parse

from heat_lifecycle_plugins.agent import config as agent_config
from heat_lifecycle_plugins import config
from heat_lifecycle_plugins.host_checks import checks
from heat_lifecycle_plugins import protocol
from heat_lifecycle_plugins import releases

TOPIC = 'signals'
# Defaults of the services' own options (tests/unit/test_signal_path.py
# compares them with the installed Heat's and Keystone's).
HEAT_MAX_JSON_BODY_SIZE = 1048576
HEAT_DEFAULT_TRANSPORT = protocol.CFN_SIGNAL
KEYSTONE_AUTH_TTL_MINUTES = 15
PASSWORD_PLUGINS = ('password', 'v3password')
LOOPBACK = ('localhost', '127.0.0.1', '::1')


# The operator's files that check reads: heat.conf (a list, later files
# win as in oslo.config), the agent's configuration, keystone.conf and
# heat-api-cfn's own file on split deployments; None when not given.
OperatorFiles = collections.namedtuple(
    'OperatorFiles', 'heat_conf agent_conf keystone_conf cfn_conf')
# What findings() judges, as read_files() reads it from them.
Settings = collections.namedtuple('Settings', 'heat agent auth_ttl cfn')


class ConfigFileError(Exception):
    """A configuration file that cannot be read; the message says which."""


def read_ini(path):
    """{section: {option: value}} of an oslo.config file.

    DEFAULT is a section like the others; option names are lower case.
    """
    parser = configparser.ConfigParser(
        interpolation=None, strict=False, default_section='\0none')
    try:
        with open(path, encoding='utf-8') as f:
            parser.read_file(f)
    except (OSError, UnicodeDecodeError, configparser.Error) as exc:
        raise ConfigFileError('%s cannot be read: %s' % (path, exc))
    return {section: {k.lower(): v.strip() for k, v in parser[section].items()}
            for section in parser.sections()}


def option_values(opts, group, sections=None):
    """{name: value} of oslo.config opts: the file's, else defaults.

    A value the option's type refuses raises ValueError naming it.
    """
    values = {opt.name: opt.default for opt in opts}
    given = (sections or {}).get(group, {})
    for opt in opts:
        if opt.name in given:
            try:
                values[opt.name] = opt.type(given[opt.name])
            except ValueError as exc:
                raise ValueError('[%s] %s = %s: %s' % (
                    group, opt.name, given[opt.name], exc))
    return values


def agent_settings(sections=None):
    """The agent's options that matter here: the file's, else defaults."""
    return option_values(agent_config.agent_opts, agent_config.GROUP.name,
                         sections)


def setting(sections, section, option, default=None):
    """An option's value in read_ini()'s sections; default if unset."""
    return (sections.get(section) or {}).get(option) or default


def _loopback(url):
    try:
        return urllib.parse.urlparse(url).hostname in LOOPBACK
    except ValueError:
        return False


def _endpoint_findings(endpoint, level):
    """What is wrong with [ec2authtoken] endpoint_override, if anything."""
    if not endpoint:
        return [checks.Finding(checks.WARN, TOPIC, (
            '[ec2authtoken] endpoint_override is not set: heat-api-cfn '
            'posts to <the catalog\'s identity URL>/v3/ec2tokens, wrong '
            'when that URL ends in /v3; set [ec2authtoken] '
            'endpoint_override = Keystone\'s unversioned URL'))]
    if endpoint.rstrip('/').rsplit('/', 1)[-1] in ('v3', 'v2.0'):
        return [checks.Finding(level, TOPIC, (
            '[ec2authtoken] endpoint_override = %s is versioned: Heat '
            'appends /v3/ec2tokens to it; set it to Keystone\'s '
            'unversioned URL' % endpoint))]
    return []


CREDENTIALS = ('auth_type = password, auth_url, username, password, '
               'user_domain_name, project_name, project_domain_name')


def _no_auth_type_finding(required, level):
    """[ec2authtoken] without credentials, worded for the release.

    heat/api/aws/ec2token.py: from Heat 27 keystoneauth refuses the call
    (MissingAuthPlugin); 24.1.1 to 26.x fall back to an unauthenticated
    ec2tokens call, which only a Keystone requiring authentication refuses.
    """
    if required:
        return checks.Finding(level, TOPIC, (
            '[ec2authtoken] auth_type is not set: heat-api-cfn answers every '
            'CFN_SIGNAL signal with HTTP 500 (MissingAuthPlugin) on Heat 27 '
            'and later; set [ec2authtoken] %s' % CREDENTIALS))
    return checks.Finding(checks.WARN, TOPIC, (
        '[ec2authtoken] auth_type is not set: on this release heat-api-cfn '
        'then checks CFN_SIGNAL signatures with an unauthenticated '
        'ec2tokens call, which a Keystone that requires authentication for '
        'it refuses (every CFN_SIGNAL signal then answers HTTP 403 '
        'AccessDenied) and which Heat 27 (2026.2) no longer makes; set '
        '[ec2authtoken] %s' % CREDENTIALS))


def ec2authtoken_findings(version, heat, cfn=None):
    """heat-api-cfn's credentials to check CFN_SIGNAL signatures.

    The transport is the engine's (heat); [ec2authtoken] is heat-api-cfn's:
    cfn, its own file where it has one, else the engine's.
    """
    keys = {issue.key for issue in releases.issues_of(version)}
    required = 'ec2authtoken-auth' in keys
    if not (required or 'ec2authtoken-fallback' in keys):
        return []
    transport = setting(heat, 'DEFAULT',
                        'default_deployment_signal_transport',
                        HEAT_DEFAULT_TRANSPORT)
    # Broken default transport: FAIL; a transport templates must ask for.
    level = checks.FAIL if transport == protocol.CFN_SIGNAL else checks.WARN
    if cfn is None:
        cfn = heat
    auth_type = setting(cfn, 'ec2authtoken', 'auth_type')
    if not auth_type:
        return [_no_auth_type_finding(required, level)]
    found = []
    if auth_type in PASSWORD_PLUGINS:
        missing = [name for name in ('auth_url', 'password')
                   if not setting(cfn, 'ec2authtoken', name)]
        if not (setting(cfn, 'ec2authtoken', 'username') or
                setting(cfn, 'ec2authtoken', 'user_id')):
            missing.append('username')
        if missing:
            found.append(checks.Finding(level, TOPIC, (
                '[ec2authtoken] auth_type = %s without %s: heat-api-cfn '
                'cannot authenticate to check CFN_SIGNAL signatures; set '
                'them in [ec2authtoken]' % (auth_type, ', '.join(missing)))))
    endpoint = setting(cfn, 'ec2authtoken', 'endpoint_override')
    found += _endpoint_findings(endpoint, level)
    if not found:
        found.append(checks.Finding(checks.OK, TOPIC, (
            '[ec2authtoken] auth_type = %s, endpoint_override = %s: '
            'heat-api-cfn can check CFN_SIGNAL signatures' % (
                auth_type, endpoint))))
    return found


# (option, what points at it, the path Heat replaces, or None)
SERVER_URLS = (
    ('heat_metadata_server_url', 'servers poll their metadata (cfn '
     'collector) at', None),
    ('heat_waitcondition_server_url', 'CFN_SIGNAL URLs and wait conditions '
     'point at', '/waitcondition'),
)


def server_url_finding(heat, option, what, suffix):
    """One URL servers are given, judged."""
    url = setting(heat, 'DEFAULT', option)
    if not url:
        return checks.Finding(checks.WARN, TOPIC, (
            '[DEFAULT] %s is not set: %s the catalog\'s cloudformation '
            'endpoint, which servers may not reach; set [DEFAULT] %s = '
            'a heat-api-cfn URL servers reach%s' % (
                option, what, option,
                ' ending in /v1/waitcondition' if suffix else '')))
    if suffix and not url.rstrip('/').endswith(suffix):
        return checks.Finding(checks.FAIL, TOPIC, (
            '[DEFAULT] %s = %s does not end in %s: Heat makes CFN_SIGNAL '
            'URLs by replacing %s with /signal; set it to '
            'http://<heat-api-cfn>:8000/v1/waitcondition' % (
                option, url, suffix, suffix)))
    if _loopback(url):
        return checks.Finding(checks.WARN, TOPIC, (
            '[DEFAULT] %s = %s is a loopback address: only servers on '
            'this machine reach it; set [DEFAULT] %s = an address '
            'servers reach' % (option, url, option)))
    return checks.Finding(checks.OK, TOPIC, (
        '[DEFAULT] %s = %s' % (option, url)))


def server_url_findings(heat):
    """The URLs servers are given to poll metadata and to signal."""
    return [server_url_finding(heat, *entry) for entry in SERVER_URLS]


def signal_url_finding(heat):
    """heat_waitcondition_server_url: where signed (CFN_SIGNAL) URLs go."""
    return server_url_finding(heat, *SERVER_URLS[1])


def auth_ttl_finding(auth_ttl, agent):
    """Keystone's life of a signed URL against the agent's hook time."""
    hook_timeout = agent['hook_timeout']
    if auth_ttl is None:
        return checks.Finding(checks.OK, TOPIC, (
            'Keystone [credential] auth_ttl not known (give '
            '--keystone-config-file): our CFN_SIGNAL URLs carry no '
            'timestamp and never expire with it'))
    if not hook_timeout:
        return checks.Finding(checks.OK, TOPIC, (
            'Keystone [credential] auth_ttl = %d min; the agent\'s '
            'hook_timeout is unset (a tool runs until its deployment\'s '
            'run_timeout): our CFN_SIGNAL URLs carry no timestamp and never '
            'expire with it, the in-tree type\'s (and wait conditions\') '
            'are refused after %d min' % (auth_ttl, auth_ttl)))
    if auth_ttl * 60 >= hook_timeout:
        return checks.Finding(checks.OK, TOPIC, (
            'Keystone [credential] auth_ttl = %d min covers the agent\'s '
            'hook_timeout = %d s' % (auth_ttl, hook_timeout)))
    return checks.Finding(checks.WARN, TOPIC, (
        'Keystone [credential] auth_ttl = %d min < the agent\'s hook_timeout '
        '= %d s: our CFN_SIGNAL URLs carry no timestamp and are not '
        'affected, the in-tree type\'s (and wait conditions\') are refused '
        'after %d min; set [credential] auth_ttl >= %d in keystone.conf if '
        'they are used' % (auth_ttl, hook_timeout, auth_ttl,
                           -(-hook_timeout // 60))))


def body_size_finding(heat, agent):
    """Heat's request size limit against the agent's signal size limit."""
    limit = int(setting(heat, 'DEFAULT', 'max_json_body_size',
                        HEAT_MAX_JSON_BODY_SIZE))
    signal = agent['max_signal_bytes']
    fits = signal <= limit
    text = ('the agent\'s max_signal_bytes = %d %s heat-api\'s '
            'max_json_body_size = %d' % (signal, 'fits' if fits else '>',
                                         limit))
    if not fits:
        text += (': a large result is refused (HTTP 400) and never '
                 'delivered; set [%s] max_signal_bytes = %d on the servers '
                 'or [DEFAULT] max_json_body_size = %d for heat-api and '
                 'heat-api-cfn' % (agent_config.GROUP.name, limit, signal))
    return checks.Finding(checks.OK if fits else checks.FAIL, TOPIC, text)


def thread_budget_findings(version, heat):
    """Whether the opt-in remedy of the engine's thread budget is set."""
    value = setting(heat, config.GROUP.name, 'forget_finished_threads',
                    'false')
    keys = {issue.key for issue in releases.issues_of(version)}
    if value.lower() not in ('true', '1', 'yes', 'on'):
        if 'per-stack-thread-budget' not in keys:
            return []
        return [checks.Finding(checks.WARN, TOPIC, (
            '[%s] forget_finished_threads is off: this release keeps every '
            'finished thread of a stack and refuses the 1001st; Heat\'s own '
            'actions and events spend about 5 per stack action, so a stack '
            'that lives through about 200 updates, requests or checks then '
            'fails every signal, update and delete until heat-engine '
            'restarts; set it to true (see the operations guide)'
            % config.GROUP.name))]
    if 'per-stack-thread-budget' in keys:
        return [checks.Finding(checks.OK, TOPIC, (
            '[%s] forget_finished_threads = true: heat-engine drops finished '
            'threads of every stack (logged at its start)'
            % config.GROUP.name))]
    return [checks.Finding(checks.WARN, TOPIC, (
        '[%s] forget_finished_threads = true has no effect on this release '
        '(its engine frees its threads); remove it' % config.GROUP.name))]


def findings(version, heat, agent=None, auth_ttl=None, cfn=None):
    """The signal path's findings.

    heat: heat.conf as read_ini() gives it; agent: agent_settings();
    auth_ttl: Keystone's [credential] auth_ttl in minutes, or None;
    cfn: heat-api-cfn's own configuration on split deployments, or None.
    """
    agent = agent or agent_settings()
    return (ec2authtoken_findings(version, heat, cfn) +
            server_url_findings(heat) +
            [auth_ttl_finding(auth_ttl, agent),
             body_size_finding(heat, agent)] +
            thread_budget_findings(version, heat))


def keystone_auth_ttl(sections):
    """[credential] auth_ttl of keystone.conf, in minutes."""
    return int(setting(sections, 'credential', 'auth_ttl',
                       KEYSTONE_AUTH_TTL_MINUTES))


def read_files(files):
    """The Settings of the operator's files (OperatorFiles).

    Raises ConfigFileError naming a file that cannot be read, ValueError
    naming an option whose value its type refuses.
    """
    heat = {}
    for path in files.heat_conf:  # later files win, as in oslo.config
        for section, options in read_ini(path).items():
            heat.setdefault(section, {}).update(options)
    agent = agent_settings(
        read_ini(files.agent_conf) if files.agent_conf else None)
    auth_ttl = (keystone_auth_ttl(read_ini(files.keystone_conf))
                if files.keystone_conf else None)
    cfn = read_ini(files.cfn_conf) if files.cfn_conf else None
    return Settings(heat, agent, auth_ttl, cfn)
