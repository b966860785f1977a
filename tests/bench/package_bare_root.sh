#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian package on a bare Debian 12 and runs it there:
#   tests/bench/package_bare_root.sh [DEB] [ROOT_CACHE_DIR]
#   (defaults: build/package/perflab_*.deb, /var/cache/perflab-bare-root)
# What it proves, beyond tests/bench/package_check.sh: on a debootstrap --variant=minbase
# bookworm root, which has none of the build's libraries, `apt-get install ./perflab_*.deb`
# resolves everything from the Debian archive (Recommends included), pulls no -dev package and
# no compiler, and the installed files alone run: --version, a 3-second headless demo against
# the memcached it brings, the man page without warnings, and the window under Xvfb, whose
# screenshot lands outside the root ($SCREENSHOT, default /tmp/perflab-bare-root.png).
# Needs root, network to deb.debian.org, and on the host Xvfb, x11-utils and imagemagick.
# The pristine root is cached as a tarball and apt's downloads beside it, so only the first run
# pays for debootstrap and the downloads; each run unpacks a fresh copy of the root into a
# temporary directory and deletes it.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
deb="$(realpath "${1:-$(ls "$repo"/build/package/perflab_*.deb | tail -n 1)}")"
cache="${2:-/var/cache/perflab-bare-root}"
shot="${SCREENSHOT:-/tmp/perflab-bare-root.png}"
fail() { echo "package_bare_root: FAILED: $*" >&2; exit 1; }
source "$(dirname "$0")/xvfb_window.sh"
[ "$(id -u)" = 0 ] || fail "needs root (debootstrap, chroot, mounts)"
[ -f "$deb" ] || fail "no package at $deb"

name=package_bare_root
source "$(dirname "$0")/bare_root.sh"
started=$SECONDS
bare_root_open 4g  # about 1 GB at the end
bare_root_keep_debs

# 1. The install, with Recommends, as a user would type it.
cp "$deb" "$r/tmp/" && chmod 644 "$r/tmp/$(basename "$deb")"
in_root dpkg-query -W -f='${Package}\n' | sort >"$work/before"
in_root apt-get update >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt-get update in the root"; }
t=$SECONDS
in_root sh -c "cd /tmp && apt-get install -y ./$(basename "$deb")" >>"$work/apt.log" 2>&1 ||
  { tail -n 30 "$work/apt.log"; fail "apt-get install ./$(basename "$deb") in the bare root"; }
in_root dpkg-query -W -f='${Package}\n' | sort >"$work/after"
comm -13 "$work/before" "$work/after" >"$work/new"
mapfile -t new <"$work/new"
kib="$(in_root dpkg-query -W -f='${Package} ${Installed-Size}\n' "${new[@]}" | awk '{s += $2} END {print s}')"
echo "== apt-get install: ${#new[@]} packages installed, $((kib / 1024)) MiB installed size," \
  "$(sed -n 's/^Need to get \(.*\) of archives\.$/\1/p' "$work/apt.log" | head -n 1) to download ($((SECONDS - t)) s)"
grep -qx perflab "$work/new" || fail "perflab is not among the installed packages"
for pkg in $(dpkg-deb -f "$deb" Recommends | tr -d ' ' | tr ',' ' '); do
  grep -qx "$pkg" "$work/new" || fail "$pkg (Recommends) was not installed"
done
dev="$(grep -- '-dev$' "$work/new" || true)"
[ -z "$dev" ] || fail "-dev packages installed: ${dev//$'\n'/ }"
cc="$(grep -E '^(gcc|g\+\+|cpp|clang|binutils|build-essential)(-[0-9]+)?$' "$work/new" || true)"
[ -z "$cc" ] || fail "a compiler or toolchain installed: ${cc//$'\n'/ }"
echo "no -dev package, no compiler"

# 2. The installed software, run with nothing else than the root's files.
version="$(in_root perflab --version)" || fail "perflab --version"
echo "$version" | head -n 3
grep -q "$(dpkg-deb -f "$deb" Version)" <<<"$version" || fail "--version does not name $(dpkg-deb -f "$deb" Version)"
in_root perflab demo --seconds 3 >"$work/demo.log" 2>&1 || { cat "$work/demo.log"; fail "perflab demo --seconds 3"; }
tail -n 3 "$work/demo.log"
# man-db is the test's tool to read the page, not a dependency of the package (minbase lacks it).
in_root apt-get install -y --no-install-recommends man-db >>"$work/apt.log" 2>&1 ||
  { tail -n 20 "$work/apt.log"; fail "apt-get install man-db (test tool)"; }
in_root env MANWIDTH=80 man --warnings -l /usr/share/man/man1/perflab.1.gz >"$work/man.txt" 2>"$work/man.err" ||
  { cat "$work/man.err"; fail "man -l perflab.1.gz"; }
[ ! -s "$work/man.err" ] || { cat "$work/man.err"; fail "man -l warns"; }
grep -q "perflab export" "$work/man.txt" || fail "the man page has no perflab export"
echo "man page: $(wc -l <"$work/man.txt") lines, no warnings"

# The X server runs on the host; the root sees its socket through a bind mount.
start_xvfb
mkdir -p "$r/tmp/.X11-unix"
bind --bind /tmp/.X11-unix "$r/tmp/.X11-unix"
in_root perflab gui --size 1024x700 >"$work/gui.log" 2>&1 &
gui=$!
window="$(perflab_window "$gui" "$work/gui.log")" || exit 1
window_has_icon "$window" || fail "the window has no icon"
import -window root "$shot" || fail "screenshot to $shot"
echo "window under Xvfb, with its icon: $shot"
echo "== package_bare_root: ok ($((SECONDS - started)) s)"
