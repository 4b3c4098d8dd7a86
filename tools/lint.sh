#!/usr/bin/env bash
# flake8 with OpenStack's hacking rules on the whole repo, as Heat runs it
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
exec "$venv/bin/flake8" "$@"
