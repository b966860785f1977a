#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PerfLab's Redis driver against memtier_benchmark and redis-benchmark on the same redis-server.

The server runs pinned to one core, each client pinned to another, with one client thread,
equal connections, pipeline depth, value size and command over a key space prefilled for each
client's key names. Rounds alternate between the clients. Throughput comes from the server's
own counters (INFO commandstats calls of GET and SET over the measured window), client CPU
from the child's rusage over every op the server counted while it ran. Prints a table, one row
per connection count and pipeline depth, with `PerfLab/best`: PerfLab's client CPU per op over
the lower of the other two's (the goal is at most 1.00).

redis-benchmark sends one command per run (it cannot mix GET and SET in one stream), so every
client sends that one: `--command get` (the default) reads the prefilled keys, all hits, or
`--command set` writes them. redis-benchmark has no time limit: it is given more requests than
it can send and stopped after --duration seconds.

memtier_benchmark is not packaged for Debian 12; build it from its public source:
  apt-get install -y build-essential autoconf automake libevent-dev pkg-config zlib1g-dev \
      libssl-dev git
  git clone https://github.com/RedisLabs/memtier_benchmark /tmp/memtier
  cd /tmp/memtier && autoreconf -ivf && ./configure && make -j"$(nproc)"
redis-benchmark is in Debian's redis-tools, which this script installs with apt-get if missing.

Example:
  tests/bench/redis_vs_memtier.py --perflab build/ci/app/perflab \
      --memtier /tmp/memtier/memtier_benchmark
"""

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--perflab", default="build/ci/app/perflab",
                   help="perflab binary (a release build)")
    p.add_argument("--memtier", default="memtier_benchmark", help="memtier_benchmark binary")
    p.add_argument("--redis-benchmark", default="redis-benchmark")
    p.add_argument("--redis-server", default="redis-server")
    p.add_argument("--connections", default="4,16,50", help="comma-separated connection counts")
    p.add_argument("--pipelines", default="1,16", help="comma-separated pipeline depths")
    p.add_argument("--command", choices=["get", "set"], default="get")
    p.add_argument("--duration", type=float, default=10, help="seconds per client run")
    p.add_argument("--rounds", type=int, default=2, help="alternating rounds per row")
    p.add_argument("--keys", type=int, default=100000, help="key space size")
    p.add_argument("--value-size", type=int, default=128, help="value bytes (one size for all)")
    p.add_argument("--server-core", default="0")
    p.add_argument("--client-core", default="1",
                   help='core for the clients ("" leaves them unpinned)')
    p.add_argument("--nice", type=int, default=0,
                   help="nice value for the server and the clients alike")
    p.add_argument("--verbose", action="store_true")
    return p.parse_args()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


NICE = 0


def pinned(core, argv):
    argv = ["taskset", "-c", core] + argv if core else argv
    return ["nice", "-n", str(NICE)] + argv if NICE else argv


def resp_command(*args):
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    return out


class Redis:
    def __init__(self, args):
        self.port = free_port()
        argv = [args.redis_server, "--bind", "127.0.0.1", "--port", str(self.port),
                "--save", "", "--appendonly", "no", "--loglevel", "warning"]
        self.proc = subprocess.Popen(pinned(args.server_core, argv))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                self.ops()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def info(self, section):
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(resp_command("INFO", section))
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
                head, sep, _ = data.partition(b"\r\n")
                if sep and len(data) >= len(head) + 2 + int(head[1:]) + 2:
                    break
        out = {}
        for line in data.decode().splitlines()[1:]:
            name, sep, value = line.partition(":")
            if sep:
                out[name] = value
        return out

    def ops(self):
        stats = self.info("commandstats")
        total = 0
        for cmd in ("get", "set"):
            fields = dict(f.split("=") for f in stats.get(f"cmdstat_{cmd}", "calls=0").split(","))
            total += int(fields["calls"])
        return total

    def prefill(self, keys, value_size):
        # PerfLab's keys are key:0 to key:N-1, memtier's key:1 to key:N (its minimum is 1),
        # redis-benchmark's key:%012d.
        value = b"v" * value_size
        names = [f"key:{i}" for i in range(keys + 1)] + [f"key:{i:012d}" for i in range(keys)]
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as s:
            for start in range(0, len(names), 1000):
                batch = names[start:start + 1000]
                s.sendall(b"".join(resp_command("SET", n, value) for n in batch))
                got = b""
                while got.count(b"\r\n") < len(batch):
                    got += s.recv(65536)

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


class Sampler(threading.Thread):
    """Reads the server's op counter at the measured window's edges."""

    def __init__(self, server, start_s, end_s):
        super().__init__(daemon=True)
        self.server, self.start_s, self.end_s = server, start_s, end_s
        self.window = None

    def run(self):
        t0 = time.monotonic()
        first = None
        while True:
            now = time.monotonic() - t0
            if first is None and now >= self.start_s:
                first = (time.monotonic(), self.server.ops())
            if first is not None and now >= self.end_s:
                last = (time.monotonic(), self.server.ops())
                self.window = (last[1] - first[1], last[0] - first[0])
                return
            time.sleep(0.1)


def run_client(args, server, argv, stdout_path, stop_after=None):
    """Runs one client; returns ops/s over the middle window and client CPU µs per op.
    `stop_after`: seconds after which the client is stopped (SIGINT) instead of ending itself."""
    before = server.ops()
    with open(stdout_path, "w") as out:
        proc = subprocess.Popen(pinned(args.client_core, argv), stdout=out,
                                stderr=subprocess.DEVNULL if not args.verbose else None)
        # Skip the first second (connect, warm-up) and stop before the client winds down.
        sampler = Sampler(server, 1.0, max(1.5, args.duration - 0.5))
        sampler.start()
        timer = None
        if stop_after:
            timer = threading.Timer(stop_after, lambda: proc.send_signal(signal.SIGINT))
            timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if timer:
            timer.cancel()
    sampler.join()
    total = server.ops() - before
    stopped = stop_after and proc.returncode in (-signal.SIGINT, 128 + signal.SIGINT, 0)
    if proc.returncode != 0 and not stopped:
        raise RuntimeError(f"{argv[0]} exited with {proc.returncode}")
    if not sampler.window or total == 0:
        raise RuntimeError(f"{argv[0]}: no operations measured")
    ops, secs = sampler.window
    cpu_us = (usage.ru_utime + usage.ru_stime) * 1e6
    return {"ops_s": ops / secs, "cpu_us_op": cpu_us / total}


def perflab_spec(args, port, connections, pipeline):
    return {"name": "bench", "kind": "cache",
            "phases": [{"duration_s": args.duration, "concurrency": connections}],
            "cache": {"servers": [f"127.0.0.1:{port}"], "protocol": "redis",
                      "workload": "get-only" if args.command == "get" else "set-only",
                      "keys": {"count": args.keys, "prefix": "key:"},
                      "value_size": {"min": args.value_size, "max": args.value_size},
                      "threads": 1, "pipeline": pipeline, "redis": {"hello": 2}}}


def run_perflab(args, server, workdir, connections, pipeline):
    spec_path = os.path.join(workdir, "perflab.json")
    with open(spec_path, "w") as f:
        json.dump(perflab_spec(args, server.port, connections, pipeline), f)
    out_path = os.path.join(workdir, "perflab-out.json")
    r = run_client(args, server, [args.perflab, "run", spec_path, "--json", "-q", "--no-store"],
                   out_path)
    with open(out_path) as f:
        summary = json.load(f)
    r["errors"] = sum(op.get("errors", 0) for op in summary.get("ops", {}).values())
    return r


def run_memtier(args, server, workdir, connections, pipeline):
    argv = [args.memtier, "--protocol=redis", "-s", "127.0.0.1", "-p", str(server.port),
            "-t", "1", "-c", str(connections), f"--pipeline={pipeline}",
            f"--test-time={max(1, round(args.duration))}",
            "--ratio=0:1" if args.command == "get" else "--ratio=1:0",
            "--key-prefix=key:", "--key-minimum=1", f"--key-maximum={args.keys}",
            "--key-pattern=R:R", f"--data-size={args.value_size}", "--hide-histogram"]
    return run_client(args, server, argv, os.path.join(workdir, "memtier.out"))


def run_redis_benchmark(args, server, workdir, connections, pipeline):
    argv = [args.redis_benchmark, "-h", "127.0.0.1", "-p", str(server.port),
            "-c", str(connections), "-P", str(pipeline), "-n", "2000000000",
            "-r", str(args.keys), "-d", str(args.value_size), "-t", args.command,
            "--threads", "1", "-q"]
    return run_client(args, server, argv, os.path.join(workdir, "redis-benchmark.out"),
                      stop_after=args.duration)


def ensure_redis_benchmark(args):
    if shutil.which(args.redis_benchmark):
        return
    print("redis-benchmark not found: apt-get install redis-tools", file=sys.stderr)
    subprocess.run(["apt-get", "install", "-y", "redis-tools"], check=True,
                   stdout=subprocess.DEVNULL)
    if not shutil.which(args.redis_benchmark):
        sys.exit(f"{args.redis_benchmark} not found after installing redis-tools")


def med(results, key):
    return statistics.median(r[key] for r in results)


def main():
    args = parse_args()
    global NICE
    NICE = args.nice
    for tool in ("taskset", args.redis_server, args.memtier):
        if not shutil.which(tool):
            sys.exit(f"{tool} not found")
    if not os.access(args.perflab, os.X_OK):
        sys.exit(f"perflab binary not found: {args.perflab}")
    ensure_redis_benchmark(args)
    counts = [int(c) for c in args.connections.split(",") if c]
    pipelines = [int(p) for p in args.pipelines.split(",") if p]
    server = Redis(args)
    workdir = tempfile.mkdtemp(prefix="perflab-bench-")
    clients = (("perflab", run_perflab), ("memtier", run_memtier),
               ("redis-benchmark", run_redis_benchmark))
    try:
        server.prefill(args.keys, args.value_size)
        print(f"redis-server 127.0.0.1:{server.port} on core {args.server_core}, clients on "
              f"core {args.client_core or 'any'} with one thread; {args.command.upper()} over "
              f"{args.keys} keys of {args.value_size} B, {args.duration:g}s x {args.rounds} "
              f"rounds; nice {args.nice}")
        print(f"{'conns':>5} {'pipeline':>8} | "
              + " | ".join(f"{name + ' ops/s':>21} {'CPU/op':>9}" for name, _ in clients)
              + " | PerfLab/best")
        for n in counts:
            for depth in pipelines:
                results = {name: [] for name, _ in clients}
                for _ in range(args.rounds):
                    for name, run in clients:
                        results[name].append(run(args, server, workdir, n, depth))
                cells = [f"{med(rs, 'ops_s'):21.0f} {med(rs, 'cpu_us_op'):7.2f}us"
                         for rs in results.values()]
                best = min(med(results[name], "cpu_us_op")
                           for name in ("memtier", "redis-benchmark"))
                errors = max(r["errors"] for r in results["perflab"])
                print(f"{n:>5} {depth:>8} | " + " | ".join(cells)
                      + f" | {med(results['perflab'], 'cpu_us_op') / best:12.2f}"
                      + (f"  (PerfLab errors {errors})" if errors else ""))
                sys.stdout.flush()
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
