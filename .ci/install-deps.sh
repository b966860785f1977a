#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what PerfLab needs to build, run and test on Debian 12. Idempotent: apt runs only
# when a package is missing. Needs root (or sudo).
set -euo pipefail

packages=(
  cmake g++ pkg-config ninja-build
  qt6-base-dev qt6-svg-dev libqt6sql6-sqlite libqcustomplot-dev
  qt6-gtk-platformtheme  # the desktop's light or dark theme, charts included
  libmemcached-dev libboost-dev libssh-dev libsqlite3-dev libssl-dev nlohmann-json3-dev
  libcli11-dev libgtest-dev zlib1g-dev libnghttp2-dev liburing-dev
  memcached libmemcached-tools nginx-light openssh-server wrk openssl nghttp2-client
  default-jdk-headless libhdrhistogram-java jmeter jmeter-http procps iproute2
  xvfb xauth imagemagick python3 poppler-utils locales tzdata
  x11-utils  # xdpyinfo, xwininfo, xprop: the package checks find the window and its icon
  clang libfuzzer-14-dev libclang-rt-14-dev  # the fuzz preset (tests/bench/fuzz.sh)
  prometheus  # scrapes run --metrics-listen in its test
  nmon  # writes the captures import-host reads in its test
  prometheus-node-exporter prometheus-nginx-exporter curl  # the prometheus probe: real targets, curl for via
  redis-server redis-tools  # cache runs and the redis probe against a real Redis
  dpkg-dev file desktop-file-utils appstream  # the Debian package and its desktop entry, checked
  zsh man-db  # the zsh completion's and the man page's tests run them
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing: ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
