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
# The dashboard plugin's unit tests (tests/dashboard) in the dashboard
# host's venv of one series (tools/horizon-venv.sh), as an operator's
# Horizon host has it:
#   bash tools/dashboard-tests.sh [SERIES] [pytest arguments]
# The tests run from the tree (PYTHONPATH, ahead of the installed wheel),
# with their own Django settings; --confcutdir keeps the project's
# tests/conftest.py (which needs Heat) out.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/series.sh
series=$(hlp_series "${1:-}")
[ $# -gt 0 ] && shift
venv=$(bash tools/horizon-venv.sh "$series")
export DJANGO_SETTINGS_MODULE=tests.dashboard.settings
# Horizon's test settings keep their secret key (and compressor its
# CACHE) in the temp dir: one of their own, removed after.
TMPDIR=$(mktemp -d -t hlp-dashboard-tests.XXXXXX)
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT
PYTHONPATH=$PWD "$venv/bin/python" -m pytest -p no:cacheprovider \
    --confcutdir=tests/dashboard tests/dashboard "$@"
