// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace perflab {

enum class RunKind { cache, http };

struct CacheLoad;

// One step of the schedule. Open model when rate > 0 (ops or requests per second, a linear
// ramp to rate_to when set); closed model otherwise (concurrency connections that each send,
// wait, repeat). A phase ends after duration_s, or after ops operations, whichever is first.
struct Phase {
    double duration_s = 0;  // 0: no time limit (ops must be set)
    uint64_t ops = 0;       // 0: no count limit
    double rate = 0;
    std::optional<double> rate_to;
    int concurrency = 0;  // closed model: connections; open model: connections to send on
    // A cache run's phase with a workload of its own (its "workload", "keys", "value_size"...
    // over the cache section's); null: the section's. Shared, never changed once parsed.
    std::shared_ptr<const CacheLoad> cache;

    bool open() const { return rate > 0; }
    double rate_at(double t_s) const;  // planned rate t_s seconds into the phase
};

// memtier's key patterns: R (uniform), S (sequential), G (gaussian), and zipf.
enum class KeyDistribution { uniform, zipf, sequential, gaussian };
enum class CacheProtocol { text, binary, meta, redis };
enum class CacheWorkload { cache_aside, ratio, get_only, set_only };
enum class CacheDriver { libmemcached, async };

struct KeySpace {
    uint64_t count = 1'000'000;
    std::string prefix = "key:";
    KeyDistribution distribution = KeyDistribution::uniform;
    double zipf_s = 0.99;
    // gaussian: key numbers around `mean` (default the middle of the space) with this spread
    // (default a sixth of it), drawn again when outside [0, count).
    std::optional<double> mean;
    std::optional<double> stddev;

    bool operator==(const KeySpace&) const = default;
};

// Uniform in [min, max], or drawn from weighted sizes ({bytes, weight}: min and max are then
// the smallest and largest of them).
struct ValueSize {
    uint32_t min = 128;
    uint32_t max = 10240;
    std::vector<std::pair<uint32_t, uint32_t>> weighted;
    bool random_bytes = false;  // random bytes rather than a repeating, compressible text

    bool operator==(const ValueSize&) const = default;
};

// What a cache run's operations are: the workload over a key space and value sizes. The cache
// section gives the run's (cache_load); a phase may have its own (Phase::cache).
struct CacheLoad {
    CacheWorkload workload = CacheWorkload::cache_aside;
    uint32_t get_ratio = 10;
    uint32_t set_ratio = 1;
    KeySpace keys;
    ValueSize value_size;
    // The run sends cache.commands in place of the workload; the keys and values are theirs.
    bool commands = false;

    bool operator==(const CacheLoad&) const = default;
};

class ReplayFile;

// Recorded operations replayed in place of the workload, key space and value sizes. Each
// phase replays the file from its start: connection k of n sends ops k, k + n, ...
struct CacheReplay {
    std::string file;
    // 0 ("max"): as fast as the phase allows (its rate, or its connections' pace); otherwise,
    // in a file with timestamps, each op at its own time divided by speed.
    double speed = 1;
    // Loaded once by parse_spec and read by every thread of the run.
    std::shared_ptr<const ReplayFile> ops;

    bool timed() const;  // the file's timestamps set the schedule
};

struct Endpoint {
    std::string host;
    uint16_t port = 0;
    std::string text() const;  // host:port, [v6]:port
};

// protocol "redis" over TLS: the server's certificate is checked against `ca` (a PEM file;
// the system's CAs without it) and must name the server (or `server_name`), unless `verify`
// is false; `cert` and `key` are the client's own (Redis asks for one unless the server says
// tls-auth-clients no).
struct CacheTls {
    std::string ca, cert, key;
    std::string server_name;  // empty: the server's host as the spec gives it
    bool verify = true;

    bool operator==(const CacheTls&) const = default;
};

// protocol "redis": what each connection sends before its first op (not counted as ops).
struct RedisHandshake {
    int hello = 0;  // RESP version; 0: 3 when the server takes HELLO 3, else 2
    std::string user;
    std::string password;   // may name an environment variable as ${NAME}, resolved at start
    std::optional<int> db;  // SELECT
    // Redis Cluster: the servers are seeds; keys go to their slot's master (CLUSTER SLOTS).
    bool cluster = false;
    std::optional<CacheTls> tls;

    bool operator==(const RedisHandshake&) const = default;
};

// One of cache.commands (protocol "redis"): a command line whose words may hold templates
// (model/template_syntax.h: {{key}}, {{value}}, {{uniform A B}}...), sent in proportion to its
// weight; its figures are an op of their own (model/redis_commands.h names it).
struct RedisCommandSpec {
    std::string cmd;
    uint32_t weight = 1;
    std::string name;  // as given; empty: named after its command word

    bool operator==(const RedisCommandSpec&) const = default;
};

struct CacheSpec {
    std::vector<Endpoint> servers;
    CacheProtocol protocol = CacheProtocol::text;
    CacheWorkload workload = CacheWorkload::cache_aside;
    uint32_t get_ratio = 10;
    uint32_t set_ratio = 1;
    KeySpace keys;
    ValueSize value_size;
    uint32_t ttl_s = 0;
    bool prefill = false;
    // Absent: effective_driver() picks the faster one.
    std::optional<CacheDriver> driver;
    int threads = 0;   // async driver: worker threads (0: one per core)
    int pipeline = 1;  // async driver: requests in flight per connection
    int timeout_ms = 1000;
    // Keys per get: above 1, each get of the workload is one request for this many keys.
    uint32_t multiget = 1;
    std::optional<CacheReplay> replay;
    RedisHandshake redis;
    // Non-empty: these commands are the run's ops, in place of the workload.
    std::vector<RedisCommandSpec> commands;
};

// What a response must satisfy to count as a success, beside arriving whole. Each check is
// counted apart when it fails; `status`, when given, replaces the default 200..399.
struct HttpExpect {
    std::vector<int> status;
    std::optional<std::string> body_contains;
    std::optional<std::string> body_regex;   // ECMAScript syntax, searched anywhere in the body
    std::optional<std::string> json_path;    // "$.a.b[0]": the body is JSON with a value there
    std::optional<std::string> json_equals;  // ...equal to this JSON text (compact dump)
    std::optional<uint64_t> max_bytes;       // the body is at most this long

    bool operator==(const HttpExpect&) const = default;
};

// `url` (its path and query), header values and `body_template` may hold templates
// (model/template_syntax.h); `body` and `body_file` are sent as they are.
struct HttpTarget {
    std::string method = "GET";
    std::string url;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    std::string body_file;
    std::string body_template;
    std::string content_type;  // sent as Content-Type when not empty
    uint32_t weight = 1;       // its share of the requests: weight / the targets' sum
    std::optional<HttpExpect> expect;
};

// A value a session step takes from its response, for the later steps' {{var NAME}}: the
// string (or number) at a JSON path of the body, a response header's value, or the first
// group of a regular expression searched in the body. Exactly one of json, header and regex.
struct HttpCapture {
    std::string name;
    std::string json;
    std::string header;
    std::string regex;

    bool operator==(const HttpCapture&) const = default;
};

// One request of a session: a target, sent after a think time drawn uniformly from
// [think_min_ms, think_max_ms] (not counted in its latency).
struct SessionStep {
    size_t target = 0;
    uint32_t think_min_ms = 0;
    uint32_t think_max_ms = 0;
    std::optional<HttpCapture> capture;

    bool operator==(const SessionStep&) const = default;
};

struct HttpSpec {
    std::vector<HttpTarget> targets;
    // Empty: each request goes to a target drawn by weight. Otherwise every closed-model
    // connection is a virtual user sending these steps in order, again and again; a step's
    // figures are reported apart ("step 2: GET http://..."), in place of the targets'.
    std::vector<SessionStep> session;
    int threads = 2;
    int max_connections = 10000;
    int timeout_ms = 30000;
    int connect_timeout_ms = 5000;
    bool keepalive = true;
    bool tls_verify = true;
    // HTTP/2 (TLS with ALPN "h2", or h2c with prior knowledge for http:// URLs). A closed
    // phase's connections are then its concurrent streams, carried max_streams to a connection.
    bool http2 = false;
    int max_streams = 100;  // streams in flight per HTTP/2 connection (1..1000)
};

// What to sample beside the load; the probes library interprets these.
struct ProbeSpec {
    enum class Type { local, ssh, memcached, jvm, prometheus, process, redis };
    Type type = Type::local;
    // ssh: user@host:port; memcached: host:port; prometheus, process, redis: via
    std::string target;
    std::string key;                   // ssh: private key file (empty: ssh-agent)
    bool per_core = false;             // local/ssh: CPU per core as well
    int64_t pid = 0;                   // jvm, process: process id, or
    std::string match;                 // jvm, process: pgrep -f pattern
    std::string url;                   // prometheus: the exporter's http:// address
    std::vector<std::string> metrics;  // prometheus: selectors, as a Prometheus user writes them
    int interval_ms = 0;               // prometheus: between scrapes (0: the run's tick)
    int top = 5;                       // process: its hottest threads sampled by name
    std::string server;                // redis: host:port, as seen from `via` when given
    std::string password;              // redis: "${NAME}", its value read when the probe opens
};

// One machine that generates a share of the load; with agents in a spec, this machine is the
// controller and generates none unless one of them is `local`.
struct AgentSpec {
    bool local = false;
    std::string host;                 // user@host:port, reached over SSH
    std::string key;                  // private key file (empty: ssh-agent)
    std::string program = "perflab";  // the agent program on that host (default: on its PATH)
};

// What a run does when an agent is lost mid-run: go on without its share, or stop.
enum class AgentLoss { carry_on, stop };

// Service-level objectives a run is judged by: each limit a check, per phase and for the
// whole run, from the merged histograms; a check with no data fails.
struct SloSpec {
    std::map<std::string, double> latency_ms;    // "p50", "p90", "p99", "p999", "max" → ms
    std::optional<double> error_rate;            // most errors / ops, 0..1
    std::optional<double> check_failure_rate;    // http: most failed-check requests / requests
    std::optional<double> min_success;           // least successful / ops, 0..1
    std::optional<double> min_hit_rate;          // cache runs: least hits / gets
    std::optional<double> min_throughput_ratio;  // open model: least achieved / planned
    std::optional<uint64_t> max_full_gcs;        // from the run's JVM probes
    double window_s = 10;                        // the live check's sliding window
    bool abort = false;                          // stop the run at a live window's breach
};

// A search for the highest open-model rate that meets the spec's slo: the run's phases are
// steps it generates, each judged before the next rate is chosen.
struct SearchSpec {
    double rate_from = 0;     // the first step's rate (ops/s)
    double rate_to = 0;       // no step goes above it
    double step_s = 20;       // each step's length
    double precision = 0.05;  // bisect until first failing / max passing rate ≤ 1 + precision
    double warmup_s = 0;      // a phase at rate_from before the first step, not judged
    int concurrency = 0;      // connections to send on (0: the engine's default bound)
    double settle_s = 0;      // idle between steps, at most, until the old gen stops falling
    // The closing hold at max_rate (stepping down by precision until one passes); nullopt:
    // 3 × step_s, 0: no hold.
    std::optional<double> confirm_s;
};

struct RunSpec {
    std::string name;
    RunKind kind = RunKind::cache;
    int tick_ms = 1000;
    std::vector<std::string> tags;
    std::string notes;
    std::vector<Phase> phases;
    std::optional<CacheSpec> cache;
    std::optional<HttpSpec> http;
    std::vector<ProbeSpec> probes;
    // Every random stream of the run (keys, value sizes) derives from it and the worker's or
    // connection's index. Absent: drawn when the run starts (with_seed), and stored with it.
    std::optional<uint64_t> seed;
    std::optional<SloSpec> slo;
    std::optional<SearchSpec> search;  // with it, `phases` is empty: the search makes them
    std::vector<AgentSpec> agents;     // empty: this machine generates the load
    AgentLoss on_agent_loss = AgentLoss::carry_on;
    // false: a run that no server answered within its first three connect timeouts stops
    // then, failed. true: it waits, for a server that starts after the run.
    bool wait_for_server = false;
    // Set by `perflab agent`, never in a spec file: this run is agent `share` of `shares`.
    int share = 0;
    int shares = 1;

    double planned_duration_s() const;  // sum of timed phases; ops-only phases count 0
    int max_concurrency() const;
};

struct SpecError {
    std::string path;  // e.g. "phases[1].rate"
    std::string message;
    std::string text() const { return path.empty() ? message : path + ": " + message; }
};

// Either a valid spec, or every problem found, each naming its field.
struct SpecResult {
    std::optional<RunSpec> spec;
    std::vector<SpecError> errors;
    explicit operator bool() const { return spec.has_value(); }
    std::string error_text() const;  // one error per line
};

SpecResult parse_spec(const nlohmann::json& json);
// A run's spec as the store kept it: its data files (a replay file) are not read, so a stored
// run is shown whatever became of them; running it again reads them (parse_spec).
SpecResult parse_stored_spec(const nlohmann::json& json);
SpecResult parse_spec_text(const std::string& text);
SpecResult load_spec_file(const std::string& path);

// The normalised spec with every default spelled out; parse_spec(to_json(s)) gives s back.
nlohmann::json to_json(const RunSpec& spec);

const char* to_string(RunKind);
const char* to_string(KeyDistribution);
const char* to_string(CacheProtocol);
const char* to_string(CacheWorkload);
const char* to_string(CacheDriver);
const char* to_string(ProbeSpec::Type);
const char* to_string(AgentLoss);

std::optional<Endpoint> parse_endpoint(const std::string& text);

// The driver a cache run uses: the one named, else the faster one at every concurrency
// measured (tests/bench/cache_vs_memcaslap.py): async, unless the protocol is binary, which
// only the libmemcached driver speaks.
CacheDriver effective_driver(const CacheSpec& cache);

// The cache section's workload, and a phase's: its own, else the section's.
CacheLoad cache_load(const CacheSpec& cache);
CacheLoad phase_load(const CacheSpec& cache, const Phase& phase);

}  // namespace perflab
