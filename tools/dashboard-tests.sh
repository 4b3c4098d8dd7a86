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
# The dashboard plugin's unit tests (tests/dashboard) in a Horizon venv of
# one series, as an operator's Horizon host has it:
#   bash tools/dashboard-tests.sh [SERIES] [pytest arguments]
# The venv is .venvs/horizon-<series> (HLP_VENVS overrides the directory):
# Horizon and heat-dashboard under the series' upper constraints (which pin
# horizon and Django, not heat-dashboard: its release of the series is
# pinned here), heat-dashboard's test helpers' clients, pytest and
# requests-mock. It is rebuilt only when these or our requirements change.
# The tests run from the tree (PYTHONPATH), with their own Django settings;
# --confcutdir keeps the project's tests/conftest.py (which needs Heat)
# out.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/series.sh
series=${1:-$HLP_SERIES_DEFAULT}
[ $# -gt 0 ] && shift
case $series in
    # heat-dashboard 16.0.0 needs a newer Horizon than the 2026.2
    # constraints' horizon 26.0.0; 15.0.0 is what installs with it.
    2026.2) dashboard=heat-dashboard==15.0.0 ;;
    2025.1) dashboard=heat-dashboard==13.0.0 ;;
    *) echo "dashboard tests: no heat-dashboard pinned for '$series'" \
            "(2025.1, 2026.2)" >&2
       exit 2 ;;
esac
venv=${HLP_VENVS:-$PWD/.venvs}/horizon-$series
constraints=constraints/upper-constraints-$series.txt
packages="horizon $dashboard python-heatclient python-neutronclient
          python-keystoneclient requests-mock pytest"
want=$(echo "$packages" | cat - "$constraints" requirements.txt \
       | sha256sum | cut -c1-16)
if [ "$(cat "$venv/.installed-from" 2>/dev/null)" != "$want" ]; then
    echo "building the Horizon $series venv in $venv ..." >&2
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv" >&2
    # 2025.1 pins XStatic-Angular-Schema-Form 0.8.13.0, an sdist whose
    # setup.py imports pkg_resources: its isolated build needs a
    # setuptools that still has it (PIP_CONSTRAINT reaches that build).
    echo 'setuptools<81' >"$venv/build-constraints.txt"
    # shellcheck disable=SC2086
    PIP_CONSTRAINT=$venv/build-constraints.txt "$venv/bin/pip" install -q -c "$constraints" -r requirements.txt \
        $packages >"$venv/install.log" 2>&1 || {
        tail -20 "$venv/install.log" >&2; exit 1; }
    echo "$want" >"$venv/.installed-from"
fi
export DJANGO_SETTINGS_MODULE=tests.dashboard.settings
PYTHONPATH=$PWD exec "$venv/bin/python" -m pytest -p no:cacheprovider \
    --confcutdir=tests/dashboard tests/dashboard "$@"
