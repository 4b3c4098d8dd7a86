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
"""Our Ansible callback on the callback path of every hook's playbooks.

A hook's environment gets ANSIBLE_CALLBACK_PLUGINS with our directory
added after the user's path: the one in their environment, else the one
of the ansible.cfg that ansible-playbook would read, else ansible's
default; an environment variable replaces ansible.cfg's setting, so that
setting is carried over. A deployment's `callback_plugins` option, which
heat-agents' ansible hook puts in ANSIBLE_CALLBACK_PLUGINS in place of
ours, gets our directory added too. The callback needs no
callbacks_enabled entry: the user's list is never touched. Checked
against ansible-core 2.19's config/base.yml (DEFAULT_CALLBACK_PLUGIN_PATH)
and config/manager.py (find_ini_config_file), and heat-agents 13.0.0's
hook-ansible.py.
"""

import configparser
import os

CALLBACKS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             'ansible_callbacks')
PATH_ENV = 'ANSIBLE_CALLBACK_PLUGINS'
OPTION = 'callback_plugins'
# heat-agents' ansible hook runs ansible-playbook in this directory, whose
# ansible.cfg ansible reads.
HOOK_WORKING_ENV = 'HEAT_ANSIBLE_WORKING'
HOOK_WORKING_DIR = '/var/lib/heat-config/heat-config-ansible'
DEFAULT_PATH = '%s/plugins/callback:/usr/share/ansible/plugins/callback'


def _with_ours(path):
    parts = [p for p in (path or '').split(os.pathsep) if p]
    if CALLBACKS_DIR not in parts:
        parts.append(CALLBACKS_DIR)
    return os.pathsep.join(parts)


def _config_file(environ):
    """The ansible.cfg ansible-playbook would read, or None."""
    named = environ.get('ANSIBLE_CONFIG')
    if named:
        named = os.path.expanduser(named)
        if os.path.isdir(named):
            named = os.path.join(named, 'ansible.cfg')
    working = os.path.join(environ.get(HOOK_WORKING_ENV, HOOK_WORKING_DIR),
                           'ansible.cfg')
    home = os.path.join(environ.get('HOME') or os.path.expanduser('~'),
                        '.ansible.cfg')
    for path in (named, working, home, '/etc/ansible/ansible.cfg'):
        if path and os.path.isfile(path):
            return path
    return None


def _configured_path(environ):
    """The user's callback path when their environment names none."""
    path = _config_file(environ)
    if path:
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        try:
            parser.read(path)
            value = parser.get('defaults', OPTION, fallback=None)
        except (configparser.Error, UnicodeDecodeError):
            value = None
        if value:
            # ansible resolves ansible.cfg's relative entries against its
            # directory, an environment's against the working directory.
            base = os.path.dirname(os.path.abspath(path))
            return os.pathsep.join(
                p if p.startswith(('/', '~', '$', '{{')) else
                os.path.join(base, p)
                for p in value.strip().split(os.pathsep) if p)
    home = environ.get('ANSIBLE_HOME') or '~/.ansible'
    return DEFAULT_PATH % home


def environment(environ):
    """A copy of `environ` whose callback path has our callback."""
    env = dict(environ)
    env[PATH_ENV] = _with_ours(env.get(PATH_ENV) or _configured_path(env))
    return env


def with_callback_option(payload):
    """`payload` whose `callback_plugins` option, if any, has ours too."""
    options = payload.get('options')
    value = options.get(OPTION) if isinstance(options, dict) else None
    if not (isinstance(value, str) and value):
        return payload
    return dict(payload, options=dict(
        options, **{OPTION: _with_ours(value)}))
