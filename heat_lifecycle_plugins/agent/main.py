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
"""heat-lifecycle-agent: one pass over the server's deployments.

Run by os-refresh-config in place of heat-agents' 55-heat-config (it also
does heat-config-notify's job). For every deployment not yet signalled:
select the config, signal IN_PROGRESS when the deployment is status-aware,
run the hook under a time limit (with heartbeats while it runs), keep the
result, signal it, and only then mark it as deployed. Every deployment that
runs ends in a signal, also when nothing could be run; a result that could
not be delivered is sent again on the next pass without running the tool
again.
"""

import argparse
import os
import sys
import threading

from oslo_config import cfg
from oslo_log import log as logging

from heat_lifecycle_plugins.agent import config
from heat_lifecycle_plugins.agent import deployments
from heat_lifecycle_plugins.agent import hook_runner
from heat_lifecycle_plugins.agent import milestones
from heat_lifecycle_plugins.agent import selection
from heat_lifecycle_plugins.agent import signal_bodies
from heat_lifecycle_plugins.agent import signalling
from heat_lifecycle_plugins.agent import state
from heat_lifecycle_plugins import protocol

LOG = logging.getLogger('heat_lifecycle_plugins.agent')

# Groups that never had a hook (os-apply-config reads its data itself).
HOOKLESS_GROUPS = ('os-apply-config',)


class Settings(object):
    """What one pass needs, resolved from flags, environment and config."""

    def __init__(self, metadata_file, deployed_dir, hooks_dirs, hook_timeout,
                 retry, signal_timeout, max_signal_bytes,
                 heartbeat_interval=0, milestone_interval=0):
        self.metadata_file = metadata_file
        self.deployed_dir = deployed_dir
        self.hooks_dirs = hooks_dirs
        self.hook_timeout = hook_timeout
        self.retry = retry
        self.signal_timeout = signal_timeout
        self.max_signal_bytes = max_signal_bytes
        self.heartbeat_interval = heartbeat_interval
        self.milestone_interval = milestone_interval


def _signaller(deployment, settings, retry=None):
    return signalling.Signaller(deployment, retry or settings.retry,
                                settings.signal_timeout)


def run_deployment(deployment, settings, state_dir):
    """Run and signal one Deployment; True when nothing is left to do."""
    signaller = _signaller(deployment, settings)
    kept = (state_dir.undelivered_result(deployment.id)
            if deployment.id and not deployment.problem else None)
    if kept is not None:
        LOG.info('Deployment %s: its result was not delivered on an earlier '
                 'pass; sending it again without running the tool',
                 deployment.name)
        return _signal_final(deployment, kept, signaller, state_dir)
    try:
        payload, problem = selection.select(deployment), None
    except deployments.BadDeployment as exc:
        payload, problem = None, str(exc)
    if problem:
        LOG.error('%s', problem)
        result = hook_runner.HookResult(hook_runner.ERROR_STATUS,
                                        reason=problem)
    elif payload[protocol.GROUP] in HOOKLESS_GROUPS:
        LOG.info('Deployment %s: group %s has no hook; nothing to run',
                 deployment.name, payload[protocol.GROUP])
        result = hook_runner.HookResult(0)
    else:
        result = _run_hook(payload, deployment, settings, signaller)

    body = signal_bodies.fit(signal_bodies.result(result, deployment),
                             settings.max_signal_bytes,
                             deployment.status_aware, deployment.name)
    _record(state_dir, deployment, body)
    return _signal_final(deployment, body, signaller, state_dir)


def _record(state_dir, deployment, body):
    """Keep the signal body for debugging; never a reason not to signal."""
    error = deployment.problem
    if not error:
        try:
            state_dir.record_signal(deployment.id, body)
            return
        except OSError as exc:
            error = exc
    LOG.warning('Deployment %s: signal body not kept: %s', deployment.name,
                error)


def signal_internal_error(deployment, settings, error):
    """Last resort: tell Heat the agent itself failed on `deployment`."""
    signaller = _signaller(deployment, settings)
    if not signaller.enabled:
        return
    result = hook_runner.HookResult(
        hook_runner.ERROR_STATUS,
        reason='heat-lifecycle-agent internal error: %s: %s'
        % (type(error).__name__, error))
    sent_error, _ = _send(signaller,
                          signal_bodies.result(result, deployment))
    if sent_error:
        LOG.error('Deployment %s: %s', deployment.name, sent_error)


def _run_hook(payload, deployment, settings, signaller):
    name, group = deployment.name, payload[protocol.GROUP]
    hook = hook_runner.find_hook(group, settings.hooks_dirs)
    if hook is None:
        reason = ('no hook for group %s in %s' % (
            group,
            ', '.join(settings.hooks_dirs + [hook_runner.PACKAGED_HOOKS_DIR])))
        LOG.error('Deployment %s: %s', name, reason)
        return hook_runner.HookResult(hook_runner.NOT_FOUND, reason=reason)

    first = _first_signal(deployment, group, signaller)
    limit = hook_runner.time_limit(settings.hook_timeout,
                                   deployment.run_timeout)
    LOG.info('Deployment %s: running hook %s (group %s), time limit %s',
             name, hook, group, '%g s' % limit.seconds if limit else 'none')
    try:
        result = hook_runner.run(
            hook, payload, limit, hook_runner.Progress(
                _heartbeat(deployment, group, settings, signaller),
                settings.heartbeat_interval,
                _milestone(deployment, group, settings, signaller),
                settings.milestone_interval, settings.deployed_dir,
                ready=lambda: not first.is_alive()))
    finally:
        first.join()  # no later signal overtakes it
    if result.failed:
        LOG.error('Deployment %s failed with status %s: %s', name,
                  result.status_code,
                  deployment.redactor.text(result.reason or ''))
    else:
        LOG.info('Deployment %s completed', name)
    return result


def _first_signal(deployment, tool, signaller):
    """The IN_PROGRESS signal, sent from a thread while the hook starts.

    The hook does not wait for heat-api's answer; every later signal
    does (the returned thread is joined first), so Heat gets them in
    order. Not status-aware: a thread that sends nothing.
    """
    def send():
        if not (deployment.status_aware and signaller.enabled):
            return
        try:
            error, _ = _send(signaller,
                             signal_bodies.progress(deployment, tool))
        except Exception as exc:  # a thread's error would go unlogged
            error = '%s: %s' % (type(exc).__name__, exc)
        if error:
            # The result still counts: run the tool and report it.
            LOG.warning('Deployment %s: progress signal not delivered: %s',
                        deployment.name, deployment.redactor.text(error))
    thread = threading.Thread(target=send, name='first-signal', daemon=True)
    thread.start()
    return thread


def _heartbeat(deployment, tool, settings, signaller):
    """What to call while the hook runs, or None (not status-aware).

    A heartbeat is sent once, never retried: the next one is due soon.
    """
    if not (deployment.status_aware and signaller.enabled):
        return None
    once = _signaller(deployment, settings, signalling.Retry(0, 0))

    def beat(seconds):
        error, _ = _send(once, signal_bodies.heartbeat(deployment, tool,
                                                       seconds))
        if error:
            LOG.warning('Deployment %s: heartbeat not delivered: %s',
                        deployment.name, error)
    return beat


def _milestone(deployment, tool, settings, signaller):
    """What relays the tool's milestones, or None (not status-aware).

    Like a heartbeat, a milestone is sent once, never retried.
    """
    if not (deployment.status_aware and signaller.enabled):
        return None
    once = _signaller(deployment, settings, signalling.Retry(0, 0))

    def relay(milestone, replaced):
        error, _ = _send(once, signal_bodies.milestone(
            deployment, tool, milestone, replaced))
        if error:
            LOG.warning('Deployment %s: milestone not delivered: %s',
                        deployment.name, error)
    return relay


def _signal_final(deployment, body, signaller, state_dir):
    name = deployment.name
    if not signaller.enabled:
        LOG.info('Deployment %s: no signal transport (%s)', name,
                 protocol.NO_SIGNAL)
    else:
        error, rejected = _send(signaller, body)
        if rejected:
            # Permanent: running the tool again would not change Heat's mind.
            LOG.error('Deployment %s: %s; not retried', name, error)
            _mark(state_dir, deployment)
            return False
        if error:
            LOG.error('Deployment %s: %s; it runs again on the next pass',
                      name, error)
            return False
        LOG.info('Deployment %s: signalled %s', name, signaller.target)
    if deployment.id:
        _mark(state_dir, deployment)
    return True


def _send(signaller, body):
    """(error text or None, whether Heat rejected it) of one signal."""
    try:
        signaller.send(body)
    except signalling.SignalRejected as exc:
        return str(exc), True
    except signalling.SignalError as exc:
        return str(exc), False
    return None, False


def _mark(state_dir, deployment):
    error = deployment.problem
    if not error:
        try:
            state_dir.mark_signalled(deployment)
            return
        except OSError as exc:
            error = exc
    # Signalled but not marked: it runs (and signals) again next pass.
    LOG.error('Deployment %s: could not be marked as signalled: %s',
              deployment.name, error)


def run_pass(settings):
    """One pass over the metadata file; the process exit status."""
    if not os.path.exists(settings.metadata_file):
        LOG.error('No metadata file %s', settings.metadata_file)
        return 1
    try:
        state_dir = state.StateDir(settings.deployed_dir)
    except OSError as exc:
        error = exc
    else:
        return _run_locked(settings, state_dir)
    LOG.error('State directory %s unusable: %s', settings.deployed_dir,
              error)
    return 1


def _run_locked(settings, state_dir):
    with state_dir.lock():
        milestones.remove_stale(state_dir.path)
        try:
            items, problem = deployments.load(settings.metadata_file), None
        except deployments.BadDeployment as exc:
            items, problem = [], str(exc)
        if problem:
            LOG.error('%s', problem)
            return 1
        ok = True
        for deployment in items:
            if deployment.id and state_dir.signalled(deployment.id):
                LOG.debug('Deployment %s already signalled', deployment.name)
                continue
            try:
                ok = run_deployment(deployment, settings, state_dir) and ok
            except Exception as exc:
                LOG.exception('Deployment %s: unexpected error',
                              deployment.name)
                signal_internal_error(deployment, settings, exc)
                ok = False
        return 0 if ok else 1


# Options of the config file a flag of the same name overrides.
FLAG_OPTIONS = ('hook_timeout', 'heartbeat_interval', 'milestone_interval',
                'signal_retries', 'signal_backoff', 'signal_timeout')


def _add_option_flags(parser):
    """--hook-timeout etc., typed and described as their options are."""
    options = {opt.name: opt for opt in config.agent_opts}
    for name in FLAG_OPTIONS:
        opt = options[name]
        kind = int if isinstance(opt, cfg.IntOpt) else float
        parser.add_argument('--' + name.replace('_', '-'), type=kind,
                            help='%s (option %s)' % (opt.help, name))


def option_flags(options):
    """The agent's command-line flags for `options` ({name: value}).

    {'hook_timeout': 120} -> ['--hook-timeout', '120']; a None value is
    left out (the config file's option holds). For whatever starts the
    agent, e.g. the test fixtures' DeployedServer.
    """
    unknown = sorted(set(options) - set(FLAG_OPTIONS))
    if unknown:
        raise ValueError('not an agent flag option: %s' % ', '.join(unknown))
    return [arg for name in FLAG_OPTIONS if options.get(name) is not None
            for arg in ('--' + name.replace('_', '-'), str(options[name]))]


def _parser():
    parser = argparse.ArgumentParser(
        prog='heat-lifecycle-agent',
        description='Apply and signal the Heat software deployments of this '
                    'server (a drop-in for heat-agents\' 55-heat-config).')
    parser.add_argument('--config-file', help='oslo.config file with '
                        'the [%s] options' % config.GROUP.name)
    parser.add_argument('--metadata-file', help='deployments JSON '
                        '(default: $HEAT_SHELL_CONFIG or metadata_file)')
    parser.add_argument('--deployed-dir', help='state directory (default: '
                        '$HEAT_CONFIG_DEPLOYED or deployed_dir)')
    parser.add_argument('--hooks-dir', action='append', default=[],
                        help='hooks directory, searched before '
                             '$HEAT_CONFIG_HOOKS and hooks_dirs; repeatable; '
                             '@packaged: the hooks shipped with the agent')
    _add_option_flags(parser)
    parser.add_argument('--debug', action='store_true',
                        help='log at DEBUG level')
    return parser


def settings_from(args, environ):
    # The agent's own ConfigOpts, its options registered here: never the
    # engine's [heat_lifecycle_plugins] options nor the global CONF.
    conf = cfg.ConfigOpts()
    config.register_opts(conf)
    logging.register_options(conf)
    conf.set_default('use_stderr', True)
    conf(args=['--config-file', args.config_file] if args.config_file
         else [], project='heat-lifecycle-agent', default_config_files=[])
    if args.debug:
        conf.set_override('debug', True)
    opts = conf[config.GROUP.name]
    hooks_dirs = list(args.hooks_dir)
    if environ.get('HEAT_CONFIG_HOOKS'):
        hooks_dirs.append(environ['HEAT_CONFIG_HOOKS'])
    hooks_dirs += list(opts.hooks_dirs)
    settings = Settings(
        metadata_file=(args.metadata_file or environ.get('HEAT_SHELL_CONFIG')
                       or opts.metadata_file),
        deployed_dir=(args.deployed_dir or environ.get('HEAT_CONFIG_DEPLOYED')
                      or opts.deployed_dir),
        hooks_dirs=hooks_dirs,
        hook_timeout=args.hook_timeout or opts.hook_timeout,
        retry=signalling.Retry(
            opts.signal_retries if args.signal_retries is None
            else args.signal_retries,
            opts.signal_backoff if args.signal_backoff is None
            else args.signal_backoff),
        signal_timeout=(opts.signal_timeout if args.signal_timeout is None
                        else args.signal_timeout),
        max_signal_bytes=opts.max_signal_bytes,
        heartbeat_interval=(opts.heartbeat_interval
                            if args.heartbeat_interval is None
                            else max(args.heartbeat_interval, 0)),
        milestone_interval=(opts.milestone_interval
                            if args.milestone_interval is None
                            else max(args.milestone_interval, 0)))
    return conf, settings


def main(argv=None, environ=None):
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    try:
        conf, settings = settings_from(
            args, os.environ if environ is None else environ)
    except cfg.Error as exc:
        sys.stderr.write('heat-lifecycle-agent: bad configuration: %s\n'
                         % exc)
        return 2
    logging.setup(conf, 'heat-lifecycle-agent')
    return run_pass(settings)


if __name__ == '__main__':
    sys.exit(main())
