#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Times the README's commands on a fresh Debian 12, as a new machine would run them:
#   tests/bench/fresh_root_times.sh [--full] [ROOT_CACHE_DIR]
#   (default cache: /var/cache/perflab-bare-root, shared with package_bare_root.sh)
# In a debootstrap --variant=minbase bookworm root with nothing of the build, holding the
# source as `git archive HEAD` gives it, it times: .ci/install-deps.sh (apt, every package
# downloaded: no cache of .debs), then ./run.sh --version (configure and build what ./run.sh
# runs), and with --full the build of the rest of the tree, which ./test.sh does before its
# tests. The suite itself is not run in the root (it makes network namespaces and servers of
# the host's); its time is ctest's own on the build machine. Run it with nothing else busy: the
# build takes both cores. The root is a tmpfs (about 8 GB with --full), so disk speed is left out.
# Needs root and network to deb.debian.org.
set -euo pipefail
full=0
[ "${1:-}" = --full ] && { full=1; shift; }
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cache="${1:-/var/cache/perflab-bare-root}"
name=fresh_root_times
fail() { echo "$name: FAILED: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (debootstrap, chroot, mounts)"
source "$(dirname "$0")/bare_root.sh"
bare_root_open 12g
mkdir "$r/src"
git -C "$repo" archive HEAD | tar -x -C "$r/src"
echo "== source: $(git -C "$repo" rev-parse --short HEAD), $(nproc) cores, uptime: $(uptime)"

timed() {
  local what="$1" t=$SECONDS
  shift
  in_root bash -c "cd /src && $*" >"$work/$what.log" 2>&1 || { tail -n 30 "$work/$what.log"; fail "$what"; }
  echo "== $what: $((SECONDS - t)) s"
}
timed install-deps .ci/install-deps.sh
echo "   $(grep -c '^Setting up ' "$work/install-deps.log") packages set up"
timed "run.sh --version" ./run.sh --version
[ "$full" = 1 ] || exit 0
timed "the rest of test.sh's build" cmake --build --preset ci
