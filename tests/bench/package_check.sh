#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks the Debian package `cmake --build --preset package --target package` wrote:
#   tests/bench/package_check.sh [DEB]   (default: build/package/perflab_*.deb)
# What it proves: the control fields (Depends computed, runtime libraries only, Recommends);
# every file lands where Debian looks for it; apt on this machine can resolve the package's
# dependencies (apt-get install --simulate); and the unpacked files work on their own, away
# from the source and build trees: --version, demo --help, a 3-second headless demo against
# memcached, the man page, the desktop entry and metainfo, the bash completion, and the window
# under Xvfb with its icon and a screenshot. What it does not prove: an install on a bare Debian 12 (this
# machine has the build's libraries already); tests/bench/package_bare_root.sh proves that, in a
# debootstrap root.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
deb="${1:-$(ls "$root"/build/package/perflab_*.deb | tail -n 1)}"
deb="$(realpath "$deb")"
work="$(mktemp -d)"
cleanup() { [ -n "${xvfb:-}" ] && kill "$xvfb" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "package_check: $*" >&2; exit 1; }
source "$(dirname "$0")/xvfb_window.sh"
echo "== $deb"

depends="$(dpkg-deb -f "$deb" Depends)"
echo "Depends: $depends"
echo "Recommends: $(dpkg-deb -f "$deb" Recommends)"
for lib in libqt6widgets6 libqt6svg6 libssh-4 libmemcached11 libsqlite3-0 libnghttp2-14 libssl3; do
  grep -q "\b$lib\b" <<<"$depends" || fail "Depends lacks $lib"
done
! grep -q -- "-dev\b" <<<"$depends" || fail "Depends names a -dev package"
grep -q memcached <<<"$(dpkg-deb -f "$deb" Recommends)" || fail "Recommends lacks memcached"

dpkg-deb -c "$deb" | awk '{print $6}' >"$work/files"
for f in ./usr/bin/perflab ./usr/share/man/man1/perflab.1.gz \
  ./usr/share/applications/perflab.desktop ./usr/share/metainfo/org.example.perflab.metainfo.xml \
  ./usr/share/icons/hicolor/scalable/apps/perflab.svg \
  ./usr/share/icons/hicolor/{16x16,32x32,48x48,64x64,128x128,256x256}/apps/perflab.png \
  ./usr/share/bash-completion/completions/perflab ./usr/share/zsh/vendor-completions/_perflab \
  ./usr/share/perflab/specs/cache-aside-hot.json ./usr/share/perflab/grafana/perflab-dashboard.json; do
  grep -qx -- "$f" "$work/files" || fail "$f is not in the package"
done
echo "files: $(wc -l <"$work/files") entries, all expected ones present"

apt-get install --simulate "$deb" >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt cannot install it"; }
echo "apt-get install --simulate: $(grep -c '^Inst' "$work/apt.log") packages to install"

dpkg-deb -x "$deb" "$work/root"
cd "$work"
export HOME="$work/home" XDG_DATA_HOME="$work/home/data" XDG_CONFIG_HOME="$work/home/config"
export XDG_RUNTIME_DIR="$work/runtime" PERFLAB_DB="$work/runs.db"
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
bin="$work/root/usr/bin/perflab"
"$bin" --version
"$bin" demo --help >/dev/null
"$bin" demo --seconds 3 | tail -n 3
LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l root/usr/share/man/man1/perflab.1.gz >man.txt 2>man.err
[ ! -s man.err ] || { cat man.err; fail "man -l warns"; }
grep -q "perflab export" man.txt || fail "the man page has no perflab export"
desktop-file-validate root/usr/share/applications/perflab.desktop
appstreamcli validate --no-net root/usr/share/metainfo/org.example.perflab.metainfo.xml
(
  source root/usr/share/bash-completion/completions/perflab
  COMP_WORDS=("$bin" sh) COMP_CWORD=1
  _perflab
  [ "${COMPREPLY[*]}" = show ] || fail "bash completion of 'sh': ${COMPREPLY[*]}"
)
echo "man page, desktop entry, metainfo, bash completion: ok"

# PACKAGE_CHECK_GUI=0 (the Packaging.DebianPackage test): no window, whose check waits.
[ "${PACKAGE_CHECK_GUI:-1}" = 1 ] || exit 0
start_xvfb
"$bin" gui --size 1024x700 >gui.log 2>&1 &
gui=$!
window="$(perflab_window "$gui" gui.log)" || exit 1
# The window's icon is the SVG the binary carries (xprop: x11-utils).
window_has_icon "$window" || fail "the window has no icon"
shot="${SCREENSHOT:-$root/build/package/installed-gui.png}"
import -window root "$shot"
kill "$gui"
wait "$gui" 2>/dev/null || true
echo "window under Xvfb, with its icon: $shot"
