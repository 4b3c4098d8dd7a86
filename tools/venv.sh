#!/usr/bin/env bash
# Creates (or refreshes) the project virtualenv from the repo's own files:
# pinned constraints, runtime and test requirements, this package editable.
# Prints the venv's path. HLP_VENV overrides the location (default .venv).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${HLP_VENV:-$PWD/.venv}
stamp="$venv/.installed-from"
want=$(cat constraints.txt requirements.txt test-requirements.txt setup.cfg \
       | sha256sum | cut -c1-16)
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" >&2
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "installing dependencies into $venv ..." >&2
    "$venv/bin/pip" install -q --upgrade pip wheel >&2
    "$venv/bin/pip" install -q -c constraints.txt -r requirements.txt \
        -r test-requirements.txt >&2
    "$venv/bin/pip" install -q -c constraints.txt --no-deps -e . \
        --config-settings editable_mode=compat >&2
    echo "$want" > "$stamp"
fi
echo "$venv"
