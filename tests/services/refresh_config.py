"""The os-refresh-config step of a DeployedServer, as a real image runs it.

os-collect-config runs this as its command with OS_CONFIG_FILES set. Like
os-apply-config with heat-agents' heat-config template, it writes the
`deployments` of the collected Heat metadata to the heat-config file
(HEAT_SHELL_CONFIG), then runs `heat-lifecycle-agent` (the step heat-agents'
55-heat-config would be) and exits with its status.
"""

import json
import os
import subprocess
import sys


def collected_deployments(config_files):
    """The deployments list of the last collected file that has one."""
    found = []
    for path in config_files:
        if not path:
            continue
        with open(path, encoding='utf-8') as f:
            data = json.load(f)
        if isinstance(data, dict) and 'deployments' in data:
            found = data['deployments']
    return found


def write_private(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd = os.open(path + '.tmp', os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(path + '.tmp', path)


def main():
    files = os.environ.get('OS_CONFIG_FILES', '').split(':')
    write_private(os.environ['HEAT_SHELL_CONFIG'],
                  json.dumps(collected_deployments(files)))
    agent = [sys.executable, '-m', 'heat_lifecycle_plugins.agent.main']
    return subprocess.call(agent + sys.argv[1:])


if __name__ == '__main__':
    sys.exit(main())
