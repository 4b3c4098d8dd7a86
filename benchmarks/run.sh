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
# The benchmarks, in one command:  bash benchmarks/run.sh [--heat SERIES] [...]
# Creates/refreshes the project venv of the Heat series (tools/venv.sh, the
# newest by default; matplotlib comes with test-requirements.txt), then runs
# every benchmark in one process on one in-process heat-engine (scale and
# engines runs in processes of their own). Results: benchmarks/results/
# (results.md, chain.png, headline.rst); with --heat SERIES,
# benchmarks/results/SERIES/ unless --results-dir says otherwise.
# `bash benchmarks/run.sh --help` lists the options. HLP_BENCH_PYTHON runs
# them with that interpreter instead (an already prepared venv).
set -euo pipefail
cd "$(dirname "$0")/.."
series=
if [ "${1:-}" = --heat ]; then
    series=${2:?--heat needs a series, e.g. 2025.1}
    shift 2
fi
python=${HLP_BENCH_PYTHON:-}
if [ -z "$python" ]; then
    python="$(bash tools/venv.sh $series)/bin/python"
fi
extra=()
if [ -n "$series" ] && [[ " $* " != *" --results-dir "* ]]; then
    extra=(--results-dir "benchmarks/results/$series")
fi
exec "$python" -m benchmarks.run "$@" "${extra[@]}"
