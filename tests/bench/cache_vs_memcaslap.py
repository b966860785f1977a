#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PerfLab's cache engine against memcaslap, side by side on the same memcached.

The server runs pinned to one core, each client pinned to another, with equal connections,
value sizes and get:set mix over a prefilled key space. Rounds alternate between the two
clients. Throughput comes from the server's own counters (cmd_get + cmd_set deltas over the
measured window), client CPU from the child's rusage. Prints, per connection count,
`ratio perflab/memcaslap: X.XX` for ops/s and for client CPU per op.

With --floor, a third client runs in each round: transport_floor, which sends the same
requests and reads their replies and does nothing else. Its CPU per op is what the kernel's
TCP path costs any client; `ratio floor/memcaslap` says how far below a peer a client can get.

With --memtier, memtier_benchmark runs in each round too (memcache_text, one thread, the same
connections, key space, value sizes and get:set ratio, and --pipeline as cache.pipeline): the
peer for pipelined runs, which memcaslap cannot make. memtier is not packaged for Debian 12;
build it from its public source outside the project (see tests/bench/redis_vs_memtier.py).

Examples:
  tests/bench/cache_vs_memcaslap.py --perflab build/ci/app/perflab --driver async \
      --floor build/ci/tests/integration/transport_floor
  tests/bench/cache_vs_memcaslap.py --driver async --protocol text --pipeline 16 \
      --memtier /tmp/memtier/memtier_benchmark
"""

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_vs_wrk import floor_transports  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--perflab", default="build/ci/app/perflab",
                   help="perflab binary (a release build)")
    p.add_argument("--memcaslap", default="memcaslap")
    p.add_argument("--memcached", default="memcached")
    p.add_argument("--connections", default="4,16,50",
                   help="comma-separated connection counts (128 optional)")
    p.add_argument("--duration", type=float, default=10, help="seconds per client run")
    p.add_argument("--rounds", type=int, default=2, help="alternating rounds per count")
    p.add_argument("--driver", default=None,
                   help='cache.driver ("libmemcached", "async"; default: the spec default)')
    p.add_argument("--protocol", default="text", help='cache.protocol ("text", "meta", ...)')
    p.add_argument("--threads", type=int, default=None, help="cache.threads (async driver)")
    p.add_argument("--pipeline", type=int, default=None, help="cache.pipeline (async driver)")
    p.add_argument("--cache-json", default=None,
                   help="JSON object merged into the spec's cache section last")
    p.add_argument("--keys", type=int, default=100000, help="key space size")
    p.add_argument("--key-len", type=int, default=16, help="key length in bytes")
    p.add_argument("--value-min", type=int, default=128)
    p.add_argument("--value-max", type=int, default=10240)
    p.add_argument("--get-ratio", type=int, default=10)
    p.add_argument("--set-ratio", type=int, default=1)
    p.add_argument("--server-core", default="0")
    p.add_argument("--client-core", default="1",
                   help='cores for the clients ("" leaves them unpinned)')
    p.add_argument("--server-memory-mb", type=int, default=1024)
    p.add_argument("--nice", type=int, default=0,
                   help="nice value for the server and both clients alike (e.g. -10 on a "
                        "machine busy with other work)")
    p.add_argument("--only", choices=["perflab", "memcaslap"], default=None,
                   help="run one client only (no ratio)")
    p.add_argument("--floor", default=None,
                   help="transport_floor binary: also run the bare-protocol client (epoll, and "
                        "io_uring where the machine allows it), the floor any client's CPU per "
                        "op stands on")
    p.add_argument("--memtier", default=None,
                   help="memtier_benchmark binary: also run it, pipelined as PerfLab is")
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


class Memcached:
    def __init__(self, args):
        self.port = free_port()
        argv = [args.memcached, "-u", "root", "-l", "127.0.0.1", "-p", str(self.port),
                "-U", "0", "-m", str(args.server_memory_mb), "-t", "1"]
        self.proc = subprocess.Popen(pinned(args.server_core, argv))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                self.stats()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("memcached did not start")

    def stats(self):
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(b"stats\r\n")
            data = b""
            while not data.endswith(b"END\r\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        out = {}
        for line in data.decode().splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[0] == "STAT":
                out[parts[1]] = parts[2]
        return out

    def ops(self):
        s = self.stats()
        return int(s["cmd_get"]) + int(s["cmd_set"])

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def key_prefix(args):
    # PerfLab's keys are prefix + decimal index: pad the prefix so keys are about key_len long.
    digits = len(str(args.keys - 1))
    return "k" * max(1, args.key_len - digits)


def perflab_spec(args, port, connections, duration, prefill=False):
    cache = {
        "servers": [f"127.0.0.1:{port}"],
        "protocol": args.protocol,
        "workload": "ratio",
        "get_ratio": args.get_ratio,
        "set_ratio": args.set_ratio,
        "keys": {"count": args.keys, "prefix": key_prefix(args)},
        "value_size": {"min": args.value_min, "max": args.value_max},
        "prefill": prefill,
    }
    if args.driver:
        cache["driver"] = args.driver
    if args.threads is not None:
        cache["threads"] = args.threads
    if args.pipeline is not None:
        cache["pipeline"] = args.pipeline
    if args.cache_json:
        cache.update(json.loads(args.cache_json))
    phase = {"ops": 1, "concurrency": connections} if prefill else \
        {"duration_s": duration, "concurrency": connections}
    return {"name": "bench", "kind": "cache", "phases": [phase], "cache": cache}


def memcaslap_config(args):
    sets = args.set_ratio / (args.get_ratio + args.set_ratio)
    return ("key\n{k} {k} 1\n"
            "value\n{lo} {hi} 1\n"
            "cmd\n0 {s:.6f}\n1 {g:.6f}\n").format(k=args.key_len, lo=args.value_min,
                                                 hi=args.value_max, s=sets, g=1 - sets)


class Sampler(threading.Thread):
    """Reads the server's op counter at the window's edges and the client's RSS meanwhile."""

    def __init__(self, server, pid, start_s, end_s):
        super().__init__(daemon=True)
        self.server, self.pid = server, pid
        self.start_s, self.end_s = start_s, end_s
        self.window = None
        self.rss_kb = []

    def run(self):
        t0 = time.monotonic()
        first = None
        while True:
            now = time.monotonic() - t0
            self.rss_kb.append(read_rss_kb(self.pid))
            if first is None and now >= self.start_s:
                first = (time.monotonic(), self.server.ops())
            if first is not None and now >= self.end_s:
                last = (time.monotonic(), self.server.ops())
                self.window = (last[1] - first[1], last[0] - first[0])
                return
            time.sleep(0.1)


def read_rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def run_client(args, server, argv, duration, stdout_path):
    """Runs one client; returns ops/s over the middle window and client CPU µs per op."""
    before = server.ops()
    with open(stdout_path, "w") as out:
        proc = subprocess.Popen(pinned(args.client_core, argv), stdout=out,
                                stderr=subprocess.DEVNULL if not args.verbose else None)
        # Skip the first second (connect, warm-up) and stop before the client winds down.
        sampler = Sampler(server, proc.pid, 1.0, max(1.5, duration - 0.5))
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    sampler.join()
    total = server.ops() - before
    if proc.returncode != 0:
        raise RuntimeError(f"{argv[0]} exited with {proc.returncode}")
    if not sampler.window or total == 0:
        raise RuntimeError(f"{argv[0]}: no operations measured")
    ops, secs = sampler.window
    cpu_us = (usage.ru_utime + usage.ru_stime) * 1e6
    return {"ops_s": ops / secs, "cpu_us_op": cpu_us / total, "total": total,
            "rss_kb": sampler.rss_kb}


def run_perflab(args, server, workdir, connections):
    spec_path = os.path.join(workdir, f"perflab-{connections}.json")
    with open(spec_path, "w") as f:
        json.dump(perflab_spec(args, server.port, connections, args.duration), f)
    out_path = os.path.join(workdir, "perflab-out.json")
    r = run_client(args, server, [args.perflab, "run", spec_path, "--json", "-q"],
                   args.duration, out_path)
    with open(out_path) as f:
        summary = json.load(f)
    errors = sum(op.get("errors", 0) for op in summary.get("ops", {}).values())
    r["p99_us"] = summary["ops"]["get"]["latency_us"]["p99"]
    r["errors"] = errors
    # Resident memory after 2 s, then at each quarter of the run.
    rss = [kb for kb in r.pop("rss_kb") if kb]
    marks = [min(len(rss) - 1, 20)] + [len(rss) * q // 4 - 1 for q in (1, 2, 3, 4)]
    r["rss_mb"] = [rss[i] / 1024 for i in marks] if rss else [0]
    return r


def run_memcaslap(args, server, workdir, connections):
    cfg = os.path.join(workdir, "memcaslap.cfg")
    with open(cfg, "w") as f:
        f.write(memcaslap_config(args))
    # Each connection's task window holds keys / connections keys (memcaslap counts them in
    # thousands): about the same key space.
    window = f"{max(1, round(args.keys / connections / 1000))}k"
    argv = [args.memcaslap, "-s", f"127.0.0.1:{server.port}", "-F", cfg,
            "-T", "1", "-c", str(connections), "-w", window,
            "-t", f"{int(args.duration)}s"]
    return run_client(args, server, argv, args.duration, os.path.join(workdir, "mcs.out"))


def run_memtier(args, server, workdir, connections):
    # memtier's keys are prefix + number as PerfLab's, from its minimum of 1: the prefilled
    # keys 1 to N-1, all hits as PerfLab's.
    argv = [args.memtier, "--protocol=memcache_text", "-s", "127.0.0.1", "-p", str(server.port),
            "-t", "1", "-c", str(connections), f"--pipeline={args.pipeline or 1}",
            f"--ratio={args.set_ratio}:{args.get_ratio}", f"--key-prefix={key_prefix(args)}",
            "--key-minimum=1", f"--key-maximum={args.keys - 1}", "--key-pattern=R:R",
            f"--data-size-range={args.value_min}-{args.value_max}",
            f"--test-time={int(args.duration)}", "--hide-histogram"]
    return run_client(args, server, argv, args.duration, os.path.join(workdir, "memtier.out"))


def run_floor(args, server, workdir, connections, transport):
    argv = [args.floor, str(server.port), str(connections), f"{args.duration:g}", transport,
            "memcache", "--keys", str(args.keys), "--prefix", key_prefix(args),
            "--value-min", str(args.value_min), "--value-max", str(args.value_max),
            "--get-ratio", str(args.get_ratio), "--set-ratio", str(args.set_ratio)]
    return run_client(args, server, argv, args.duration, os.path.join(workdir, "floor.out"))


def prefill(args, server, workdir):
    spec_path = os.path.join(workdir, "prefill.json")
    with open(spec_path, "w") as f:
        json.dump(perflab_spec(args, server.port, 8, 0, prefill=True), f)
    subprocess.run([args.perflab, "run", spec_path, "--json", "-q"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def fmt(results, key):
    return statistics.median(r[key] for r in results)


def main():
    args = parse_args()
    global NICE
    NICE = args.nice
    peers = ((args.memcaslap,) if args.only != "perflab" else ()) + \
        ((args.memtier,) if args.memtier else ())
    for tool in ("taskset", args.memcached) + peers:
        if not shutil.which(tool):
            sys.exit(f"{tool} not found")
    if args.only != "memcaslap" and not os.access(args.perflab, os.X_OK):
        sys.exit(f"perflab binary not found: {args.perflab}")
    counts = [int(c) for c in args.connections.split(",") if c]
    transports = floor_transports(args.floor) if args.floor else []
    server = Memcached(args)
    workdir = tempfile.mkdtemp(prefix="perflab-bench-")
    try:
        prefill(args, server, workdir)
        print(f"memcached 127.0.0.1:{server.port} on core {args.server_core}, clients on "
              f"core {args.client_core or 'any'}; {args.keys} keys, values "
              f"{args.value_min}-{args.value_max} B, get:set {args.get_ratio}:{args.set_ratio}, "
              f"{args.duration:g}s x {args.rounds} rounds; nice {args.nice}; driver={args.driver or 'default'} "
              f"protocol={args.protocol} threads={args.threads} pipeline={args.pipeline}")
        for n in counts:
            pl, mc, mt, fl = [], [], [], {t: [] for t in transports}
            for _ in range(args.rounds):
                if args.only != "memcaslap":
                    pl.append(run_perflab(args, server, workdir, n))
                if args.only != "perflab":
                    mc.append(run_memcaslap(args, server, workdir, n))
                if args.memtier:
                    mt.append(run_memtier(args, server, workdir, n))
                for t in transports:
                    fl[t].append(run_floor(args, server, workdir, n, t))
            print(f"connections {n}:")
            if pl:
                print(f"  perflab   {fmt(pl, 'ops_s'):10.0f} ops/s  {fmt(pl, 'cpu_us_op'):6.2f} "
                      f"us CPU/op  p99 {fmt(pl, 'p99_us'):.0f} us  errors {max(r['errors'] for r in pl)}"
                      f"  rounds {[round(r['ops_s']) for r in pl]}"
                      f"  RSS MB {'->'.join(f'{m:.1f}' for m in pl[-1]['rss_mb'])}")
            if mc:
                print(f"  memcaslap {fmt(mc, 'ops_s'):10.0f} ops/s  {fmt(mc, 'cpu_us_op'):6.2f} "
                      f"us CPU/op  rounds {[round(r['ops_s']) for r in mc]}")
            if mt:
                print(f"  memtier   {fmt(mt, 'ops_s'):10.0f} ops/s  {fmt(mt, 'cpu_us_op'):6.2f} "
                      f"us CPU/op  rounds {[round(r['ops_s']) for r in mt]}")
            for t, rs in fl.items():
                line = (f"  floor {t:5s} {fmt(rs, 'ops_s'):10.0f} ops/s  "
                        f"{fmt(rs, 'cpu_us_op'):6.2f} us CPU/op")
                if mc:
                    line += f"  ratio floor/memcaslap: {fmt(rs, 'cpu_us_op') / fmt(mc, 'cpu_us_op'):.2f}"
                if pl:
                    line += f"  perflab/floor: {fmt(pl, 'cpu_us_op') / fmt(rs, 'cpu_us_op'):.2f}"
                print(line)
            if pl and mc:
                print(f"  ops/s     ratio perflab/memcaslap: "
                      f"{fmt(pl, 'ops_s') / fmt(mc, 'ops_s'):.2f}")
                print(f"  CPU/op    ratio perflab/memcaslap: "
                      f"{fmt(pl, 'cpu_us_op') / fmt(mc, 'cpu_us_op'):.2f}")
            if pl and mt:
                print(f"  ops/s     ratio perflab/memtier: {fmt(pl, 'ops_s') / fmt(mt, 'ops_s'):.2f}")
                print(f"  CPU/op    ratio perflab/memtier: "
                      f"{fmt(pl, 'cpu_us_op') / fmt(mt, 'cpu_us_op'):.2f}")
            sys.stdout.flush()
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
