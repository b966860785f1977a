#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PerfLab's HTTP engine against wrk, side by side on the same nginx.

nginx runs with one worker pinned to one core, each client pinned to another, with the same
threads and connections. Rounds alternate between the two clients. Two cases: a 6262-byte
static file (server-bound) and a `return 200` location (client-bound). Requests per second
come from each client's own report, client CPU from the child's rusage. Prints, per case,
`ratio perflab/wrk: X.XX` for req/s and for client CPU per request (below 1.00: PerfLab
spends less CPU per request than wrk), the CPU split into user and system time, and the median
of each round's own ratios, which a server drifting between rounds does not move.

Then the fixed-rate check: PerfLab's open model at 90% of the highest static-file rate
measured, bounded to the same connections; it prints the rate held, the intended-time p99
and the late sends.

With --floor, transport_floor runs in each round too: the same GETs on the same connections,
one thread, nothing done but sending them and reading the replies (epoll, and io_uring where
the machine allows it). Its CPU per request is the kernel's share, which no client goes below.

Example:
  tests/bench/http_vs_wrk.py --perflab build/rel/app/perflab --rounds 7 --duration 5 \
      --floor build/ci/tests/integration/transport_floor
"""

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--perflab", default="build/ci/app/perflab",
                   help="perflab binary (a release build)")
    p.add_argument("--wrk", default="wrk")
    p.add_argument("--nginx", default="nginx")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--connections", type=int, default=100)
    p.add_argument("--duration", type=float, default=5, help="seconds per client run")
    p.add_argument("--rounds", type=int, default=3, help="alternating rounds per case")
    p.add_argument("--server-core", default="0")
    p.add_argument("--client-core", default="1")
    p.add_argument("--fixed-rate", type=float, default=0.9,
                   help="share of the measured maximum for the fixed-rate check (0: skip)")
    p.add_argument("--cases", default="static,return200")
    p.add_argument("--floor", default=None,
                   help="transport_floor binary: also run the bare-protocol client")
    return p.parse_args()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, timeout=5.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def start_pinned(args, argv, port, name, timeout=5.0, preexec_fn=None):
    """Starts a server on the server core and waits until it accepts on `port`."""
    proc = subprocess.Popen(["taskset", "-c", args.server_core] + argv, preexec_fn=preexec_fn)
    if not wait_port(port, timeout=timeout):
        proc.kill()
        sys.exit(f"{name} did not start")
    return proc


def run_nginx(args, workdir, port, http_lines, server_lines, main_lines="",
              worker_connections=4096, timeout=5.0, preexec_fn=None):
    """One pinned nginx worker with everything in workdir and no access log: the benchmarks'
    shared configuration, with each one's own lines in the main, http and server blocks."""
    os.makedirs(os.path.join(workdir, "tmp"), exist_ok=True)
    user = "user root;\n" if os.geteuid() == 0 else ""
    conf = f"""{user}worker_processes 1;
{main_lines}daemon off;
pid {workdir}/nginx.pid;
error_log {workdir}/error.log;
events {{ worker_connections {worker_connections}; }}
http {{
  access_log off;
  client_body_temp_path {workdir}/tmp/body;
  proxy_temp_path {workdir}/tmp/proxy;
  fastcgi_temp_path {workdir}/tmp/fastcgi;
  uwsgi_temp_path {workdir}/tmp/uwsgi;
  scgi_temp_path {workdir}/tmp/scgi;
{http_lines}  server {{
{server_lines}  }}
}}
"""
    path = os.path.join(workdir, "nginx.conf")
    with open(path, "w") as f:
        f.write(conf)
    return start_pinned(args, [args.nginx, "-p", workdir, "-e", os.path.join(workdir, "error.log"),
                               "-c", path], port, "nginx", timeout, preexec_fn)


def start_nginx(args, workdir):
    port = free_port()
    os.makedirs(os.path.join(workdir, "www"), exist_ok=True)
    with open(os.path.join(workdir, "www", "static.bin"), "wb") as f:
        f.write(b"x" * 6262)
    proc = run_nginx(args, workdir, port, "  keepalive_requests 10000000;\n",
                     f"    listen 127.0.0.1:{port} backlog=4096;\n"
                     f"    root {workdir}/www;\n"
                     "    location = /ok { return 200; }\n")
    return proc, port


class Cpu:
    """A client's CPU seconds, split so a difference can be told apart: user space (the
    tool's own code) or system (the TCP stack, syscalls)."""

    def __init__(self, user, system):
        self.user, self.system = user, system

    def total(self):
        return self.user + self.system

    def __truediv__(self, n):
        return Cpu(self.user / n, self.system / n)


def run_measured(argv):
    before = os.times()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate()
    after = os.times()
    if proc.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({proc.returncode}): {err}")
    return out, Cpu(after.children_user - before.children_user,
                    after.children_system - before.children_system)


def pinned(args, argv):
    return ["taskset", "-c", args.client_core] + argv if args.client_core else argv


def wrk_round(args, url):
    out, cpu = run_measured(pinned(args, [args.wrk, f"-t{args.threads}",
                                          f"-c{args.connections}", f"-d{args.duration:g}s", url]))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    total = int(re.search(r"(\d+) requests in", out).group(1))
    return rps, cpu / total, total


def perflab_spec(args, url, phase):
    return {"name": "bench", "kind": "http", "tick_ms": 1000, "phases": [phase],
            "http": {"targets": [{"url": url}], "threads": args.threads,
                     "max_connections": args.connections, "timeout_ms": 30000}}


def no_store_flag(perflab):
    help_text = subprocess.run([perflab, "run", "--help"], capture_output=True, text=True)
    return "--no-store" in help_text.stdout


def perflab_run(args, workdir, spec):
    path = os.path.join(workdir, "spec.json")
    with open(path, "w") as f:
        json.dump(spec, f)
    argv = [args.perflab, "run", path, "--json", "-q"]
    if no_store_flag(args.perflab):
        argv.append("--no-store")  # the run store's writer is not part of the comparison
    out, cpu = run_measured(pinned(args, argv))
    return json.loads(out), cpu


def perflab_round(args, workdir, url):
    phase = {"concurrency": args.connections, "duration_s": args.duration}
    report, cpu = perflab_run(args, workdir, perflab_spec(args, url, phase))
    total = report["requests"]
    return total / report["duration_s"], cpu / total, total


def floor_transports(floor):
    """epoll, and io_uring when this kernel lets the floor client set a ring up."""
    ok = subprocess.run([floor, "--check-uring"], stderr=subprocess.DEVNULL).returncode == 0
    return ["epoll", "uring"] if ok else ["epoll"]


def run_floor(args, argv):
    """Runs transport_floor pinned as the clients are; its requests, seconds and CPU."""
    out, cpu = run_measured(pinned(args, [args.floor] + argv))
    m = re.search(r"requests (\d+) seconds ([\d.]+)", out)
    return int(m.group(1)), float(m.group(2)), cpu


def floor_round(args, url, transport):
    parts = urllib.parse.urlsplit(url)
    total, secs, cpu = run_floor(args, [str(parts.port), str(args.connections),
                                        f"{args.duration:g}", transport, "http",
                                        "--path", parts.path])
    return total / secs, cpu / total, total


def per_request(cpu):
    return f"{cpu.total() * 1e6:.2f} µs/req (user {cpu.user * 1e6:.2f}, sys {cpu.system * 1e6:.2f})"


def compare(args, workdir, name, url):
    wrk, mine = [], []
    floors = {t: [] for t in (floor_transports(args.floor) if args.floor else [])}
    for r in range(args.rounds):
        wrk.append(wrk_round(args, url))
        mine.append(perflab_round(args, workdir, url))
        for t, runs in floors.items():
            runs.append(floor_round(args, url, t))
        print(f"  round {r + 1}: wrk {wrk[-1][0]:.0f} req/s {per_request(wrk[-1][1])}; "
              f"perflab {mine[-1][0]:.0f} req/s {per_request(mine[-1][1])}"
              + "".join(f"; floor {t} {runs[-1][0]:.0f} req/s {per_request(runs[-1][1])}"
                        for t, runs in floors.items()), flush=True)
    w_rps = statistics.median(x[0] for x in wrk)
    p_rps = statistics.median(x[0] for x in mine)
    w_cpu = statistics.median(x[1].total() for x in wrk)
    p_cpu = statistics.median(x[1].total() for x in mine)
    for part in ("user", "system"):
        w = statistics.median(getattr(x[1], part) for x in wrk)
        p = statistics.median(getattr(x[1], part) for x in mine)
        print(f"{name}: {part} CPU per request wrk {w * 1e6:.2f} µs, perflab {p * 1e6:.2f} µs")
    print(f"{name}: req/s wrk {w_rps:.0f}, perflab {p_rps:.0f}; "
          f"ratio perflab/wrk: {p_rps / w_rps:.2f}")
    print(f"{name}: client CPU per request wrk {w_cpu * 1e6:.2f} µs, perflab "
          f"{p_cpu * 1e6:.2f} µs; ratio perflab/wrk: {p_cpu / w_cpu:.2f}", flush=True)
    # Each round's two runs are back to back: their ratio cancels the server's drift between
    # rounds, which on a shared machine is larger than the difference between the clients.
    paired_rps = statistics.median(m[0] / w[0] for w, m in zip(wrk, mine))
    paired_cpu = statistics.median(m[1].total() / w[1].total() for w, m in zip(wrk, mine))
    print(f"{name}: median of per-round ratios perflab/wrk: req/s {paired_rps:.2f}, "
          f"client CPU per request {paired_cpu:.2f}", flush=True)
    for t, runs in floors.items():
        f_cpu = statistics.median(x[1].total() for x in runs)
        paired = statistics.median(f[1].total() / w[1].total() for w, f in zip(wrk, runs))
        print(f"{name}: floor {t} {statistics.median(x[0] for x in runs):.0f} req/s, "
              f"{f_cpu * 1e6:.2f} µs per request; ratio floor/wrk: {f_cpu / w_cpu:.2f} "
              f"(per-round median {paired:.2f}); perflab/floor: {p_cpu / f_cpu:.2f}", flush=True)
    return max(w_rps, p_rps)


def fixed_rate(args, workdir, url, best):
    rate = round(best * args.fixed_rate)
    phase = {"rate": rate, "duration_s": args.duration}
    report, cpu = perflab_run(args, workdir, perflab_spec(args, url, phase))
    # Every request of the schedule is sent; a late one still counts from its intended time.
    held = report["requests"] / args.duration
    lat = report["latency_us"]
    print(f"fixed rate {rate}/s ({args.fixed_rate:.0%} of {best:.0f}): sent {report['requests']} "
          f"of {round(rate * args.duration)} intended ({(held / rate - 1) * 100:+.2f}%), "
          f"attack {report['attack_s']:.2f} s, p50 {lat['p50'] / 1000:.2f} ms, "
          f"p99 {lat['p99'] / 1000:.2f} ms (from intended times), late sends "
          f"{report['late_sends']} of {report['requests']}, errors {sum(report['errors'].values())}")


def main():
    args = parse_args()
    for tool in (args.wrk, args.nginx, "taskset"):
        if not shutil.which(tool):
            sys.exit(f"{tool} not found")
    if not os.access(args.perflab, os.X_OK):
        sys.exit(f"{args.perflab} not found: build perflab (release) and pass --perflab")
    workdir = tempfile.mkdtemp(prefix="perflab-bench-")
    nginx, port = start_nginx(args, workdir)
    try:
        print(f"nginx 1 worker on core {args.server_core}; clients on core {args.client_core}; "
              f"{args.threads} threads, {args.connections} connections, {args.duration:g} s "
              f"per run, {args.rounds} alternating rounds", flush=True)
        cases = {"static": f"http://127.0.0.1:{port}/static.bin",
                 "return200": f"http://127.0.0.1:{port}/ok"}
        best = {}
        for name in args.cases.split(","):
            print(f"case {name} ({cases[name]})", flush=True)
            best[name] = compare(args, workdir, name, cases[name])
        if args.fixed_rate > 0 and "static" in best:
            fixed_rate(args, workdir, cases["static"], best["static"])
    finally:
        nginx.terminate()
        nginx.wait()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
