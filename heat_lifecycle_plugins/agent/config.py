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
"""The in-instance agent's options: the [heat_lifecycle_agent] group.

Read from the agent's own --config-file on the server, never from heat.conf,
and registered by the agent's main on its own ConfigOpts (not at import).
`oslo-config-generator --namespace heat_lifecycle_agent` prints a sample.
Files written for earlier releases, with the agent_* names in
[heat_lifecycle_plugins], keep working (deprecated names; a warning says
the new ones).
"""

from oslo_config import cfg

GROUP = cfg.OptGroup(
    'heat_lifecycle_agent',
    title='heat-lifecycle-agent options',
    help='Options of heat-lifecycle-agent, the in-instance agent; its '
         'command-line flags win over them.')

# Before the agent had its own group, its options were agent_<name> in
# [heat_lifecycle_plugins].
OLD_GROUP = 'heat_lifecycle_plugins'
OLD_PREFIX = 'agent_'


def _opt(opt_class, name, **kwargs):
    """Option `name`, also read under its name of earlier releases."""
    return opt_class(name, deprecated_name=OLD_PREFIX + name,
                     deprecated_group=OLD_GROUP, **kwargs)


agent_opts = [
    _opt(cfg.StrOpt, 'metadata_file',
         default='/var/run/heat-config/heat-config',
         help='JSON file with the deployments list written by '
              'os-collect-config/os-apply-config. The HEAT_SHELL_CONFIG '
              'environment variable overrides it.'),
    _opt(cfg.StrOpt, 'deployed_dir', default='/var/lib/heat-config/deployed',
         help='Directory of the agent\'s state: <id>.json marks a deployment '
              'as signalled. HEAT_CONFIG_DEPLOYED overrides it.'),
    _opt(cfg.ListOpt, 'hooks_dirs',
         default=['/usr/libexec/heat-config/hooks',
                  '/var/lib/heat-config/hooks'],
         help='Directories searched, in order, for the hook named like the '
              'config group; HEAT_CONFIG_HOOKS is searched first and the '
              'hooks shipped with this package last (or where the entry '
              '@packaged stands).'),
    _opt(cfg.FloatOpt, 'hook_timeout', default=None, min=0,
         help='A cap, in seconds, on how long one deployment\'s hook may '
              'run; then it and the tools it started are killed and the '
              'deployment signalled FAILED (status 124). Unset or 0: no '
              'cap; a hook runs as long as its deployment may, until the '
              'deployment\'s run_timeout (delivered as the input '
              'deploy_run_timeout) passes, or without limit when it has '
              'none. With both, the shorter one applies.'),
    cfg.FloatOpt('heartbeat_interval', default=60.0, min=0,
                 help='Seconds between two progress signals saying that a '
                      'status-aware deployment\'s hook is still running (at '
                      'most one per interval, never retried), so that Heat '
                      'shows fresh progress and a run_timeout failure names '
                      'it. 0: none.'),
    cfg.FloatOpt('milestone_interval', default=5.0, min=0,
                 help='Least seconds between two progress signals relaying '
                      'the milestones a status-aware deployment\'s tool '
                      'reports (heat-lifecycle-progress, or lines in '
                      '$HEAT_LIFECYCLE_PROGRESS_FILE): the latest one is '
                      'sent, the earlier ones counted. 0: none.'),
    _opt(cfg.IntOpt, 'signal_retries', default=8, min=0,
         help='Retries of a signal that failed to connect or got a 5xx '
              'answer. A 4xx answer is reported, never retried.'),
    _opt(cfg.FloatOpt, 'signal_backoff', default=1.0, min=0,
         help='Seconds before the first signal retry; doubled for every '
              'further retry, up to 60 seconds.'),
    _opt(cfg.FloatOpt, 'signal_timeout', default=60.0, min=1,
         help='Seconds one signal request may take.'),
    _opt(cfg.IntOpt, 'max_signal_bytes', default=1048576, min=4096,
         help='Largest signal body in bytes (Heat\'s max_json_body_size). '
              'deploy_stdout and deploy_stderr are trimmed from their start '
              'to fit.'),
]


def register_opts(conf):
    conf.register_group(GROUP)
    conf.register_opts(agent_opts, group=GROUP)


def list_opts():
    """Entry point of the oslo.config.opts namespace heat_lifecycle_agent."""
    return [(GROUP, agent_opts)]
