#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a templated request costs PerfLab: a static request against one with three template
variables, side by side on the same nginx.

nginx (one worker, pinned) serves `location = /ok { return 200; }`, a client-bound case, so
the client's own cost per request shows. Rounds alternate between the static target
`/ok?id=1&u=1&p=a` and the templated `/ok?id={{seq}}&u={{uniform 1 1000000}}&p={{pick a|b|c}}`
(the same length of request line, give or take a few digits), both closed model with the same
threads and connections. Prints requests/s and client CPU per request for each, and the
ratios templated/static (the median of the rounds and the median of each round's own ratio).

Example:
  tests/bench/http_template_cost.py --perflab build/ci/app/perflab --rounds 3 --duration 3
"""

import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import http_vs_wrk as base  # noqa: E402  (nginx set-up, measured runs)

STATIC = "/ok?id=1&u=1&p=a"
TEMPLATED = "/ok?id={{seq}}&u={{uniform 1 1000000}}&p={{pick a|b|c}}"


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--perflab", default="build/ci/app/perflab")
    p.add_argument("--nginx", default="nginx")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--connections", type=int, default=50)
    p.add_argument("--duration", type=float, default=3, help="seconds per run")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--server-core", default="0")
    p.add_argument("--client-core", default="1")
    return p.parse_args()


def one_run(args, workdir, url):
    spec = base.perflab_spec(args, url, {"concurrency": args.connections,
                                         "duration_s": args.duration})
    spec["seed"] = 1
    report, cpu = base.perflab_run(args, workdir, spec)
    total = report["requests"]
    if report["success"] != 1.0:
        sys.exit(f"{url}: success {report['success']}: {report['status_codes']}")
    return total / report["duration_s"], cpu.total() / total


def main():
    args = parse_args()
    with tempfile.TemporaryDirectory(prefix="perflab-template-bench-") as workdir:
        nginx, port = base.start_nginx(args, workdir)
        try:
            static, templated = [], []
            for r in range(args.rounds):
                static.append(one_run(args, workdir, f"http://127.0.0.1:{port}{STATIC}"))
                templated.append(one_run(args, workdir, f"http://127.0.0.1:{port}{TEMPLATED}"))
                print(f"  round {r + 1}: static {static[-1][0]:.0f} req/s "
                      f"{static[-1][1] * 1e6:.2f} µs/req; templated {templated[-1][0]:.0f} "
                      f"req/s {templated[-1][1] * 1e6:.2f} µs/req", flush=True)
        finally:
            nginx.terminate()
            nginx.wait()
    s_rps = statistics.median(x[0] for x in static)
    t_rps = statistics.median(x[0] for x in templated)
    s_cpu = statistics.median(x[1] for x in static)
    t_cpu = statistics.median(x[1] for x in templated)
    print(f"req/s static {s_rps:.0f}, templated {t_rps:.0f}; "
          f"ratio templated/static: {t_rps / s_rps:.2f}")
    print(f"client CPU per request static {s_cpu * 1e6:.2f} µs, templated {t_cpu * 1e6:.2f} µs; "
          f"ratio templated/static: {t_cpu / s_cpu:.2f}")
    paired_rps = statistics.median(t[0] / s[0] for s, t in zip(static, templated))
    paired_cpu = statistics.median(t[1] / s[1] for s, t in zip(static, templated))
    print(f"median of per-round ratios templated/static: req/s {paired_rps:.2f}, "
          f"CPU per request {paired_cpu:.2f}")


if __name__ == "__main__":
    main()
