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

# Where these options were before they had their own group.
OLD_GROUP = 'heat_lifecycle_plugins'

agent_opts = [
    cfg.StrOpt('metadata_file',
               default='/var/run/heat-config/heat-config',
               deprecated_name='agent_metadata_file',
               deprecated_group=OLD_GROUP,
               help='JSON file with the deployments list written by '
                    'os-collect-config/os-apply-config. The HEAT_SHELL_CONFIG '
                    'environment variable overrides it.'),
    cfg.StrOpt('deployed_dir', default='/var/lib/heat-config/deployed',
               deprecated_name='agent_deployed_dir',
               deprecated_group=OLD_GROUP,
               help='Directory of the agent\'s state: <id>.json marks a '
                    'deployment as signalled. HEAT_CONFIG_DEPLOYED overrides '
                    'it.'),
    cfg.ListOpt('hooks_dirs',
                default=['/usr/libexec/heat-config/hooks',
                         '/var/lib/heat-config/hooks'],
                deprecated_name='agent_hooks_dirs',
                deprecated_group=OLD_GROUP,
                help='Directories searched, in order, for the hook named '
                     'like the config group; HEAT_CONFIG_HOOKS is searched '
                     'first and the hooks shipped with this package last.'),
    cfg.FloatOpt('hook_timeout', default=3600.0, min=1,
                 deprecated_name='agent_hook_timeout',
                 deprecated_group=OLD_GROUP,
                 help='Seconds one deployment\'s hook may run; then it is '
                      'killed and the deployment signalled FAILED.'),
    cfg.IntOpt('signal_retries', default=8, min=0,
               deprecated_name='agent_signal_retries',
               deprecated_group=OLD_GROUP,
               help='Retries of a signal that failed to connect or got a '
                    '5xx answer. A 4xx answer is reported, never retried.'),
    cfg.FloatOpt('signal_backoff', default=1.0, min=0,
                 deprecated_name='agent_signal_backoff',
                 deprecated_group=OLD_GROUP,
                 help='Seconds before the first signal retry; doubled for '
                      'every further retry, up to 60 seconds.'),
    cfg.FloatOpt('signal_timeout', default=60.0, min=1,
                 deprecated_name='agent_signal_timeout',
                 deprecated_group=OLD_GROUP,
                 help='Seconds one signal request may take.'),
    cfg.IntOpt('max_signal_bytes', default=1048576, min=4096,
               deprecated_name='agent_max_signal_bytes',
               deprecated_group=OLD_GROUP,
               help='Largest signal body in bytes (Heat\'s '
                    'max_json_body_size). deploy_stdout and deploy_stderr are '
                    'trimmed from their start to fit.'),
]


def register_opts(conf):
    conf.register_group(GROUP)
    conf.register_opts(agent_opts, group=GROUP)


def list_opts():
    """Entry point of the oslo.config.opts namespace heat_lifecycle_agent."""
    return [(GROUP, agent_opts)]
