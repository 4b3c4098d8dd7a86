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
"""Each command's --help, as it prints it, for the CLI reference.

The `openstack lifecycle ...` commands too, from their classes (the
entry points of openstack.lifecycle.v1 in setup.cfg).

Rendered from heat_lifecycle_plugins.cmd.cli's own parser, so the reference
cannot drift from the command. `why` and `run-action` show the openstack
client's options as openstack.config registers them for the default
(password) auth type: the builder's OS_* variables and clouds.yaml are set
aside while it runs.
"""

import configparser
import contextlib
import importlib
import io
import os
import tempfile

from heat_lifecycle_plugins.cmd import cli

WIDTH = '79'


@contextlib.contextmanager
def neutral_environment():
    """No OS_* variables nor clouds of the builder; 79 columns."""
    saved = dict(os.environ)
    for name in [k for k in os.environ if k.startswith('OS_')]:
        del os.environ[name]
    with tempfile.NamedTemporaryFile('w', suffix='.yaml') as clouds:
        clouds.write('clouds: {}\n')
        clouds.flush()
        os.environ.update(COLUMNS=WIDTH, OS_CLIENT_CONFIG_FILE=clouds.name)
        try:
            yield
        finally:
            os.environ.clear()
            os.environ.update(saved)


def commands():
    """The subcommands, in the parser's order."""
    parser = cli.build_parser([])
    [sub] = [a for a in parser._actions if a.dest == 'command']
    return list(sub.choices)


def help_text(argv):
    """What `heat-lifecycle-plugins ARGV --help` prints."""
    out = io.StringIO()
    with neutral_environment(), contextlib.redirect_stdout(out):
        try:
            cli.build_parser(list(argv)).parse_args(list(argv) + ['--help'])
        except SystemExit:
            pass
    return out.getvalue()


OSC_GROUP = 'openstack.lifecycle.v1'
SETUP_CFG = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), 'setup.cfg')


def osc_commands():
    """{'lifecycle cause list': 'module:Class'} from setup.cfg."""
    parser = configparser.ConfigParser()
    parser.read(SETUP_CFG)
    found = {}
    for line in parser['entry_points'][OSC_GROUP].strip().splitlines():
        name, _sep, target = line.partition('=')
        found[name.strip().replace('_', ' ')] = target.strip()
    return found


def osc_file_name(command):
    return 'openstack-' + command.replace(' ', '-')


def osc_help_text(command):
    """What `openstack COMMAND --help` prints (its own options)."""
    module, _sep, name = osc_commands()[command].partition(':')
    cls = getattr(importlib.import_module(module), name)
    with neutral_environment():
        parser = cls(None, None).get_parser('openstack ' + command)
        return parser.format_help()
