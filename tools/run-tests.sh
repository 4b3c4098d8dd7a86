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
# The test suite, in one command on a fresh Debian machine:
#   bash tools/run-tests.sh
#       every tier on every supported Heat series (tools/matrix.py) and
#       the lint once, with the support table at the end; .test-results/
#       keeps the logs. Some tiers run in Debian roots on Python 3.9, 3.13
#       and 3.14 (tools/python-root.sh, .roots/; HLP_ROOTS=0: none)
#   bash tools/run-tests.sh --heat SERIES [pytest arguments]
#       pytest on one series' venv, e.g. --heat 2025.1 tests/functional
#   bash tools/run-tests.sh [pytest arguments]
#       pytest on the newest series
# Installs the system packages and the virtualenvs it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/series.sh
series=
if [ "${1:-}" = --heat ]; then
    [ $# -ge 2 ] || { echo "--heat needs a series: $HLP_SERIES_ALL" >&2; exit 2; }
    series=$2
    shift 2
fi
# Tests under tests/unit alone need no MariaDB or RabbitMQ, and so no root;
# the browser tier (in the matrix, or named) needs chromium too.
only_unit=0
browser=0
[ $# -eq 0 ] && browser=1
for arg in "$@"; do
    case $arg in
        tests|tests/|./tests|./tests/|tests/browser*|./tests/browser*)
            browser=1 ;;
    esac
done
for arg in "$@"; do
    case $arg in
        tests/unit|tests/unit/*|./tests/unit|./tests/unit/*) only_unit=1 ;;
        tests/*|./tests/*) only_unit=0; break ;;
    esac
done
if [ "$only_unit" = 1 ]; then
    bash tools/install-system-deps.sh --python-only
elif [ "$browser" = 1 ]; then
    bash tools/install-system-deps.sh --browser
else
    bash tools/install-system-deps.sh
fi
if [ -z "$series" ] && [ $# -eq 0 ]; then
    exec python3 -m tools.matrix
fi
venv=$(bash tools/venv.sh "${series:-$HLP_SERIES_DEFAULT}")
# The installed-wheel tiers run in a copy without the package, as in CI.
exec "$venv/bin/python" -m tools.tier_pytest -p no:cacheprovider "$@"
