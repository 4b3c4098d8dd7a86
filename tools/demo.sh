#!/usr/bin/env bash
# The demo, in one command on a fresh Debian machine:
#   bash tools/demo.sh [--keep] [--workdir DIR]   |   bash tools/demo.sh --stop DIR
# Installs what it needs (Debian packages, the pinned virtualenv), brings up
# a loopback cloud (Keystone, Heat with our plugins, Mistral), deploys the
# templates in examples/, prints their event timelines and tears it down.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-system-deps.sh
venv=$(bash tools/venv.sh)
exec "$venv/bin/python" tools/demo.py "$@"
