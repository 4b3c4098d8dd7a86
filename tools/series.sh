# The Heat release series the package supports (sourced by tools/*.sh).
# Each has constraints/<series>.txt; the last is the default.
HLP_SERIES_ALL="2025.1 2025.2 2026.1 2026.2"
HLP_SERIES_DEFAULT=2026.2
# Series whose e2e tier CI runs: the oldest (eventlet) and the newest.
HLP_SERIES_E2E="2025.1 2026.2"
