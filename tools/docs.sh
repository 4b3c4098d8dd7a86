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
