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
# Creates (or refreshes) the virtualenv of one Heat series from the repo's
# own files and prints its path:
#   bash tools/venv.sh [SERIES]        (default: the newest series)
# The venv is .venvs/<series> (HLP_VENVS overrides the directory). Its
# requirements are reinstalled only when the series' constraints or our
# requirements change. Our package goes in as the wheel an operator
# installs (tools/build-dist.sh), never editable: the installed-wheel tiers
# run against it (tools/matrix.py), the unit tier against the tree.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/series.sh
series=$(hlp_series "${1:-}")
venv=${HLP_VENVS:-$PWD/.venvs}/$series
stamp="$venv/.installed-from"
want=$(cat constraints/"$series".txt constraints/upper-constraints-"$series".txt \
       requirements.txt test-requirements.txt doc/requirements.txt \
       tools/constraints.py \
       | sha256sum | cut -c1-16)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "building the Heat $series venv in $venv ..." >&2
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv" >&2
    python3 tools/constraints.py "$series" "$venv/constraints.txt"
    log="$venv/install.log"
    pip=("$venv/bin/pip" install --no-warn-script-location)
    # pip's output goes to the log, shown only if an install fails.
    if ! { "${pip[@]}" --upgrade pip wheel &&
           "${pip[@]}" -c "$venv/constraints.txt" -r requirements.txt \
               -r test-requirements.txt -r doc/requirements.txt; \
         } > "$log" 2>&1; then
        grep -v '^WARNING: Location' "$log" | tail -40 >&2
        echo "Heat $series: installing the venv failed (log: $log)" >&2
        exit 1
    fi
    echo "$want" > "$stamp"
fi
# The wheel, reinstalled whenever it was rebuilt (its requirements are the
# ones above: --no-deps).
wheel=$(bash tools/build-dist.sh)
wheel_stamp="$venv/.wheel-installed"
if [ "$(cat "$wheel_stamp" 2>/dev/null)" != "$(sha256sum < "$wheel")" ]; then
    if ! "$venv/bin/pip" install --no-warn-script-location --no-deps \
            --force-reinstall "$wheel" > "$venv/wheel-install.log" 2>&1; then
        tail -20 "$venv/wheel-install.log" >&2
        echo "Heat $series: installing $wheel failed" >&2
        exit 1
    fi
    sha256sum < "$wheel" > "$wheel_stamp"
fi
echo "$venv"
