#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PerfLab at scale: many connections on one client, against nginx and memcached on loopback.

For each engine it runs the same closed-model load twice, at a baseline connection count and
at the scale one (HTTP: 100 and 10 000 keep-alive connections; cache: 100 and 2 000 with the
async driver), with 100 ms ticks and the run stored in a scratch database. It prints, per run:

- memory: the client's peak RSS (VmHWM); the scale run's peak less the baseline's, per
  connection added, is what a connection costs in KiB, buffers and all;
- client CPU per operation (rusage of the child, user + system) and operations per second;
- ticks: how many the store holds within the phase against its length / tick, and the
  largest gap between consecutive ticks (a lost tick shows as a gap of two ticks or more).

and the ratio of CPU per op at scale to the baseline's. `--soak S` adds one long run at the
scale count and prints RSS every 60 s, to show it stays flat.

Server on one core, client on the other (taskset), as the other benchmarks here. The client's
open-file limit is raised for the run; nginx gets worker_connections for the scale count.

`--floor` runs transport_floor (the bare-protocol client, tests/bench/transport_floor.cpp) at
the same counts: when its CPU per op grows as much as PerfLab's, the growth is the kernel's.

Example:
  tests/bench/scale.py --perflab build/ci/app/perflab --duration 10 \
      --floor build/ci/tests/integration/transport_floor
"""

import argparse
import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_vs_wrk import free_port, run_floor, run_nginx, start_pinned  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--perflab", default="build/ci/app/perflab")
    p.add_argument("--nginx", default="nginx")
    p.add_argument("--memcached", default="memcached")
    p.add_argument("--duration", type=float, default=10, help="seconds per run")
    p.add_argument("--http-connections", default="100,10000")
    p.add_argument("--cache-connections", default="100,2000")
    p.add_argument("--threads", type=int, default=1, help="client threads (one core)")
    p.add_argument("--server-core", default="0")
    p.add_argument("--client-core", default="1")
    p.add_argument("--engines", default="http,cache")
    p.add_argument("--soak", type=float, default=0, help="seconds of a long run at scale")
    p.add_argument("--floor", default=None,
                   help="transport_floor binary: also run the bare-protocol client (epoll) at "
                        "each count, to tell the kernel's growth at scale from PerfLab's")
    return p.parse_args()


def raise_nofile():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = max(soft, min(hard, 65536))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def start_nginx(args, workdir, connections):
    port = free_port()
    proc = run_nginx(args, workdir, port,
                     "  keepalive_requests 10000000;\n  keepalive_timeout 300s;\n",
                     f"    listen 127.0.0.1:{port} backlog=16384;\n"
                     "    location = /ok { return 200; }\n",
                     main_lines=f"worker_rlimit_nofile {connections * 2 + 1024};\n",
                     worker_connections=connections + 1024, timeout=10, preexec_fn=raise_nofile)
    return proc, f"http://127.0.0.1:{port}/ok"


def start_memcached(args, connections):
    port = free_port()
    proc = start_pinned(args, [args.memcached, "-U", "0", "-l", "127.0.0.1", "-p", str(port),
                               "-t", "1", "-m", "256", "-c", str(connections + 1024), "-u", "root"],
                        port, "memcached", timeout=10, preexec_fn=raise_nofile)
    return proc, f"127.0.0.1:{port}"


def kib(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


class Watch:
    """The client's peak RSS while it runs, and its RSS every `every` seconds."""

    def __init__(self, pid, every=0):
        self.pid, self.every = pid, every
        self.peak = 0
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        start = time.time()
        last = start
        while True:
            rss = kib(self.pid, "VmRSS")
            hwm = kib(self.pid, "VmHWM")
            if rss is None:
                return
            self.peak = max(self.peak, hwm or 0)
            now = time.time()
            if self.every and now - last >= self.every:
                print(f"    {now - start:6.0f} s: RSS {rss / 1024:.1f} MiB", flush=True)
                last = now
            time.sleep(0.02)


def run_perflab(args, workdir, spec, every=0):
    path = os.path.join(workdir, "spec.json")
    db = os.path.join(workdir, "runs.db")
    if os.path.exists(db):
        os.remove(db)
    with open(path, "w") as f:
        json.dump(spec, f)
    argv = ["taskset", "-c", args.client_core, args.perflab, "run", path, "--json", "-q",
            "--db", db]
    before = os.times()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=raise_nofile)
    watch = Watch(proc.pid, every)
    out, err = proc.communicate()
    after = os.times()
    watch.thread.join(1)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({proc.returncode}): {err}")
    cpu = (after.children_user - before.children_user) + \
          (after.children_system - before.children_system)
    return json.loads(out), cpu, watch, db


def ticks(db, duration):
    """The phase's ticks in the store: their count, and the largest gap between two with the
    time it ended. The phase's last sample, its drain, comes when the replies in flight at its
    end are in (with 10 000 connections, 10 000 of them): it is no tick and not counted."""
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT t_ms FROM samples WHERE phase = 0 AND t_ms <= ? ORDER BY seq",
                         (int(duration * 1000) + 50,)).fetchall()
    t = [0] + [r[0] for r in rows]
    gaps = [(b - a, b) for a, b in zip(t, t[1:])]
    return len(t) - 1, max(gaps) if gaps else (0, 0)


def spec_for(args, engine, target, connections, duration):
    phase = {"concurrency": connections, "duration_s": duration}
    if engine == "http":
        return {"name": f"scale http {connections}", "kind": "http", "tick_ms": 100,
                "phases": [phase],
                "http": {"targets": [{"url": target}], "threads": args.threads,
                         "max_connections": connections, "timeout_ms": 30000,
                         "connect_timeout_ms": 30000}}
    return {"name": f"scale cache {connections}", "kind": "cache", "tick_ms": 100,
            "phases": [phase],
            "cache": {"servers": [target], "driver": "async", "threads": args.threads,
                      "workload": "ratio", "keys": {"count": 10000},
                      "value_size": {"min": 100, "max": 100}, "timeout_ms": 30000}}


def ops_of(engine, report):
    if engine == "http":
        return report["requests"]
    return sum(op["count"] for op in report["ops"].values())


def measure(args, workdir, engine, target, connections, duration, every=0):
    report, cpu, watch, db = run_perflab(
        args, workdir, spec_for(args, engine, target, connections, duration), every)
    ops = ops_of(engine, report)
    n, (gap, gap_end) = ticks(db, duration)
    print(f"  {engine} {connections:>6} connections: {ops / duration:9.0f} ops/s, "
          f"CPU {cpu / ops * 1e6:6.2f} µs/op, peak RSS {watch.peak / 1024:.1f} MiB, "
          f"ticks {n} of {duration / 0.1:.0f}, largest gap {gap} ms (ending at {gap_end} ms)",
          flush=True)
    return cpu / ops, watch.peak


def measure_floor(args, engine, target, connections, duration):
    """The bare client at the same count and workload: what the kernel's cost does at scale."""
    if engine == "http":
        port, path = target.split("://")[1].split(":")[1].split("/", 1)
        argv = [port, str(connections), f"{duration:g}", "epoll", "http", "--path", "/" + path]
    else:
        argv = [target.split(":")[1], str(connections), f"{duration:g}", "epoll", "memcache",
                "--keys", "10000", "--prefix", "key:", "--value-min", "100", "--value-max", "100"]
    ops, secs, cpu = run_floor(args, argv)
    print(f"  floor {engine} {connections:>6} connections: {ops / secs:9.0f} ops/s, "
          f"CPU {cpu.total() / ops * 1e6:6.2f} µs/op", flush=True)
    return cpu.total() / ops


def main():
    args = parse_args()
    print(f"uptime: {open('/proc/loadavg').read().strip()}")
    with tempfile.TemporaryDirectory(prefix="perflab-scale-") as workdir:
        for engine in args.engines.split(","):
            counts = [int(c) for c in
                      (args.http_connections if engine == "http" else args.cache_connections)
                      .split(",")]
            top = max(counts)
            if engine == "http":
                server, target = start_nginx(args, workdir, top)
            else:
                server, target = start_memcached(args, top)
            try:
                results = [measure(args, workdir, engine, target, c, args.duration)
                           for c in counts]
                (base_cpu, base_rss), (top_cpu, top_rss) = results[0], results[-1]
                per_connection = (top_rss - base_rss) / (counts[-1] - counts[0])
                print(f"{engine}: CPU per op at {counts[-1]} / at {counts[0]} connections: "
                      f"{top_cpu / base_cpu:.2f}; memory per connection: "
                      f"{per_connection:.2f} KiB", flush=True)
                if args.floor:
                    floors = [measure_floor(args, engine, target, c, args.duration)
                              for c in counts]
                    print(f"{engine}: floor's CPU per op at {counts[-1]} / at {counts[0]} "
                          f"connections: {floors[-1] / floors[0]:.2f}; perflab/floor at "
                          f"{counts[0]}: {base_cpu / floors[0]:.2f}, at {counts[-1]}: "
                          f"{top_cpu / floors[-1]:.2f}", flush=True)
                if args.soak > 0:
                    print(f"{engine}: soak at {top} connections for {args.soak:.0f} s")
                    measure(args, workdir, engine, target, top, args.soak, every=60)
            finally:
                server.terminate()
                server.wait()


if __name__ == "__main__":
    main()
