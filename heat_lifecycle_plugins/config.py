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
    cfg.FloatOpt('mistral_poll_interval', default=3.0, min=0.05,
                 help='Longest time in seconds between two polls of a '
                      'running Mistral execution. An execution is polled '
                      'every tenth of its age (at least every 0.2 s), so a '
                      'short workflow is seen to end within a fraction of a '
                      'second and a long one costs few Mistral calls; this '
                      'caps the interval for long ones.'),
    cfg.IntOpt('mistral_outage_grace', default=120, min=0,
               help='Seconds a running execution may stay unknown because '
                    'Mistral does not answer (a restart, a rolling upgrade) '
                    'before the resource action fails. Polling goes on '
                    'meanwhile and the action completes if Mistral answers '
                    'again in time.'),
    cfg.IntOpt('mistral_request_timeout', default=30, min=1,
               help='Seconds before one request to Mistral times out.'),
    cfg.IntOpt('mistral_request_retries', default=3, min=0,
               help='Retries of a Mistral request that failed to connect '
                    'or got a 5xx answer, with exponential backoff from '
                    '0.5 s (a 5xx answer to starting an execution is not '
                    'retried: the execution may exist). Polls of a running '
                    'execution follow mistral_outage_grace instead.'),
    cfg.IntOpt('mistral_max_output_bytes', default=1048576, min=1024,
               help='Largest merged workflow outputs (as JSON) an '
                    'OS::Mistral::ExternalResource keeps. Larger outputs '
                    'fail the action, naming their size and this limit '
                    '(but for a DELETE\'s: the thing is gone, and they are '
                    'dropped). '
                    'The default is Mistral\'s own default limit of an '
                    'execution field ([engine] execution_field_size_limit_'
                    'kb = 1024): every later execution receives the outputs '
                    'in its environment.'),
    cfg.BoolOpt('mistral_notify', default=True,
                help='Have Mistral tell an OS::Mistral::ExternalResource '
                     'when its execution ends (a webhook to the resource\'s '
                     'pre-signed heat-api-cfn URL, as CFN_SIGNAL uses) '
                     'instead of polling it: the action ends a fraction of '
                     'a second after the workflow, with a few Mistral calls '
                     'whatever its length. Needs heat-api-cfn with working '
                     '[ec2authtoken] credentials and, in Mistral, a running '
                     'notifier (or [notifier] type = local) and, from '
                     'Mistral 23, heat-api-cfn\'s address allowed by '
                     '[action_std_http] denied_cidrs and allowed_hosts. '
                     'DELETE and SUSPEND, whose signals Heat refuses, poll '
                     'as with False. `heat-lifecycle-plugins check` reports '
                     'whether this cloud can tell.'),
    cfg.IntOpt('mistral_notified_poll_interval', default=30, min=1,
               help='Seconds between two fallback polls of an execution '
                    'Mistral is to tell about (mistral_notify): Mistral '
                    'never sends a lost notification again, so the action '
                    'still ends at most this long after its workflow. 30 s '
                    'keeps a 600 s workflow to about 20 polls, a tenth of '
                    'what polling every 3 s costs.'),
    cfg.IntOpt('mistral_decision_timeout', default=120, min=1,
               help='Seconds the replace_decision workflow of an '
                    'OS::Mistral::ExternalResource may run before the '
                    'update fails (Heat waits for it before it updates or '
                    'replaces the resource).'),
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


chain_opts = [
    cfg.IntOpt('chain_segment_size', min=0,
               help='Unset (the default): an OS::Heat::ResourceChain is one '
                    'nested stack, as Heat\'s own, up to 163 members; a '
                    'chain created with more spreads its members over '
                    'nested stacks (segments) of 50. Heat 25-27 let a stack '
                    'start 1000 threads in one engine worker\'s lifetime; a '
                    'chain\'s nested stack spends 2 a member per create, '
                    'update or delete, and 3 (7 when concurrent) more '
                    '(measured on Heat 27), so 163 members survive a create, '
                    'an update and a delete, 100 four operations, 50 nine. '
                    'On every release (Heat 24.x too) a longer nested stack '
                    'is also slower than segments of 50, most of all on an '
                    'in-place update. Set, the meaning it always had: a '
                    'chain created with more than this many members is '
                    'split into segments of at most this many; 0: one '
                    'nested stack whatever the length. No member moves for '
                    'a change of shape: a chain created in segments keeps '
                    'them; one created as one nested stack that grows past '
                    'the size keeps its members there and puts the new ones '
                    'in segments.'),
]


def register_opts(conf=cfg.CONF):
    conf.register_group(GROUP)
    conf.register_opts(mistral_opts, group=GROUP)
    conf.register_opts(engine_opts, group=GROUP)
    conf.register_opts(chain_opts, group=GROUP)


def list_opts():
    """Entry point of the oslo.config.opts namespace."""
    return [(GROUP, mistral_opts + engine_opts + chain_opts)]


register_opts()
CONF = cfg.CONF
