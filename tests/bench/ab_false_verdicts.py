#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How often `perflab ab` calls one nginx spec against itself better or worse (A/A).

Starts nginx on a free loopback port, writes one spec twice (an open-model run of /ok), and
runs `perflab ab A.json B.json --repeat 3 --check --json` ROUNDS times, each into a fresh
database. Same server on both sides: every `better` or `worse` is a false verdict. Prints,
per round, the verdicts of throughput, p50, p99 and error rate and the exit code, then the
count of false verdicts per figure and of rounds whose --check failed (exit 3).

Example:
  tests/bench/ab_false_verdicts.py --perflab build/ci/app/perflab --rounds 10
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

FIGURES = ["throughput", "p50_us", "p99_us", "error_rate"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_nginx(tmp):
    port = free_port()
    conf = os.path.join(tmp, "nginx.conf")
    with open(conf, "w") as out:
        out.write(f"""worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {tmp}/body; proxy_temp_path {tmp}/proxy;
  fastcgi_temp_path {tmp}/fastcgi; uwsgi_temp_path {tmp}/uwsgi; scgi_temp_path {tmp}/scgi;
  server {{ listen 127.0.0.1:{port}; location /ok {{ return 200 "ok"; }} }}
}}
""")
    nginx = subprocess.Popen(["nginx", "-c", conf, "-g", "daemon off;"])
    for _ in range(100):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return nginx, port
        time.sleep(0.05)
    nginx.kill()
    sys.exit("nginx did not start")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perflab", default="build/ci/app/perflab")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rate", type=int, default=500)
    parser.add_argument("--seconds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ab-aa-") as tmp:
        nginx, port = start_nginx(tmp)
        try:
            spec = {"name": "a/a", "kind": "http", "tick_ms": 250,
                    "phases": [{"rate": args.rate, "duration_s": args.seconds}],
                    "http": {"targets": [{"url": f"http://127.0.0.1:{port}/ok"}]}}
            paths = []
            for name in ("a.json", "b.json"):
                paths.append(os.path.join(tmp, name))
                with open(paths[-1], "w") as out:
                    json.dump(spec, out)
            false = {f: 0 for f in FIGURES}
            failed_checks = 0
            for round_ in range(1, args.rounds + 1):
                db = os.path.join(tmp, f"round{round_}.db")
                run = subprocess.run([args.perflab, "ab", *paths, "--repeat", str(args.repeat),
                                      "--check", "--json", "--db", db],
                                     capture_output=True, text=True, check=False)
                if run.returncode not in (0, 3):
                    sys.exit(f"round {round_}: exit {run.returncode}\n{run.stderr[-2000:]}")
                figures = json.loads(run.stdout)["figures"]
                verdicts = {f: figures[f]["verdict"][1] for f in FIGURES}
                for f, v in verdicts.items():
                    false[f] += v in ("better", "worse")
                failed_checks += run.returncode == 3
                print(f"round {round_}: exit {run.returncode} " +
                      " ".join(f"{f}={v}" for f, v in verdicts.items()), flush=True)
            print(f"false verdicts in {args.rounds} A/A rounds ({args.repeat} runs a side, "
                  f"{args.rate}/s for {args.seconds} s): " +
                  ", ".join(f"{f} {n}" for f, n in false.items()) +
                  f"; --check failed in {failed_checks}")
        finally:
            nginx.terminate()
            nginx.wait()


if __name__ == "__main__":
    main()
