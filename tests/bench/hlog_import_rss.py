#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`perflab import` of a day-long HdrHistogram log: its peak memory and time.

Makes one second of requests (vegeta's JSON lines, 2000 requests with latencies from 0.1 ms to
a 2 s tail) into a run with this perflab, exports it as an .hlog, and repeats its interval
lines over --seconds one-second intervals (a day by default: 86,400) under the log's
BaseTime. That log is imported into a fresh database under /usr/bin/time -v; the maximum
resident set, the wall time and the intervals read per second are printed. The importer keeps
each interval's histograms encoded: its memory must stay under 200 MB for the day.

Example:
  tests/bench/hlog_import_rss.py --perflab build/ci/app/perflab
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

from jtl_import_rss import measured_import

RSS_BAR_MB = 200


def one_second_log(perflab, tmp):
    """The header and interval lines of an .hlog of one second of requests."""
    lines = []
    for i in range(2000):
        latency_ns = 100_000 + (i * 7919 % 1000) * 9_000 + (2_000_000_000 if i % 997 == 0 else 0)
        target = "/items" if i % 3 else "/orders"
        lines.append(json.dumps({"timestamp": f"2026-03-01T12:00:00.{i * 499_000:09d}Z",
                                 "latency": latency_ns, "code": 200, "method": "GET",
                                 "url": "http://127.0.0.1:8080" + target}))
    results = os.path.join(tmp, "second.json")
    with open(results, "w") as out:
        out.write("\n".join(lines) + "\n")
    db = os.path.join(tmp, "second.db")
    subprocess.run([perflab, "import", results, "--db", db], check=True, capture_output=True)
    exported = subprocess.run([perflab, "export", "1", "--db", db, "--format", "hlog"],
                              check=True, capture_output=True, text=True).stdout
    header = [l for l in exported.splitlines() if l.startswith("#") or l.startswith('"')]
    intervals = [l for l in exported.splitlines() if l and l not in header]
    return header, intervals


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perflab", default="build/ci/app/perflab")
    parser.add_argument("--seconds", type=int, default=86_400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hlog-rss-") as tmp:
        header, intervals = one_second_log(args.perflab, tmp)
        if not intervals:
            sys.exit("the exported log has no interval")
        log = os.path.join(tmp, "day.hlog")
        with open(log, "w", buffering=1 << 20) as out:
            out.write("\n".join(header) + "\n")
            for second in range(args.seconds):
                for line in intervals:
                    # Tag=NAME,StartTimestamp,Interval_Length,Interval_Max,Histogram
                    fields = line.split(",")
                    at = 1 if fields[0].startswith("Tag=") else 0
                    fields[at] = f"{second:.3f}"
                    out.write(",".join(fields) + "\n")
        print(f".hlog: {os.path.getsize(log) / (1 << 20):.0f} MiB, {args.seconds} intervals of "
              f"{len(intervals)} tags")
        rss_kb, seconds = measured_import(args.perflab, log, os.path.join(tmp, "runs.db"))
        rss_mb = rss_kb / 1024
        print(f"max RSS: {rss_mb:.1f} MiB (bar {RSS_BAR_MB} MB: "
              f"{'met' if rss_kb * 1024 < RSS_BAR_MB * 1e6 else 'MISSED'})")
        print(f"time: {seconds:.1f} s")
        print(f"intervals/s: {args.seconds / seconds:,.0f}")
        print(f"database: {os.path.getsize(os.path.join(tmp, 'runs.db')) / (1 << 20):.1f} MiB")


if __name__ == "__main__":
    main()
