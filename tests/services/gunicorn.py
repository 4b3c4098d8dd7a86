"""A threaded gunicorn serving tests/services/wsgi_app.py on 127.0.0.1."""

import os
import sys

from tests.services import procs

REPO = procs.REPO


def control_socket_off():
    """gunicorn 25+ masters share one control socket unless told not to;
    older ones have none (and no such flag)."""
    import gunicorn
    return ['--no-control-socket'] if gunicorn.version_info >= (25,) else []


def serve(name, app, config_file, workdir, port, threads=8, env=None):
    """Start gunicorn (one gthread worker) for `app`; a procs.Process."""
    env = procs.repo_env(env, HLP_WSGI_APP=app, HLP_WSGI_CONFIG=config_file)
    argv = [sys.executable, '-m', 'gunicorn'] + control_socket_off() + [
            '--bind', '127.0.0.1:%d' % port, '--workers', '1',
            '--worker-class', 'gthread', '--threads', str(threads),
            '--timeout', '300', '--graceful-timeout', '5', '--preload',
            '--chdir', REPO, 'tests.services.wsgi_app:application']
    proc = procs.Process(name, argv, os.path.join(workdir, name + '.log'),
                         env=env)
    try:
        procs.wait_for_port(port, 120, proc, name)
    except Exception:
        proc.stop()
        raise
    return proc
