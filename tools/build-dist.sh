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
# Builds the sdist and, from it, the wheel into dist/, and checks their
# metadata (twine check); prints the wheel's path:
#   bash tools/build-dist.sh
# The wheel is what every installed-wheel tier installs (tools/venv.sh), so
# a file the sdist or the wheel misses fails those tiers. Its own small
# venv, .venvs/build (HLP_VENVS overrides the directory). Nothing is rebuilt
# while the package's files and git HEAD are unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${HLP_VENVS:-$PWD/.venvs}/build
# One build at a time: tools/matrix.py builds the wheel while the venvs
# build, and each venv's tools/venv.sh asks for it too.
mkdir -p "$(dirname "$venv")"
exec 9> "$(dirname "$venv")/.build-dist.lock"
flock 9
tools=(build twine pbr setuptools wheel)
if [ "$(cat "$venv/.installed-from" 2>/dev/null)" != "${tools[*]}" ]; then
    echo "building the build venv in $venv ..." >&2
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv" >&2
    if ! "$venv/bin/pip" install --no-warn-script-location "${tools[@]}" \
            > "$venv/install.log" 2>&1; then
        tail -40 "$venv/install.log" >&2
        echo "installing the build venv failed" >&2
        exit 1
    fi
    echo "${tools[*]}" > "$venv/.installed-from"
fi
# What the artifacts are made of: the tracked and new files of the
# packages, their metadata files, and the commit (pbr's version).
source_hash=$({ git rev-parse HEAD
                git ls-files -co --exclude-standard heat_lifecycle_plugins \
                    heat_lifecycle_dashboard \
                    setup.cfg setup.py pyproject.toml requirements.txt \
                    README.rst LICENSE \
                    | sort | xargs sha256sum; } | sha256sum | cut -c1-16)
stamp=dist/.built-from
if [ "$(cat "$stamp" 2>/dev/null)" != "$source_hash" ] ||
        ! ls dist/*.whl >/dev/null 2>&1; then
    rm -rf dist build
    log=$(mktemp)
    # From the sdist, the wheel: what the sdist misses, the wheel misses.
    if ! "$venv/bin/python" -m build --no-isolation --outdir dist . \
            > "$log" 2>&1; then
        tail -40 "$log" >&2
        rm -f "$log"
        echo "building the sdist and wheel failed" >&2
        exit 1
    fi
    rm -f "$log"
    rm -rf build heat_lifecycle_plugins.egg-info
    "$venv/bin/twine" check --strict dist/*.whl dist/*.tar.gz >&2
    echo "$source_hash" > "$stamp"
fi
ls "$PWD"/dist/*.whl
