# SPDX-License-Identifier: MIT
# Sourced by the package checks: an Xvfb of their own and PerfLab's window on it, each waited
# for (never a fixed sleep). The caller defines fail() and kills $xvfb on exit.

# Starts Xvfb on the first free display; sets xvfb (its pid) and exports DISPLAY.
start_xvfb() {
  local display=99
  while [ -e "/tmp/.X${display}-lock" ]; do display=$((display + 1)); done
  Xvfb ":$display" -screen 0 1024x700x24 -nolisten tcp >/dev/null 2>&1 &
  xvfb=$!
  export DISPLAY=":$display"
  local i
  for i in $(seq 1 100); do
    xdpyinfo >/dev/null 2>&1 && return 0
    kill -0 "$xvfb" 2>/dev/null || fail "Xvfb :$display exited"
    sleep 0.1
  done
  fail "Xvfb :$display did not answer in 10 s"
}

# Waits up to 60 s for the PerfLab window of process $1 (its log in $2) to be shown; prints
# its id.
perflab_window() {
  local pid=$1 log=$2 window i
  for i in $(seq 1 600); do
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; fail "perflab gui exited"; }
    window="$(xwininfo -root -tree | grep '"PerfLab": ("perflab"' | grep -o '0x[0-9a-f]*' | head -n 1)"
    if [ -n "$window" ] && xwininfo -id "$window" | grep -q "Map State: IsViewable"; then
      echo "$window"
      return 0
    fi
    sleep 0.1
  done
  cat "$log" >&2
  fail "no PerfLab window on $DISPLAY in 60 s"
}

# Whether window $1 carries an icon, waited for up to 10 s.
window_has_icon() {
  local i
  for i in $(seq 1 100); do
    xprop -id "$1" _NET_WM_ICON | grep -q "Icon (" && return 0
    sleep 0.1
  done
  return 1
}
