#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, builds PerfLab and launches it. Arguments go to perflab; with
# none, the desktop app (its Quick start runs a demo against a memcached it starts itself).
set -euo pipefail
cd "$(dirname "$0")"
.ci/install-deps.sh
# The tree ./test.sh builds, and of it only what runs: the app and its libraries, about half
# of the compile time; the tests are built when ./test.sh asks for them.
cmake --preset ci >/dev/null
cmake --build --preset ci --target perflab
# With no arguments, the desktop app; without a display, the headless demo instead.
if [ $# -eq 0 ] && [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "run.sh: no display; running the headless demo (./run.sh gui needs one)" >&2
  set -- demo
fi
exec build/ci/app/perflab "$@"
