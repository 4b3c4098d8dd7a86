"""heat-lifecycle-agent: one pass over the server's deployments.

Run by os-refresh-config in place of heat-agents' 55-heat-config (it also
does heat-config-notify's job). For every deployment not yet signalled:
select the config, signal IN_PROGRESS when the deployment is status-aware,
run the hook under a time limit, signal the result, and only then mark it
as deployed. Every deployment that runs ends in a signal, also when nothing
could be run.
"""

import argparse
import os
import sys

from oslo_config import cfg
from oslo_log import log as logging

from heat_lifecycle_plugins.agent import config
from heat_lifecycle_plugins.agent import deployments
from heat_lifecycle_plugins.agent import hook_runner
from heat_lifecycle_plugins.agent import selection
from heat_lifecycle_plugins.agent import signalling
from heat_lifecycle_plugins.agent import state
from heat_lifecycle_plugins.agent import trim

LOG = logging.getLogger('heat_lifecycle_plugins.agent')

# Groups that never had a hook (os-apply-config reads its data itself).
HOOKLESS_GROUPS = ('os-apply-config',)
ERROR_STATUS = 1


class Settings(object):
    """What one pass needs, resolved from flags, environment and config."""

    def __init__(self, metadata_file, deployed_dir, hooks_dirs, hook_timeout,
                 retry, signal_timeout, max_signal_bytes):
        self.metadata_file = metadata_file
        self.deployed_dir = deployed_dir
        self.hooks_dirs = hooks_dirs
        self.hook_timeout = hook_timeout
        self.retry = retry
        self.signal_timeout = signal_timeout
        self.max_signal_bytes = max_signal_bytes


def _scrub(text, secrets):
    for secret in secrets:
        text = text.replace(secret, deployments.REDACTED)
    return text


def _secrets(inputs):
    return [str(v) for k, v in inputs.items()
            if deployments.is_secret(k) and v and len(str(v)) >= 4]


def final_body(result, status_aware, secrets):
    """The final signal for a HookResult (outputs, logs, status)."""
    body = dict(result.outputs)
    body['deploy_stdout'] = _scrub(result.stdout, secrets)
    body['deploy_stderr'] = _scrub(result.stderr, secrets)
    if result.reason:
        body['deploy_stderr'] += ('\n' if body['deploy_stderr'] else '') + \
            '[heat-lifecycle-agent] ' + result.reason
    body['deploy_status_code'] = result.status_code
    if status_aware:
        body['deploy_status'] = 'FAILED' if result.failed else 'COMPLETE'
        body['deploy_status_reason'] = result.reason or (
            'Deployment succeeded' if not result.failed
            else 'Deployment exited with status %s' % result.status_code)
    return body


def fit_body(body, max_bytes, status_aware, name):
    """`body` within Heat's size limit, saying what was trimmed."""
    fitted, trimmed = trim.fit(body, max_bytes)
    if fitted is None:
        LOG.error('Deployment %s: its outputs alone exceed %d bytes; '
                  'signalling failure without them', name, max_bytes)
        fitted = {
            'deploy_stdout': '', 'deploy_status_code': ERROR_STATUS,
            'deploy_stderr': '[heat-lifecycle-agent] the outputs of the '
                             'deployment exceed the %d-byte signal limit and '
                             'were dropped' % max_bytes}
        if status_aware:
            fitted['deploy_status'] = 'FAILED'
            fitted['deploy_status_reason'] = fitted['deploy_stderr']
        return fitted
    if trimmed:
        LOG.warning('Deployment %s: %d characters trimmed from the start of '
                    'deploy_stdout/deploy_stderr to fit %d bytes',
                    name, trimmed, max_bytes)
        if status_aware:
            fitted['deploy_status_reason'] += (
                ' (%d characters of output trimmed to fit the signal)'
                % trimmed)
    return fitted


def run_deployment(deployment, settings, state_dir):
    """Run and signal one deployment; True when nothing is left to do."""
    name = deployments.describe(deployment)
    inputs = deployments.input_values(deployment) \
        if isinstance(deployment, dict) else {}
    status_aware = deployments.is_true(inputs.get('deploy_status_aware'))
    signaller = signalling.Signaller(
        inputs, settings.retry, settings.signal_timeout)
    secrets = _secrets(inputs)

    try:
        selected, problem = selection.select(deployment), None
    except deployments.BadDeployment as exc:
        selected, problem = None, str(exc)
    if problem:
        LOG.error('%s', problem)
        result = hook_runner.HookResult(ERROR_STATUS, reason=problem)
    else:
        deployments.stringify_string_inputs(selected)
        if selected['group'] in HOOKLESS_GROUPS:
            LOG.info('Deployment %s: group %s has no hook; nothing to run',
                     name, selected['group'])
            result = hook_runner.HookResult(0)
        else:
            result = _run_hook(selected, name, settings, signaller,
                               status_aware)

    body = fit_body(final_body(result, status_aware, secrets),
                    settings.max_signal_bytes, status_aware, name)
    _record(state_dir, deployment, body)
    return _signal_final(deployment, body, signaller, state_dir, name)


def _record(state_dir, deployment, body):
    """Keep the signal body for debugging; never a reason not to signal."""
    try:
        deployments.check(deployment)
        state_dir.record_signal(deployment['id'], body)
    except (deployments.BadDeployment, OSError) as exc:
        error = exc
    else:
        return
    LOG.warning('Deployment %s: signal body not kept: %s',
                deployments.describe(deployment), error)


def signal_internal_error(deployment, settings, error):
    """Last resort: tell Heat the agent itself failed on `deployment`."""
    inputs = (deployments.input_values(deployment)
              if isinstance(deployment, dict) else {})
    status_aware = deployments.is_true(inputs.get('deploy_status_aware'))
    signaller = signalling.Signaller(inputs, settings.retry,
                                     settings.signal_timeout)
    if not signaller.enabled:
        return
    result = hook_runner.HookResult(
        ERROR_STATUS, reason='heat-lifecycle-agent internal error: %s: %s'
        % (type(error).__name__, error))
    body = final_body(result, status_aware, _secrets(inputs))
    sent_error, _ = _send(signaller, body)
    if sent_error:
        LOG.error('Deployment %s: %s', deployments.describe(deployment),
                  sent_error)


def _run_hook(selected, name, settings, signaller, status_aware):
    hook = hook_runner.find_hook(selected['group'], settings.hooks_dirs)
    if hook is None:
        reason = ('no hook for group %s in %s' % (
            selected['group'],
            ', '.join(settings.hooks_dirs + [hook_runner.PACKAGED_HOOKS_DIR])))
        LOG.error('Deployment %s: %s', name, reason)
        return hook_runner.HookResult(hook_runner.NOT_FOUND, reason=reason)

    if status_aware and signaller.enabled:
        action = deployments.input_values(selected).get('deploy_action')
        progress = {'deploy_status': 'IN_PROGRESS',
                    'deploy_status_reason':
                        'heat-lifecycle-agent started %s hook for %s%s' % (
                            selected['group'], name,
                            ' (action %s)' % action if action else '')}
        error, _ = _send(signaller, progress)
        if error:
            # The result still counts: run the tool and report it.
            LOG.warning('Deployment %s: progress signal not delivered: %s',
                        name, error)

    LOG.info('Deployment %s: running hook %s (group %s), time limit %ss',
             name, hook, selected['group'], settings.hook_timeout)
    result = hook_runner.run(hook, selected, settings.hook_timeout)
    if result.failed:
        LOG.error('Deployment %s failed with status %s: %s', name,
                  result.status_code, result.reason)
    else:
        LOG.info('Deployment %s completed', name)
    return result


def _signal_final(deployment, body, signaller, state_dir, name):
    dep_id = deployment.get('id') if isinstance(deployment, dict) else None
    if not signaller.enabled:
        LOG.info('Deployment %s: no signal transport (NO_SIGNAL)', name)
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
    if dep_id:
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
    try:
        deployments.check(deployment)
        state_dir.mark_signalled(deployment)
    except (deployments.BadDeployment, OSError) as exc:
        error = exc
    else:
        return
    # Signalled but not marked: it runs (and signals) again next pass.
    LOG.error('Deployment %s: could not be marked as signalled: %s',
              deployments.describe(deployment), error)


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
        try:
            items, problem = deployments.load(settings.metadata_file), None
        except deployments.BadDeployment as exc:
            items, problem = [], str(exc)
        if problem:
            LOG.error('%s', problem)
            return 1
        ok = True
        for deployment in items:
            dep_id = deployment.get('id') if isinstance(deployment,
                                                        dict) else None
            if isinstance(dep_id, str) and '/' not in dep_id and \
                    state_dir.signalled(dep_id):
                LOG.debug('Deployment %s already signalled',
                          deployments.describe(deployment))
                continue
            try:
                ok = run_deployment(deployment, settings, state_dir) and ok
            except Exception as exc:
                LOG.exception('Deployment %s: unexpected error',
                              deployments.describe(deployment))
                signal_internal_error(deployment, settings, exc)
                ok = False
        return 0 if ok else 1


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
                             '$HEAT_CONFIG_HOOKS and hooks_dirs; repeatable')
    parser.add_argument('--hook-timeout', type=float,
                        help='seconds a hook may run (hook_timeout)')
    parser.add_argument('--signal-retries', type=int,
                        help='retries of a signal (signal_retries)')
    parser.add_argument('--signal-backoff', type=float,
                        help='seconds before the first signal retry '
                             '(signal_backoff)')
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
        signal_timeout=opts.signal_timeout,
        max_signal_bytes=opts.max_signal_bytes)
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
