#!/usr/bin/env sh
# Smoke check before a real load test: one virtual user, one minute, stop at the first error.
set -eu
SCRIPT="${1:?usage: check.sh loadtests/<service>/script.js}"
k6 run --vus 1 --duration 1m --throw "$SCRIPT"
