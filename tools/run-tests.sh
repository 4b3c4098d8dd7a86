#!/usr/bin/env bash
# The test suite, in one command on a fresh Debian machine:
#   bash tools/run-tests.sh [pytest arguments]
# Installs the system packages and the virtualenv it needs, then runs pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-system-deps.sh
venv=$(bash tools/venv.sh)
exec "$venv/bin/python" -m pytest -p no:cacheprovider "$@"
