#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PerfLab's HTTP/2 engine against h2load (nghttp2-client), side by side on the same nginx.

nginx (`listen … ssl http2`, a self-signed certificate) runs with one worker pinned to one
core, each client pinned to another, with the same threads, connections and streams per
connection: h2load `-t T -c C -m M`, PerfLab `"threads": T`, `"max_streams": M` and a
closed-model concurrency of C × M streams (so C connections). Rounds alternate between the two
clients. Cases: a 6262-byte static file and a `return 200` location, over TLS (`static`,
`return200`) and as h2c with prior knowledge on a second, cleartext `listen … http2` port
(`static-h2c`, `return200-h2c`; `--cases` picks them). Requests per second
come from each client's own report, client CPU from the child's rusage. Prints, per case,
`ratio perflab/h2load: X.XX` for req/s and for client CPU per request (below 1.00: PerfLab
spends less CPU per request than h2load), and the median of each round's own ratios, which a
server drifting between rounds does not move.

Example:
  tests/bench/http2_vs_h2load.py --perflab build/ci/app/perflab --rounds 3 --duration 5
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_vs_wrk import free_port, per_request, pinned, run_measured, run_nginx  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--perflab", default="build/ci/app/perflab",
                   help="perflab binary (a release build)")
    p.add_argument("--h2load", default="h2load")
    p.add_argument("--nginx", default="nginx")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--connections", type=int, default=4)
    p.add_argument("--streams", type=int, default=25, help="streams per connection")
    p.add_argument("--duration", type=float, default=5, help="seconds per client run")
    p.add_argument("--rounds", type=int, default=3, help="alternating rounds per case")
    p.add_argument("--server-core", default="0")
    p.add_argument("--client-core", default="1")
    p.add_argument("--cases", default="static,return200,static-h2c,return200-h2c")
    return p.parse_args()


def start_nginx(args, workdir):
    port, h2c_port = free_port(), free_port()
    for d in ("tmp", "www"):
        os.makedirs(os.path.join(workdir, d), exist_ok=True)
    with open(os.path.join(workdir, "www", "static.bin"), "wb") as f:
        f.write(b"x" * 6262)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", f"{workdir}/key.pem",
                    "-out", f"{workdir}/cert.pem"], check=True, capture_output=True)
    # keepalive_requests: nginx 1.22 ends an HTTP/2 connection with a GOAWAY after that many
    # requests; neither client should pay for reconnects in a throughput comparison.
    proc = run_nginx(args, workdir, port,
                     "  keepalive_requests 100000000;\n  http2_max_concurrent_streams 1000;\n",
                     f"    listen 127.0.0.1:{port} ssl http2 backlog=4096;\n"
                     f"    listen 127.0.0.1:{h2c_port} http2 backlog=4096;\n"
                     f"    ssl_certificate {workdir}/cert.pem;\n"
                     f"    ssl_certificate_key {workdir}/key.pem;\n"
                     f"    root {workdir}/www;\n"
                     "    location = /ok { return 200; }\n")
    return proc, port, h2c_port


def h2load_round(args, url):
    out, cpu = run_measured(pinned(args, [
        args.h2load, "-t", str(args.threads), "-c", str(args.connections), "-m",
        str(args.streams), "-D", f"{args.duration:g}", url]))
    done = re.search(r"requests: \d+ total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed",
                     out)
    if not done:
        sys.exit(f"cannot read h2load's report:\n{out}")
    # With -D, the requests still in flight when the time is up count as failed.
    succeeded = int(done.group(2))
    rps = float(re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", out).group(1))
    return rps, cpu / succeeded, succeeded


def perflab_round(args, workdir, url):
    spec = {"name": "bench", "kind": "http", "tick_ms": 1000,
            "phases": [{"concurrency": args.connections * args.streams,
                        "duration_s": args.duration}],
            "http": {"targets": [{"url": url}], "threads": args.threads, "http2": True,
                     "max_streams": args.streams, "tls_verify": False, "timeout_ms": 30000}}
    path = os.path.join(workdir, "spec.json")
    with open(path, "w") as f:
        json.dump(spec, f)
    out, cpu = run_measured(pinned(args, [args.perflab, "run", path, "--json", "-q",
                                          "--no-store"]))
    report = json.loads(out)
    errors = sum(report["errors"].values())
    if errors:
        sys.exit(f"perflab: {errors} requests failed: {report['errors']}")
    total = report["requests"]
    return total / report["duration_s"], cpu / total, total


def compare(args, workdir, name, url):
    peer, mine = [], []
    for r in range(args.rounds):
        peer.append(h2load_round(args, url))
        mine.append(perflab_round(args, workdir, url))
        print(f"  round {r + 1}: h2load {peer[-1][0]:.0f} req/s {per_request(peer[-1][1])}; "
              f"perflab {mine[-1][0]:.0f} req/s {per_request(mine[-1][1])}", flush=True)
    h_rps = statistics.median(x[0] for x in peer)
    p_rps = statistics.median(x[0] for x in mine)
    h_cpu = statistics.median(x[1].total() for x in peer)
    p_cpu = statistics.median(x[1].total() for x in mine)
    print(f"{name}: req/s h2load {h_rps:.0f}, perflab {p_rps:.0f}; "
          f"ratio perflab/h2load: {p_rps / h_rps:.2f}")
    print(f"{name}: client CPU per request h2load {h_cpu * 1e6:.2f} µs, perflab "
          f"{p_cpu * 1e6:.2f} µs; ratio perflab/h2load: {p_cpu / h_cpu:.2f}", flush=True)
    # Each round's two runs are back to back: their ratio cancels the server's drift between
    # rounds, which on a shared machine can be larger than the difference between the clients.
    paired_rps = statistics.median(m[0] / h[0] for h, m in zip(peer, mine))
    paired_cpu = statistics.median(m[1].total() / h[1].total() for h, m in zip(peer, mine))
    print(f"{name}: median of per-round ratios perflab/h2load: req/s {paired_rps:.2f}, "
          f"client CPU per request {paired_cpu:.2f}", flush=True)


def main():
    args = parse_args()
    for tool in (args.h2load, args.nginx, "taskset", "openssl"):
        if not shutil.which(tool):
            sys.exit(f"{tool} not found")
    if not os.access(args.perflab, os.X_OK):
        sys.exit(f"{args.perflab} not found: build perflab (release) and pass --perflab")
    workdir = tempfile.mkdtemp(prefix="perflab-h2-bench-")
    nginx, port, h2c_port = start_nginx(args, workdir)
    try:
        print(f"nginx 1 worker on core {args.server_core}, HTTP/2 over TLS and h2c; clients on core "
              f"{args.client_core}; {args.threads} threads, {args.connections} connections x "
              f"{args.streams} streams, {args.duration:g} s per run, {args.rounds} alternating "
              f"rounds; load average {os.getloadavg()[0]:.2f}", flush=True)
        cases = {"static": f"https://127.0.0.1:{port}/static.bin",
                 "return200": f"https://127.0.0.1:{port}/ok",
                 "static-h2c": f"http://127.0.0.1:{h2c_port}/static.bin",
                 "return200-h2c": f"http://127.0.0.1:{h2c_port}/ok"}
        for name in args.cases.split(","):
            print(f"case {name} ({cases[name]})", flush=True)
            compare(args, workdir, name, cases[name])
    finally:
        nginx.terminate()
        nginx.wait()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
