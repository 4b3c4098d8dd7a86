"""The options are listed for oslo-config-generator."""

import subprocess
import sys


def test_oslo_config_generator_prints_our_group():
    proc = subprocess.run([sys.executable, '-m', 'oslo_config.generator',
                           '--namespace', 'heat_lifecycle_plugins'],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert '[heat_lifecycle_plugins]' in proc.stdout
    assert '#mistral_poll_interval = 1.0' in proc.stdout
