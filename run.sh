#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, builds PerfLab and launches it. Arguments go to perflab; with
# none, a short demo run against a memcached that PerfLab starts on a free loopback port.
set -euo pipefail
cd "$(dirname "$0")"
.ci/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
if [ $# -eq 0 ]; then
  set -- demo
fi
exec build/release/app/perflab "$@"
