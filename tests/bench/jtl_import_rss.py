#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`perflab import` of a large JMeter JTL: its peak memory, time and rows per second.

Writes a synthetic JTL in JMeter's default CSV columns (a soak of 800 samples a second over
four labels, log-normal elapsed times around 20 ms with a tail, a 503 now and then, rows in
the order JMeter writes them: by end time, so a slow sample lands seconds after its start) of
--size-mb to a temporary directory, imports it into a fresh database under /usr/bin/time -v
and prints the maximum resident set, the wall time and the rows imported per second. The
importer streams: its memory must not grow with the file (a bar of 100 MB for 1 GB).

Example:
  tests/bench/jtl_import_rss.py --perflab build/ci/app/perflab --size-mb 1024
"""

import argparse
import heapq
import math
import os
import random
import re
import subprocess
import sys
import tempfile

HEADER = ("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
          "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n")
LABELS = ["home", "search", "product page", "checkout, then pay"]
RATE = 800  # samples a second


def write_jtl(path, size_bytes):
    """Rows until the file reaches size_bytes; returns how many."""
    rng = random.Random(16)
    start_ms = 1_772_366_400_000
    rows = 0
    pending = []  # (end_ms, row): JMeter writes a sample when it ends
    written = 0
    with open(path, "w", buffering=1 << 20) as out:
        out.write(HEADER)
        written += len(HEADER)
        i = 0
        while written < size_bytes:
            sent = start_ms + i * 1000 // RATE
            elapsed = int(math.exp(rng.gauss(3.0, 0.5)))
            if i % 997 == 0:
                elapsed += rng.randrange(500, 4000)
            label = LABELS[i % len(LABELS)]
            thread = f"Soak 1-{i % 100 + 1}"
            if i % 211 == 0:
                row = (f"{sent},{elapsed},\"{label}\",503,Service Unavailable,{thread},text,false,"
                       f",312,180,100,100,http://10.0.0.5:8080/app/{i % 50},{elapsed},0,1\n")
            else:
                row = (f"{sent},{elapsed},\"{label}\",200,OK,{thread},text,true,,"
                       f"{6000 + i % 900},180,100,100,http://10.0.0.5:8080/app/{i % 50},"
                       f"{max(1, elapsed - 2)},0,{i % 3}\n")
            heapq.heappush(pending, (sent + elapsed, i, row))
            while pending and pending[0][0] <= sent:
                line = heapq.heappop(pending)[2]
                out.write(line)
                written += len(line)
                rows += 1
            i += 1
        while pending:
            out.write(heapq.heappop(pending)[2])
            rows += 1
    return rows


def measured_import(perflab, results, db):
    """`perflab import` under /usr/bin/time -v: its maximum resident set (kB) and wall time."""
    run = subprocess.run(["/usr/bin/time", "-v", perflab, "import", results, "--db", db],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        sys.exit(f"perflab import failed ({run.returncode}):\n{run.stderr}")
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)[1])
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", run.stderr)[1]
    return rss_kb, sum(float(part) * 60**n for n, part in enumerate(reversed(wall.split(":"))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perflab", default="build/ci/app/perflab")
    parser.add_argument("--size-mb", type=int, default=1024)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jtl-rss-") as tmp:
        jtl = os.path.join(tmp, "soak.jtl")
        rows = write_jtl(jtl, args.size_mb << 20)
        print(f"JTL: {os.path.getsize(jtl) / (1 << 20):.0f} MiB, {rows} rows")
        rss_kb, seconds = measured_import(args.perflab, jtl, os.path.join(tmp, "runs.db"))
        print(f"max RSS: {rss_kb / 1024:.1f} MiB")
        print(f"time: {seconds:.1f} s")
        print(f"rows/s: {rows / seconds:,.0f}")
        print(f"database: {os.path.getsize(os.path.join(tmp, 'runs.db')) / (1 << 20):.1f} MiB")


if __name__ == "__main__":
    main()
