#!/usr/bin/env bash
# Builds the documentation and the release notes with warnings as errors:
#   bash tools/docs.sh
# in the default Heat series' venv (tools/venv.sh; HLP_VENV names another),
# since the resource reference imports our types and so Heat. Every series'
# venv has Sphinx, openstackdocstheme and reno (doc/requirements.txt).
# Writes doc/build/html and releasenotes/build/html.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${HLP_VENV:-$(bash tools/venv.sh)}
sphinx=("$venv/bin/sphinx-build" -W --keep-going -q -E)
echo "building doc/build/html ..." >&2
"${sphinx[@]}" -b html doc/source doc/build/html
echo "building releasenotes/build/html ..." >&2
"${sphinx[@]}" -b html releasenotes/source releasenotes/build/html
echo "docs and release notes built without warnings" >&2
