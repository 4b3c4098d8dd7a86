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
# Creates (or refreshes) the dashboard host's virtualenv of one series and
# prints its path:
#   bash tools/horizon-venv.sh [SERIES]   (default: the newest series)
# The venv is .venvs/horizon-<series> (HLP_VENVS overrides the directory):
# Horizon, heat-dashboard and gunicorn under the series' constraints
# (constraints/<series>.txt pins heat-dashboard), and our wheel with its
# [dashboard] extra, as an operator installs it on a Horizon host. The
# browser tier (tests/browser) serves Horizon from it; the tests themselves
# run in the series' venv (tools/venv.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/series.sh
series=$(hlp_series "${1:-}")
venv=${HLP_VENVS:-$PWD/.venvs}/horizon-$series
stamp="$venv/.installed-from"
want=$(cat constraints/"$series".txt constraints/upper-constraints-"$series".txt \
       tools/constraints.py tools/horizon-venv.sh | sha256sum | cut -c1-16)
pip=("$venv/bin/pip" install --no-warn-script-location)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "building the Horizon $series venv in $venv ..." >&2
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv" >&2
    python3 tools/constraints.py "$series" "$venv/constraints.txt"
    # 2025.1's XStatic-Angular-Schema-Form 0.8.13.0 is an sdist whose
    # setup.py imports pkg_resources, which the newest setuptools no
    # longer has: its build gets an older one.
    echo 'setuptools<81' > "$venv/build-constraints.txt"
    log="$venv/install.log"
    if ! { "${pip[@]}" --upgrade pip wheel &&
           "${pip[@]}" -c "$venv/constraints.txt" \
               --build-constraint "$venv/build-constraints.txt" \
               horizon heat-dashboard gunicorn; } > "$log" 2>&1; then
        grep -v '^WARNING: Location' "$log" | tail -40 >&2
        echo "Horizon $series: installing the venv failed (log: $log)" >&2
        exit 1
    fi
    echo "$want" > "$stamp"
    rm -f "$venv/.wheel-installed"
fi
# Our wheel with the [dashboard] extra's requirements (under the series'
# constraints), then the wheel itself again, whenever it was rebuilt: the
# wheel under test (HLP_INSTALLED_WHEEL, tools/matrix.py's) or
# tools/build-dist.sh's.
wheel=${HLP_INSTALLED_WHEEL:-$(bash tools/build-dist.sh)}
wheel_stamp="$venv/.wheel-installed"
if [ "$(cat "$wheel_stamp" 2>/dev/null)" != "$(sha256sum < "$wheel")" ]; then
    if ! { "${pip[@]}" -c "$venv/constraints.txt" "$wheel[dashboard]" &&
           "${pip[@]}" --no-deps --force-reinstall "$wheel"; } \
            > "$venv/wheel-install.log" 2>&1; then
        tail -20 "$venv/wheel-install.log" >&2
        echo "Horizon $series: installing $wheel[dashboard] failed" >&2
        exit 1
    fi
    sha256sum < "$wheel" > "$wheel_stamp"
fi
echo "$venv"
