#!/usr/bin/env bash
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
# The demo, in one command on a fresh Debian machine:
#   bash tools/demo.sh [--keep] [--workdir DIR]   |   bash tools/demo.sh --stop DIR
# Installs what it needs (Debian packages, the pinned virtualenv), brings up
# a loopback cloud (Keystone, Heat with our plugins, Mistral), deploys the
# templates in examples/, prints their event timelines and tears it down.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-system-deps.sh
venv=$(bash tools/venv.sh)
exec "$venv/bin/python" -m tools.demo "$@"
