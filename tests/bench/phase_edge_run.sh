#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The run issue 12 was found with: open model 50/s then 100/s against a server that always
# answers in 300 ms, 250 ms ticks. Prints perflab's tick lines and report, then each tick's
# p99 and late sends from `perflab run --json`. Usage: phase_edge_run.sh [PERFLAB_BINARY]
set -euo pipefail
perflab=${1:-"$(dirname "$0")/../../build/ci/app/perflab"}
dir=$(mktemp -d)
trap 'kill "$server" 2>/dev/null; rm -rf "$dir"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 - "$port" <<'PY' &
import http.server, socketserver, sys, time
class Slow(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        time.sleep(0.3)
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")
    def log_message(self, *args):
        pass
class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 512
Server(("127.0.0.1", int(sys.argv[1])), Slow).serve_forever()
PY
server=$!
for _ in $(seq 50); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break; sleep 0.1; done
cat > "$dir/spec.json" <<JSON
{"name": "phase edge", "kind": "http", "tick_ms": 250,
 "phases": [{"duration_s": 5, "rate": 50}, {"duration_s": 5, "rate": 100}],
 "http": {"targets": [{"url": "http://127.0.0.1:$port/"}], "threads": 1, "max_connections": 200}}
JSON
"$perflab" run "$dir/spec.json" --no-store
