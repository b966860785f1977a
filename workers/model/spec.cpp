// SPDX-License-Identifier: MIT
#include "spec.h"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>

#include "redis_commands.h"
#include "replay_file.h"
#include "session_spec.h"

namespace perflab {

const char* to_string(RunKind k) {
    return k == RunKind::cache ? "cache" : "http";
}
const char* to_string(KeyDistribution d) {
    static const char* names[] = {"uniform", "zipf", "sequential", "gaussian"};
    return names[int(d)];
}
const char* to_string(CacheProtocol p) {
    static const char* names[] = {"text", "binary", "meta", "redis"};
    return names[int(p)];
}
const char* to_string(CacheWorkload w) {
    static const char* names[] = {"cache-aside", "ratio", "get-only", "set-only"};
    return names[int(w)];
}
const char* to_string(CacheDriver d) {
    return d == CacheDriver::libmemcached ? "libmemcached" : "async";
}
const char* to_string(ProbeSpec::Type t) {
    static const char* names[] = {"local",      "ssh",     "memcached", "jvm",
                                  "prometheus", "process", "redis"};
    return names[int(t)];
}

const char* to_string(AgentLoss l) {
    return l == AgentLoss::stop ? "stop" : "continue";
}

CacheDriver effective_driver(const CacheSpec& cache) {
    if (cache.driver) return *cache.driver;
    return cache.protocol == CacheProtocol::binary ? CacheDriver::libmemcached : CacheDriver::async;
}

CacheLoad cache_load(const CacheSpec& c) {
    return {c.workload, c.get_ratio, c.set_ratio, c.keys, c.value_size, !c.commands.empty()};
}

CacheLoad phase_load(const CacheSpec& c, const Phase& p) {
    return p.cache ? *p.cache : cache_load(c);
}

bool CacheReplay::timed() const {
    return speed > 0 && ops && ops->timed();
}

double Phase::rate_at(double t_s) const {
    if (!rate_to || duration_s <= 0) return rate;
    const double f = std::clamp(t_s / duration_s, 0.0, 1.0);
    return rate + (*rate_to - rate) * f;
}

std::string Endpoint::text() const {
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::optional<Endpoint> parse_endpoint(const std::string& text) {
    Endpoint e;
    std::string port;
    if (!text.empty() && text.front() == '[') {
        const auto close = text.find(']');
        if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':')
            return std::nullopt;
        e.host = text.substr(1, close - 1);
        port = text.substr(close + 2);
    } else {
        const auto colon = text.rfind(':');
        if (colon == std::string::npos || text.find(':') != colon) return std::nullopt;
        e.host = text.substr(0, colon);
        port = text.substr(colon + 1);
    }
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (e.host.empty() || ec != std::errc() || end != port.data() + port.size() || value == 0 ||
        value > 65535)
        return std::nullopt;
    e.port = uint16_t(value);
    return e;
}

double RunSpec::planned_duration_s() const {
    double total = 0;
    for (const auto& p : phases)
        total += p.duration_s;
    return total;
}

int RunSpec::max_concurrency() const {
    int c = search ? search->concurrency : 0;
    for (const auto& p : phases)
        c = std::max(c, p.concurrency);
    return c;
}

namespace {

// A phase's keys as what differs from the section's. Inherited mean and stddev are dropped
// where the phase gives the count or distribution alone (spec_parse_phase_load.cpp): the count
// says so when only they differ.
nlohmann::json keys_override_json(const KeySpace& k, const KeySpace& base) {
    nlohmann::json j = nlohmann::json::object();
    const bool dropped = (base.mean && !k.mean) || (base.stddev && !k.stddev);
    if (k.count != base.count || dropped) j["count"] = k.count;
    if (k.prefix != base.prefix) j["prefix"] = k.prefix;
    if (k.distribution != base.distribution) j["distribution"] = to_string(k.distribution);
    if (k.zipf_s != base.zipf_s) j["zipf_s"] = k.zipf_s;
    if (k.mean && k.mean != base.mean) j["mean"] = *k.mean;
    if (k.stddev && k.stddev != base.stddev) j["stddev"] = *k.stddev;
    return j;
}

nlohmann::json sizes_override_json(const ValueSize& v, const ValueSize& base) {
    nlohmann::json j = nlohmann::json::object();
    if (!v.weighted.empty() && v.weighted != base.weighted)
        j["weights"] = v.weighted;
    else if (v.weighted.empty() &&
             (v.min != base.min || v.max != base.max || !base.weighted.empty()))
        j = {{"min", v.min}, {"max", v.max}};
    if (v.random_bytes != base.random_bytes)
        j["bytes"] = v.random_bytes ? "random" : "compressible";
    return j;
}

nlohmann::json phase_json(const Phase& p, const CacheSpec* cache) {
    nlohmann::json j = nlohmann::json::object();
    if (p.duration_s > 0) j["duration_s"] = p.duration_s;
    if (p.ops > 0) j["ops"] = p.ops;
    if (p.rate > 0) j["rate"] = p.rate;
    if (p.rate_to) j["rate_to"] = *p.rate_to;
    if (p.concurrency > 0) j["concurrency"] = p.concurrency;
    if (!p.cache || !cache) return j;
    const CacheLoad& own = *p.cache;
    const CacheLoad base = cache_load(*cache);
    if (own.workload != base.workload) j["workload"] = to_string(own.workload);
    if (own.get_ratio != base.get_ratio) j["get_ratio"] = own.get_ratio;
    if (own.set_ratio != base.set_ratio) j["set_ratio"] = own.set_ratio;
    if (auto k = keys_override_json(own.keys, base.keys); !k.empty()) j["keys"] = k;
    if (auto v = sizes_override_json(own.value_size, base.value_size); !v.empty())
        j["value_size"] = v;
    return j;
}

nlohmann::json cache_json(const CacheSpec& c) {
    nlohmann::json servers = nlohmann::json::array();
    for (const auto& s : c.servers)
        servers.push_back(s.text());
    nlohmann::json j = {
        {"servers", servers},
        {"protocol", to_string(c.protocol)},
        {"workload", to_string(c.workload)},
        {"get_ratio", c.get_ratio},
        {"set_ratio", c.set_ratio},
        {"keys",
         [&] {
             nlohmann::json keys = {{"count", c.keys.count},
                                    {"prefix", c.keys.prefix},
                                    {"distribution", to_string(c.keys.distribution)},
                                    {"zipf_s", c.keys.zipf_s}};
             if (c.keys.mean) keys["mean"] = *c.keys.mean;
             if (c.keys.stddev) keys["stddev"] = *c.keys.stddev;
             return keys;
         }()},
        {"value_size",
         [&] {
             nlohmann::json size = {{"min", c.value_size.min}, {"max", c.value_size.max}};
             if (!c.value_size.weighted.empty()) size = {{"weights", c.value_size.weighted}};
             size["bytes"] = c.value_size.random_bytes ? "random" : "compressible";
             return size;
         }()},
        {"ttl_s", c.ttl_s},
        {"prefill", c.prefill},
        {"driver", to_string(effective_driver(c))},
        {"threads", c.threads},
        {"pipeline", c.pipeline},
        {"timeout_ms", c.timeout_ms}};
    if (c.multiget > 1) j["multiget"] = c.multiget;
    if (c.replay) {
        j["replay"] = {{"file", c.replay->file}};
        if (c.replay->speed > 0)
            j["replay"]["speed"] = c.replay->speed;
        else
            j["replay"]["speed"] = "max";
    }
    if (c.protocol == CacheProtocol::redis) {
        auto& redis = j["redis"] = nlohmann::json::object();
        if (c.redis.hello) redis["hello"] = c.redis.hello;
        if (!c.redis.user.empty()) redis["user"] = c.redis.user;
        if (!c.redis.password.empty()) redis["password"] = c.redis.password;
        if (c.redis.db) redis["db"] = *c.redis.db;
        if (c.redis.cluster) redis["cluster"] = true;
        if (const auto& t = c.redis.tls) {
            auto& tls = redis["tls"] = nlohmann::json::object();
            if (!t->ca.empty()) tls["ca"] = t->ca;
            if (!t->cert.empty()) tls["cert"] = t->cert;
            if (!t->key.empty()) tls["key"] = t->key;
            if (!t->server_name.empty()) tls["server_name"] = t->server_name;
            if (!t->verify) tls["verify"] = false;
            if (tls.empty()) tls = true;
        }
    }
    // The commands replace the workload, which the spec then does not give.
    if (!c.commands.empty()) {
        j["commands"] = commands_json(c.commands);
        for (const char* key : {"workload", "get_ratio", "set_ratio"})
            j.erase(key);
    }
    return j;
}

nlohmann::json expect_json(const HttpExpect& e) {
    nlohmann::json j = nlohmann::json::object();
    if (!e.status.empty()) j["status"] = e.status;
    if (e.body_contains) j["body_contains"] = *e.body_contains;
    if (e.body_regex) j["body_regex"] = *e.body_regex;
    if (e.json_path) {
        j["json"] = {{"path", *e.json_path}};
        if (e.json_equals) j["json"]["equals"] = nlohmann::json::parse(*e.json_equals);
    }
    if (e.max_bytes) j["max_bytes"] = *e.max_bytes;
    return j;
}

nlohmann::json http_json(const HttpSpec& h) {
    nlohmann::json targets = nlohmann::json::array();
    for (const auto& t : h.targets) {
        nlohmann::json j = {{"method", t.method}, {"url", t.url}};
        if (!t.headers.empty()) {
            j["headers"] = nlohmann::json::object();
            for (const auto& [k, v] : t.headers)
                j["headers"][k] = v;
        }
        if (!t.body.empty()) j["body"] = t.body;
        if (!t.body_file.empty()) j["body_file"] = t.body_file;
        if (!t.body_template.empty()) j["body_template"] = t.body_template;
        if (!t.content_type.empty()) j["content_type"] = t.content_type;
        if (t.weight != 1) j["weight"] = t.weight;
        if (t.expect) j["expect"] = expect_json(*t.expect);
        targets.push_back(j);
    }
    nlohmann::json j = {{"targets", targets},
                        {"threads", h.threads},
                        {"max_connections", h.max_connections},
                        {"timeout_ms", h.timeout_ms},
                        {"connect_timeout_ms", h.connect_timeout_ms},
                        {"keepalive", h.keepalive},
                        {"tls_verify", h.tls_verify},
                        {"http2", h.http2},
                        {"max_streams", h.max_streams}};
    if (!h.session.empty()) j["session"] = session_json(h.session);
    return j;
}

nlohmann::json agent_json(const AgentSpec& a) {
    if (a.local) return {{"local", true}};
    nlohmann::json j = {{"host", a.host}, {"perflab", a.program}};
    if (!a.key.empty()) j["key"] = a.key;
    return j;
}

nlohmann::json probe_json(const ProbeSpec& p) {
    nlohmann::json j = nlohmann::json::object();
    switch (p.type) {
        case ProbeSpec::Type::local:
            j["local"] = true;
            break;
        case ProbeSpec::Type::ssh:
            j["ssh"] = p.target;
            break;
        case ProbeSpec::Type::memcached:
            j["memcached"] = p.target;
            break;
        case ProbeSpec::Type::jvm: {
            nlohmann::json jvm = nlohmann::json::object();
            if (!p.target.empty()) jvm["ssh"] = p.target;
            if (p.pid) jvm["pid"] = p.pid;
            if (!p.match.empty()) jvm["match"] = p.match;
            if (!p.key.empty()) jvm["key"] = p.key;
            j["jvm"] = jvm;
            return j;
        }
        case ProbeSpec::Type::prometheus:
            j["prometheus"] = p.url;
            j["metrics"] = p.metrics;
            if (p.interval_ms) j["interval_ms"] = p.interval_ms;
            if (!p.target.empty()) j["via"] = p.target;
            if (!p.key.empty()) j["key"] = p.key;
            return j;
        case ProbeSpec::Type::process: {
            nlohmann::json process = nlohmann::json::object();
            if (p.pid) process["pid"] = p.pid;
            if (!p.match.empty()) process["match"] = p.match;
            process["top"] = p.top;
            j["process"] = process;
            if (!p.target.empty()) j["via"] = p.target;
            if (!p.key.empty()) j["key"] = p.key;
            return j;
        }
        case ProbeSpec::Type::redis:
            j["redis"] = p.server;
            if (!p.password.empty()) j["password"] = p.password;
            if (!p.target.empty()) j["via"] = p.target;
            if (!p.key.empty()) j["key"] = p.key;
            return j;
    }
    if (!p.key.empty()) j["key"] = p.key;
    if (p.per_core) j["per_core"] = true;
    return j;
}

nlohmann::json slo_json(const SloSpec& slo) {
    nlohmann::json j = {{"window_s", slo.window_s}, {"abort", slo.abort}};
    if (!slo.latency_ms.empty()) j["latency_ms"] = slo.latency_ms;
    if (slo.error_rate) j["error_rate"] = *slo.error_rate;
    if (slo.check_failure_rate) j["check_failure_rate"] = *slo.check_failure_rate;
    if (slo.min_success) j["min_success"] = *slo.min_success;
    if (slo.min_hit_rate) j["min_hit_rate"] = *slo.min_hit_rate;
    if (slo.min_throughput_ratio) j["min_throughput_ratio"] = *slo.min_throughput_ratio;
    if (slo.max_full_gcs) j["max_full_gcs"] = *slo.max_full_gcs;
    return j;
}

nlohmann::json search_json(const SearchSpec& s) {
    nlohmann::json j = {{"rate_from", s.rate_from}, {"rate_to", s.rate_to},
                        {"step_s", s.step_s},       {"precision", s.precision},
                        {"warmup_s", s.warmup_s},   {"concurrency", s.concurrency},
                        {"settle_s", s.settle_s}};
    // Unset, the hold follows step_s: a spec edited later keeps its 3 × step_s.
    if (s.confirm_s) j["confirm_s"] = *s.confirm_s;
    return j;
}

}  // namespace

nlohmann::json to_json(const RunSpec& s) {
    nlohmann::json phases = nlohmann::json::array();
    for (const auto& p : s.phases)
        phases.push_back(phase_json(p, s.cache ? &*s.cache : nullptr));
    nlohmann::json j = {{"name", s.name}, {"kind", to_string(s.kind)}, {"tick_ms", s.tick_ms},
                        {"tags", s.tags}, {"notes", s.notes},          {"phases", phases}};
    if (s.seed) j["seed"] = *s.seed;
    if (s.wait_for_server) j["wait_for_server"] = true;
    if (s.cache) j["cache"] = cache_json(*s.cache);
    if (s.http) j["http"] = http_json(*s.http);
    if (s.slo) j["slo"] = slo_json(*s.slo);
    if (s.search) {
        j["search"] = search_json(*s.search);
        j.erase("phases");
    }
    if (!s.probes.empty()) {
        j["probes"] = nlohmann::json::array();
        for (const auto& p : s.probes)
            j["probes"].push_back(probe_json(p));
    }
    if (!s.agents.empty()) {
        j["agents"] = nlohmann::json::array();
        for (const auto& a : s.agents)
            j["agents"].push_back(agent_json(a));
        j["on_agent_loss"] = to_string(s.on_agent_loss);
    }
    return j;
}

}  // namespace perflab
