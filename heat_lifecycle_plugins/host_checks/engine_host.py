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
"""Everything `heat-lifecycle-plugins check` judges where heat-engine runs.

check() gives a Report: the Heat release and its known issues, the
boundary to Heat's internals, stale loader copies, heat-engine's Python,
the signal path of heat.conf (and of the agent's and Keystone's files),
whether Mistral can tell an OS::Mistral::ExternalResource that its
execution ended, heat-api's policy, then which class Heat's global
environment gives each of our types. cmd/check.py prints it.
"""

import collections
import importlib.metadata
import os
import sys

from oslo_config import cfg

from heat_lifecycle_plugins import heat_internals
from heat_lifecycle_plugins.host_checks import check_engine_python
from heat_lifecycle_plugins.host_checks import check_policy
from heat_lifecycle_plugins.host_checks import checks
from heat_lifecycle_plugins.host_checks import notify_path
from heat_lifecycle_plugins.host_checks import signal_path
from heat_lifecycle_plugins import plugin_dir_installer
from heat_lifecycle_plugins import quiet
from heat_lifecycle_plugins import registry

# findings: checks.Finding each; rows: (type, expected class, actual,
# problem or None) of each of our types; environment: whether Heat's
# global environment was built (else the rows and later findings are
# missing and the check failed).
Report = collections.namedtuple('Report', 'findings rows environment')


def _class_path(cls):
    return '%s:%s' % (cls.__module__, cls.__qualname__)


def _load_error(target):
    """The error importing 'module:attr' raises, or None."""
    ep = importlib.metadata.EntryPoint(name='x', value=target, group='x')
    try:
        ep.load()
    except Exception as exc:
        return '%s: %s' % (type(exc).__name__, exc)
    return None


def check_winners(env):
    """[(type, expected, actual, problem-or-None)] for every type of ours."""
    rows = []
    for name, target in registry.entry_points():
        try:
            actual = _class_path(env.get_class(name))
        except Exception as exc:
            actual = '(none: %s)' % exc
        problem = None
        if actual != target:
            error = _load_error(target)
            problem = ('failed to load: %s' % error if error else
                       'not the winner; is the loader in plugin_dirs?')
        rows.append((name, target, actual, problem))
    return rows


def operator_files(config_file=None, agent_config_file=None,
                   keystone_config_file=None, cfn_config_file=None):
    """signal_path.OperatorFiles of check's options.

    heat.conf: config_file, else the files heat-engine would read.
    """
    return signal_path.OperatorFiles(
        [config_file] if config_file else
        cfg.find_config_files('heat', 'heat-engine'),
        agent_config_file, keystone_config_file, cfn_config_file)


def signal_path_findings(version, files):
    """The signal path of the operator's files (OperatorFiles).

    With Mistral's notifications to ExternalResource (notify_path).
    """
    if not files.heat_conf:
        return [checks.Finding(checks.WARN, signal_path.TOPIC, (
            'no heat.conf given (--config-file) or found: the signal path '
            'is not diagnosed'))]
    try:
        found = signal_path.read_files(files)
    except (signal_path.ConfigFileError, ValueError) as exc:
        return [checks.Finding(checks.FAIL, signal_path.TOPIC, exc)]
    return (signal_path.findings(version, found.heat, found.agent,
                                 found.auth_ttl, found.cfn) +
            notify_path.findings(version, found.heat, found.cfn))


def loader_findings(plugin_dirs):
    """A FAIL for each loader copy of another version in plugin_dirs."""
    return [checks.Finding(checks.FAIL, 'loader', (
        '%s is not this version\'s loader (an upgrade keeps the old copy): '
        'run heat-lifecycle-plugins install-loader --force --plugin-dir %s'
        % (path, os.path.dirname(path))))
        for path in plugin_dir_installer.stale_loaders(plugin_dirs)]


def check(config_file=None, agent_config_file=None,
          keystone_config_file=None, cfn_config_file=None,
          heat_engine=None):
    """The Report of this host, from check's options.

    config_file: heat.conf (None: Heat's usual search path); the agent's,
    keystone.conf and heat-api-cfn's own file where given; heat_engine:
    the heat-engine script that runs (None: the one on PATH).
    """
    try:
        version = heat_internals.heat_version()
    except importlib.metadata.PackageNotFoundError:
        return Report([checks.Finding(
            checks.FAIL, 'heat', 'openstack-heat is not installed in %s'
            % sys.executable)], [], False)
    findings = checks.release_findings(version)
    with quiet.heat_kept_quiet():
        heat_internals.select_engine_runtime()
        findings += checks.boundary_findings(version)
        try:
            env = heat_internals.global_environment(config_file)
        except cfg.Error as exc:
            findings.append(checks.Finding(checks.FAIL, 'config', exc))
            env = None
        rows = check_winners(env) if env else []
    if env is None:
        return Report(findings, rows, False)
    findings += loader_findings(cfg.CONF.plugin_dirs)
    findings += check_engine_python.findings(heat_engine)
    findings += signal_path_findings(version, operator_files(
        config_file, agent_config_file, keystone_config_file,
        cfn_config_file))
    findings += check_policy.findings()
    return Report(findings, rows, True)
