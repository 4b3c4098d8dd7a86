"""Subprocess helpers: run our command with test-only plugin dists visible."""

import os
import subprocess
import sys

from tests.conftest import BROKEN_DIST
from tests.conftest import PROBE_DIST


def run_cli(*args, dists=(PROBE_DIST,), timeout=120, env=None):
    """The command in a subprocess; env replaces os.environ if given."""
    env = dict(os.environ if env is None else env)
    env['PYTHONPATH'] = os.pathsep.join(
        list(dists) + [env.get('PYTHONPATH', '')]).rstrip(os.pathsep)
    return subprocess.run(
        [sys.executable, '-m', 'heat_lifecycle_plugins.cli'] + list(args),
        env=env, capture_output=True, text=True, timeout=timeout)


def write_heat_conf(path, plugin_dir):
    with open(path, 'w') as f:
        f.write('[DEFAULT]\nplugin_dirs = %s\nenvironment_dir = %s\n'
                % (plugin_dir, os.path.dirname(path)))
    return path


__all__ = ['run_cli', 'write_heat_conf', 'BROKEN_DIST', 'PROBE_DIST']
