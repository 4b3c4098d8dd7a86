#!/usr/bin/env bash
# Builds the documentation and the release notes with warnings as errors:
#   bash tools/docs.sh
# in the default Heat series' venv (tools/venv.sh; HLP_VENV names another),
# since the resource reference imports our types and so Heat. Sphinx,
# openstackdocstheme and reno (doc/requirements.txt) are added to that venv
# with the series' constraints, again only when those files change.
# Writes doc/build/html and releasenotes/build/html.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${HLP_VENV:-$(bash tools/venv.sh)}
stamp="$venv/.docs-installed-from"
want=$(cat "$venv/constraints.txt" doc/requirements.txt | sha256sum | cut -c1-16)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "adding doc/requirements.txt to $venv ..." >&2
    log="$venv/docs-install.log"
    if ! "$venv/bin/pip" install --no-warn-script-location \
            -c "$venv/constraints.txt" -r doc/requirements.txt > "$log" 2>&1; then
        grep -v '^WARNING: Location' "$log" | tail -40 >&2
        echo "installing doc/requirements.txt failed (log: $log)" >&2
        exit 1
    fi
    echo "$want" > "$stamp"
fi
sphinx=("$venv/bin/sphinx-build" -W --keep-going -q -E)
echo "building doc/build/html ..." >&2
"${sphinx[@]}" -b html doc/source doc/build/html
echo "building releasenotes/build/html ..." >&2
"${sphinx[@]}" -b html releasenotes/source releasenotes/build/html
echo "docs and release notes built without warnings" >&2
