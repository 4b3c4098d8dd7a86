"""The engine side's options: the [heat_lifecycle_plugins] group of heat.conf.

Read inside heat-engine, which imports the resource types (and so this
module) before it reads its configuration: the options are registered at
import. `oslo-config-generator --namespace heat_lifecycle_plugins` prints a
sample. The in-instance agent's options are in agent/config.py.
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


chain_opts = [
    cfg.IntOpt('chain_segment_size', default=50, min=0,
               help='Most members an OS::Heat::ResourceChain created with '
                    'more members keeps in one nested stack: it spreads '
                    'them over nested stacks (segments) of at most this '
                    'many. Heat 25-27 let each stack dispatch about 1000 '
                    'events in one engine worker\'s lifetime, two per '
                    'member and operation, so smaller stacks survive more '
                    'operations. 0: one nested stack whatever the length. '
                    'A chain keeps the layout it was created with.'),
]


def register_opts(conf=cfg.CONF):
    conf.register_group(GROUP)
    conf.register_opts(mistral_opts, group=GROUP)
    conf.register_opts(chain_opts, group=GROUP)


def list_opts():
    """Entry point of the oslo.config.opts namespace."""
    return [(GROUP, mistral_opts + chain_opts)]


register_opts()
CONF = cfg.CONF
