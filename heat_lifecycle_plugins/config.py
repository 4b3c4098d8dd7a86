"""The package's oslo.config options, all in the [heat_lifecycle_plugins] group.

Read inside heat-engine from heat.conf; `oslo-config-generator --namespace
heat_lifecycle_plugins` prints a sample.
"""

from oslo_config import cfg

GROUP = cfg.OptGroup(
    'heat_lifecycle_plugins',
    title='heat-lifecycle-plugins options',
    help='Options of the heat-lifecycle-plugins resource types.')

mistral_opts = [
    cfg.URIOpt('mistral_endpoint',
               help='Mistral v2 API URL, e.g. http://127.0.0.1:8989/v2. '
                    'Unset: the workflowv2 endpoint of the Keystone '
                    'catalog.'),
    cfg.StrOpt('mistral_auth_type', default='keystone',
               choices=[('keystone', 'Authenticate with the request '
                                     'context (the normal cloud case).'),
                        ('none', 'No authentication, for Mistral run '
                                 'with auth_enable = False.')],
               help='How OS::Mistral::ExternalResource authenticates to '
                    'Mistral.'),
    cfg.FloatOpt('mistral_poll_interval', default=1.0, min=0.05,
                 help='Seconds between two polls of a running Mistral '
                      'execution. Heat checks a resource about once a '
                      'second; shorter intervals poll several times within '
                      'one check, 2 s or more make Heat wait that long.'),
    cfg.IntOpt('mistral_request_timeout', default=30, min=1,
               help='Seconds before one request to Mistral times out.'),
    cfg.IntOpt('mistral_request_retries', default=3, min=0,
               help='Retries of a Mistral request that failed to connect '
                    'or got a 5xx answer, with exponential backoff from '
                    '0.5 s (a 5xx answer to starting an execution is not '
                    'retried: the execution may exist).'),
]

# Options of heat-lifecycle-agent, the in-instance agent (read from its own
# --config-file on the server; its command-line flags win over them).
agent_opts = [
    cfg.StrOpt('agent_metadata_file',
               default='/var/run/heat-config/heat-config',
               help='JSON file with the deployments list written by '
                    'os-collect-config/os-apply-config. The HEAT_SHELL_CONFIG '
                    'environment variable overrides it.'),
    cfg.StrOpt('agent_deployed_dir', default='/var/lib/heat-config/deployed',
               help='Directory of the agent\'s state: <id>.json marks a '
                    'deployment as signalled. HEAT_CONFIG_DEPLOYED overrides '
                    'it.'),
    cfg.ListOpt('agent_hooks_dirs',
                default=['/usr/libexec/heat-config/hooks',
                         '/var/lib/heat-config/hooks'],
                help='Directories searched, in order, for the hook named '
                     'like the config group; HEAT_CONFIG_HOOKS is searched '
                     'first and the hooks shipped with this package last.'),
    cfg.FloatOpt('agent_hook_timeout', default=3600.0, min=1,
                 help='Seconds one deployment\'s hook may run; then it is '
                      'killed and the deployment signalled FAILED.'),
    cfg.IntOpt('agent_signal_retries', default=8, min=0,
               help='Retries of a signal that failed to connect or got a '
                    '5xx answer. A 4xx answer is reported, never retried.'),
    cfg.FloatOpt('agent_signal_backoff', default=1.0, min=0,
                 help='Seconds before the first signal retry; doubled for '
                      'every further retry, up to 60 seconds.'),
    cfg.FloatOpt('agent_signal_timeout', default=60.0, min=1,
                 help='Seconds one signal request may take.'),
    cfg.IntOpt('agent_max_signal_bytes', default=1048576, min=4096,
               help='Largest signal body in bytes (Heat\'s '
                    'max_json_body_size). deploy_stdout and deploy_stderr are '
                    'trimmed from their start to fit.'),
]

ALL_OPTS = mistral_opts + agent_opts


def register_opts(conf=cfg.CONF):
    conf.register_group(GROUP)
    conf.register_opts(ALL_OPTS, group=GROUP)


def list_opts():
    """Entry point of the oslo.config.opts namespace."""
    return [(GROUP, ALL_OPTS)]


register_opts()
CONF = cfg.CONF
