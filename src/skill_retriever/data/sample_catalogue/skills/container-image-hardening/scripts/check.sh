#!/usr/bin/env sh
# Local image check: runs as non-root, exposes only the declared port, no critical CVEs.
set -eu
IMAGE="${1:?usage: check.sh IMAGE[:TAG]}"
user="$(docker inspect --format '{{.Config.User}}' "$IMAGE")"
case "$user" in ""|root|0) echo "image runs as root" >&2; exit 1;; esac
docker inspect --format '{{json .Config.ExposedPorts}}' "$IMAGE"
trivy image --severity CRITICAL --exit-code 1 "$IMAGE"
