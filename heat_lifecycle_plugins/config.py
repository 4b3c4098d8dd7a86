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


engine_opts = [
    cfg.BoolOpt('forget_finished_threads', default=False,
                help='Heat 25.0 to 27.0 only: make heat-engine drop the '
                     'finished threads of a stack\'s thread group before it '
                     'starts another. Those releases keep every thread a '
                     'stack ever started and refuse the 1001st (about 1000 '
                     'asynchronous signals and events per stack per engine '
                     'worker; then signals, updates and deletes of the stack '
                     'fail until heat-engine restarts). Our types\' signals '
                     'never spend that budget; events of every type and '
                     'signals of other types do. This changes heat-engine '
                     'for every stack and resource type: opt-in, logged at '
                     'start and reported by `heat-lifecycle-plugins check`. '
                     'No effect on Heat 24.x, whose eventlet pools free '
                     'their slots.'),
]


def register_opts(conf=cfg.CONF):
    conf.register_group(GROUP)
    conf.register_opts(mistral_opts, group=GROUP)
    conf.register_opts(engine_opts, group=GROUP)


def list_opts():
    """Entry point of the oslo.config.opts namespace."""
    return [(GROUP, mistral_opts + engine_opts)]


register_opts()
CONF = cfg.CONF
