#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, builds PerfLab (warnings as errors) and runs every test.
set -euo pipefail
cd "$(dirname "$0")"
.ci/install-deps.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci "$@"
