# SPDX-License-Identifier: MIT
# Sourced by the scripts that need a bare Debian 12 (bookworm) root: package_bare_root.sh and
# fresh_root_times.sh. The caller defines fail(), sets `cache` (where the debootstrapped root is
# kept as a tarball) and `name` (for messages), and may set xvfb (killed on exit).
#   bare_root_open SIZE   a fresh root in a tmpfs of SIZE with its mounts: `r` is its path,
#                         `work` a scratch directory beside it; all undone on exit
#   bare_root_keep_debs   apt's downloads kept in $cache/archives between runs
#   in_root CMD...        runs CMD in the root with a clean environment

in_root() { chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
  DEBIAN_FRONTEND=noninteractive HOME=/scratch/home XDG_CONFIG_HOME=/scratch/config \
  XDG_DATA_HOME=/scratch/data XDG_RUNTIME_DIR=/scratch/runtime PERFLAB_DB=/scratch/runs.db \
  ${DISPLAY:+DISPLAY=$DISPLAY} "$@"; }
bind() { mount "$@" && mounts+=("${*: -1}"); }

bare_root_cleanup() {
  local status=$? p
  set +e  # every step of the clean-up runs, whatever the one before did
  [ -n "${xvfb:-}" ] && kill "$xvfb" 2>/dev/null
  # Anything still running from inside the root (the window, a memcached) would hold it busy.
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/root" 2>/dev/null)" = "$r" ] && kill -9 "${p#/proc/}" 2>/dev/null
  done
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true
  done
  # Never delete through a mount that is still there (its /dev is the host's).
  if findmnt -rno TARGET | grep -q "^$work/"; then
    echo "$name: left $work in place, something is still mounted in it" >&2
  else
    rm -rf --one-file-system "$work"
  fi
  exit "$status"
}

bare_root_open() {
  local size="$1" tarball="$cache/bookworm.tar" t=$SECONDS
  work="$(mktemp -d "/tmp/$name.XXXXXX")"
  r="$work/root"
  mounts=()
  trap bare_root_cleanup EXIT
  # The root lives in memory: dpkg's fsyncs and deleting 30000 files cost minutes on this
  # machine's disk, and unmounting it is the whole clean-up.
  mkdir "$r"
  bind -t tmpfs -o "size=$size,mode=755" bare-root "$r"
  # debootstrap once, then the cached tarball.
  if [ -f "$tarball" ]; then
    tar -xpf "$tarball" -C "$r" --numeric-owner || fail "unpacking $tarball"
    echo "== root unpacked from $tarball ($((SECONDS - t)) s)"
  else
    if ! command -v debootstrap >/dev/null; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y debootstrap >/dev/null ||
        fail "apt-get install debootstrap"
    fi
    debootstrap --variant=minbase bookworm "$r" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
      { tail -n 20 "$work/debootstrap.log"; fail "debootstrap"; }
    mkdir -p "$cache"
    { tar -cpf "$tarball.part" -C "$r" --numeric-owner . && mv "$tarball.part" "$tarball"; } ||
      fail "caching the root in $tarball"
    echo "== root made by debootstrap, cached in $tarball ($((SECONDS - t)) s)"
  fi
  # The archives a fresh Debian 12 install uses, so the install sees today's versions.
  printf 'deb http://deb.debian.org/debian %s main\n' bookworm bookworm-updates >"$r/etc/apt/sources.list"
  echo 'deb http://deb.debian.org/debian-security bookworm-security main' >>"$r/etc/apt/sources.list"
  cp /etc/resolv.conf "$r/etc/resolv.conf"
  # No service starts inside the chroot (memcached's postinst would start one and keep it).
  printf '#!/bin/sh\nexit 101\n' >"$r/usr/sbin/policy-rc.d" && chmod +x "$r/usr/sbin/policy-rc.d"
  bind -t proc proc "$r/proc"
  bind -t sysfs sys "$r/sys"
  bind --bind /dev "$r/dev"
  bind --bind /dev/pts "$r/dev/pts"
  bind -t tmpfs shm "$r/dev/shm"  # the bind of /dev does not bring the host's /dev/shm
  mkdir -p "$r"/scratch/{home,config,data,runtime} && chmod 700 "$r/scratch/runtime"
}

# Downloaded .debs are kept between runs (apt checks each against the archive's hashes), so a
# second run resolves the same way but does not fetch them again.
bare_root_keep_debs() {
  mkdir -p "$cache/archives"
  bind --bind "$cache/archives" "$r/var/cache/apt/archives"
}
