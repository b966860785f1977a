#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_package.sh CPACK BUILD_DIR: makes the Debian package from this build's install rules
# (the package preset makes the same from a build without tests) and checks it with
# tests/bench/package_check.sh, all but the window.
set -euo pipefail
cpack=$1 build=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$out" >"$out/cpack.log" 2>&1 ||
  { cat "$out/cpack.log"; exit 1; }
PACKAGE_CHECK_GUI=0 "$(dirname "$0")/../bench/package_check.sh" "$out"/perflab_*.deb
