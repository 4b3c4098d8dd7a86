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
# The Heat release series the package supports (sourced by tools/*.sh).
# Each has constraints/<series>.txt; the last is the default.
HLP_SERIES_ALL="2025.1 2025.2 2026.1 2026.2"
HLP_SERIES_DEFAULT=2026.2
# Series whose e2e tier CI runs: the oldest (eventlet) and the newest.
HLP_SERIES_E2E="2025.1 2026.2"
# The series named (default: the newest); exits 2 on an unknown one:
#   series=$(hlp_series "${1:-}")
hlp_series() {
    local series=${1:-$HLP_SERIES_DEFAULT}
    case " $HLP_SERIES_ALL " in
        *" $series "*) echo "$series" ;;
        *) echo "unknown Heat series '$series' (supported: $HLP_SERIES_ALL)" >&2
           exit 2 ;;
    esac
}
