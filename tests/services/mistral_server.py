"""One-process Mistral (engine + API) for tests:
`python -m tests.services.mistral_server CONFIG [PARENT_PID]`.

Run as a subprocess by tests/services/mistral.py. The engine, executor and
notifier are all local to this process, on oslo.messaging's fake://
transport, with an sqlite database whose schema is built directly (Mistral's
alembic migrations do not run on sqlite). SIGTERM or SIGINT ends it at once:
futurist threads would otherwise keep the interpreter alive. Given
PARENT_PID, it also exits when that process is no longer its parent.
"""

import importlib.metadata

# First, the concurrency model mistral-server of the installed release
# uses: eventlet, monkey-patched, up to 20.x; oslo.service's threading
# backend, selected by importing mistral.cmd, from 21.0.
if int(importlib.metadata.version('mistral').split('.')[0]) < 21:
    import eventlet
    eventlet.monkey_patch()
else:
    import mistral.cmd  # noqa: F401

import os  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

from oslo_config import cfg
from oslo_log import log as logging


def main(config_file, parent_pid=None):
    if parent_pid:
        from tests.services import procs
        procs.exit_with_parent(parent_pid)
    from mistral import config
    config.parse_args(['--config-file', config_file])
    logging.setup(cfg.CONF, 'mistral')

    from mistral.db.v2 import api as db_api
    from mistral.services import action_manager
    from mistral.services import workflows
    db_api.setup_db()
    action_manager.sync_db()
    workflows.sync_db()

    from mistral.api import service as api_service
    from mistral.engine import engine_server
    from mistral.rpc import base as rpc
    rpc.get_transport()

    def _exit_now(signum, frame):
        sys.stdout.flush()
        os._exit(0)

    signal.signal(signal.SIGTERM, _exit_now)
    signal.signal(signal.SIGINT, _exit_now)
    # Started directly, without a launcher: no forks, no signal handlers
    # that wait for threads which never end.
    engine_server.get_oslo_service().start()
    api_service.WSGIService('mistral_api').start()
    print('mistral-test-server started', flush=True)
    while True:
        time.sleep(3600)  # an eventlet hub runs the services meanwhile


if __name__ == '__main__':
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else None)
