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
"""The agent's state directory: which deployments were signalled.

`<id>.json` means "signalled" (the name heat-agents uses, so an image that
switches from 55-heat-config keeps its history). It is written only after
Heat accepted the final signal. It holds the deployment without its
secrets. `<id>.notify.json` is the final signal body, written before it is
sent: without `<id>.json` it is a result not delivered yet, which the next
pass sends again instead of running the tool again. A crash before the
tool's result was kept re-runs the deployment on the next pass.
"""

import contextlib
import fcntl
import json
import os

from oslo_log import log as logging

LOG = logging.getLogger(__name__)

OLD_DEPLOYED_DIR = '/var/run/heat-config/deployed'


class StateDir(object):

    def __init__(self, path, old_path=OLD_DEPLOYED_DIR):
        self.path = path
        if not os.path.isdir(path):
            if old_path and old_path != path and os.path.isdir(old_path):
                # heat-agents' former location: keep its markers.
                os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
                os.rename(old_path, path)
            else:
                os.makedirs(path, 0o700, exist_ok=True)

    def _file(self, dep_id, suffix):
        return os.path.join(self.path, dep_id + suffix)

    def signalled(self, dep_id):
        return os.path.exists(self._file(dep_id, '.json'))

    def mark_signalled(self, deployment):
        """Mark a deployments.Deployment as signalled."""
        self._write(self._file(deployment.id, '.json'),
                    deployment.redacted(), 0o644)

    def record_signal(self, dep_id, body):
        self._write(self._file(dep_id, '.notify.json'), body, 0o600)

    def undelivered_result(self, dep_id):
        """The kept final body of a deployment not signalled yet, or None."""
        path = self._file(dep_id, '.notify.json')
        if self.signalled(dep_id) or not os.path.exists(path):
            return None
        try:
            with open(path, encoding='utf-8') as f:
                body = json.load(f)
        except (OSError, ValueError) as exc:
            LOG.warning('Deployment %s: kept result %s unreadable (%s); the '
                        'deployment runs again', dep_id, path, exc)
            return None
        return body if isinstance(body, dict) else None

    @staticmethod
    def _write(path, data, mode):
        tmp = path + '.tmp'
        fd = os.open(tmp, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, mode)
        with os.fdopen(fd, 'w') as f:
            json.dump(data, f, indent=2, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)

    @contextlib.contextmanager
    def lock(self):
        """One agent pass at a time (os-collect-config may overlap)."""
        fd = os.open(os.path.join(self.path, '.lock'),
                     os.O_CREAT | os.O_RDWR, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)
