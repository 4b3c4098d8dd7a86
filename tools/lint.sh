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
# The licence headers (tools/license_headers.py), then flake8 with
# OpenStack's hacking rules on the whole repo, as Heat runs it
# (configuration: tox.ini's [flake8] and [hacking]):
#   bash tools/lint.sh [flake8 arguments]
# Its own small venv, .venvs/lint (HLP_VENVS overrides the directory), is
# rebuilt only when lint-requirements.txt changes.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${HLP_VENVS:-$PWD/.venvs}/lint
stamp="$venv/.installed-from"
want=$(sha256sum lint-requirements.txt | cut -c1-16)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "building the lint venv in $venv ..." >&2
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv" >&2
    log="$venv/install.log"
    # pip's output goes to the log, shown only if the install fails.
    if ! "$venv/bin/pip" install --no-warn-script-location \
            -r lint-requirements.txt > "$log" 2>&1; then
        tail -40 "$log" >&2
        echo "installing the lint venv failed (log: $log)" >&2
        exit 1
    fi
    echo "$want" > "$stamp"
fi
# Every source file carries the Apache-2.0 header; then flake8.
headers=0
python3 tools/license_headers.py || headers=$?
"$venv/bin/flake8" "$@"
exit "$headers"
