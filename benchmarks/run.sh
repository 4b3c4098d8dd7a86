#!/usr/bin/env bash
# The benchmarks, in one command:  bash benchmarks/run.sh [--quick] [...]
# Creates/refreshes the project venv (tools/venv.sh; matplotlib comes with
# test-requirements.txt), then runs every benchmark in one process on one
# in-process heat-engine. Results: benchmarks/results/results.md, chain.png.
# `bash benchmarks/run.sh --help` lists the options. HLP_BENCH_PYTHON runs
# them with that interpreter instead (an already prepared venv).
set -euo pipefail
cd "$(dirname "$0")/.."
python=${HLP_BENCH_PYTHON:-}
if [ -z "$python" ]; then
    python="$(bash tools/venv.sh)/bin/python"
fi
exec "$python" -m benchmarks.run "$@"
