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
"""The deployments list written by os-collect-config, each read once.

Every item of the list becomes a Deployment: its problem (None when it can
be run), its id, name and input values, and the Redactor of its secrets.
A malformed item is a Deployment too, so that the inputs that could be read
still say how to signal its failure.
"""

import json
import os
import stat

from heat_lifecycle_plugins.agent import redaction
from heat_lifecycle_plugins import protocol


class BadDeployment(ValueError):
    """A deployment the agent cannot run; the message says why."""


def load(path):
    """The deployments in the metadata file at `path`, as Deployments.

    heat-agents' os-apply-config template writes the bare list; a map with a
    `deployments` key (the server's whole metadata) is accepted too. The file
    holds credentials, so it is made private as 55-heat-config does.
    """
    try:
        if stat.S_IMODE(os.lstat(path).st_mode) != 0o600:
            os.chmod(path, 0o600)
        with open(path, encoding='utf-8') as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise BadDeployment('metadata file %s cannot be read: %s'
                            % (path, exc))
    if not text.strip():
        return []
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise BadDeployment('metadata file %s is not JSON: %s' % (path, exc))
    if isinstance(data, dict):
        data = data.get(protocol.METADATA_DEPLOYMENTS) or []
    if not isinstance(data, list):
        raise BadDeployment('metadata file %s holds %s, not a list of '
                            'deployments' % (path, type(data).__name__))
    return [Deployment(item) for item in data]


def describe(raw):
    """A short name for logs and error messages (never input values)."""
    if not isinstance(raw, dict):
        return repr(raw)[:80]
    return '%s (id %s)' % (raw.get(protocol.NAME) or '?',
                           raw.get(protocol.ID) or '?')


def _is_file_name(text):
    """Whether the file system takes `text` (no NUL, no lone surrogate)."""
    try:
        return b'\0' not in os.fsencode(text)
    except UnicodeError:
        return False


def _usable_id(raw):
    """The item's id if it can name a state file, else None."""
    dep_id = raw.get(protocol.ID) if isinstance(raw, dict) else None
    if (isinstance(dep_id, str) and dep_id and '/' not in dep_id and
            not dep_id.startswith('.') and _is_file_name(dep_id)):
        return dep_id
    return None


def _problem(raw, name):
    """Why the agent cannot use item `raw`, or None."""
    if not isinstance(raw, dict):
        return 'deployment %s is a %s, not a map' % (name,
                                                     type(raw).__name__)
    if _usable_id(raw) is None:
        return 'deployment %s: bad id %r' % (name, raw.get(protocol.ID))
    inputs = raw.get(protocol.INPUTS) or []
    if not isinstance(inputs, list):
        return 'deployment %s: inputs must be a list, got a %s' % (
            name, type(inputs).__name__)
    for index, item in enumerate(inputs):
        # Input values may be secrets: name the item, never print it.
        if not isinstance(item, dict) or not isinstance(
                item.get(protocol.IO_NAME), str):
            return ('deployment %s: inputs[%d] must be a map with a string '
                    'name, got a %s' % (name, index, type(item).__name__))
    group = raw.get(protocol.GROUP)
    if not isinstance(group, str) or not group:
        return 'deployment %s: bad group %r' % (name, group)
    return None


def _input_values(raw):
    """name -> value of the inputs that can be read (a string name)."""
    inputs = raw.get(protocol.INPUTS) if isinstance(raw, dict) else None
    if not isinstance(inputs, list):
        return {}
    return {item[protocol.IO_NAME]: item.get(protocol.IO_VALUE)
            for item in inputs
            if isinstance(item, dict) and
            isinstance(item.get(protocol.IO_NAME), str)}


def _run_timeout(values):
    """Seconds of the deployment's run_timeout, or None (none delivered).

    A value that is not a positive number is no deadline: Heat enforces
    its own deadline anyway, the agent only stops the tool then.
    """
    try:
        seconds = float(values.get(protocol.DEPLOY_RUN_TIMEOUT))
    except (TypeError, ValueError):
        return None
    return seconds if 0 < seconds < float('inf') else None


class Deployment(object):
    """One item of the deployments list, read once."""

    def __init__(self, raw):
        self.raw = raw
        self.name = describe(raw)
        self.id = _usable_id(raw)
        self.problem = _problem(raw, self.name)
        self.values = _input_values(raw)
        self.action = self.values.get(protocol.DEPLOY_ACTION)
        self.status_aware = protocol.is_true(
            self.values.get(protocol.DEPLOY_STATUS_AWARE))
        self.run_timeout = _run_timeout(self.values)
        self.redactor = redaction.Redactor(self.values)

    def redacted(self):
        """The item without its secrets, safe to keep on disk."""
        copy = dict(self.raw)
        copy[protocol.INPUTS] = self.redactor.inputs(
            self.raw.get(protocol.INPUTS) or [])
        return copy
