// SPDX-License-Identifier: MIT
#include <algorithm>
#include <fstream>
#include <sstream>

#include "json_reader.h"
#include "prom_selector.h"
#include "replay_file.h"
#include "secrets.h"
#include "session_spec.h"
#include "spec.h"
#include "spec_parse_sections.h"

namespace perflab {

namespace spec_detail {

std::string index_path(const std::string& base, size_t i) {
    return base + "[" + std::to_string(i) + "]";
}

std::optional<Endpoint> parse_server(const nlohmann::json& json, const std::string& path,
                                     std::vector<SpecError>& errors) {
    if (!json.is_string()) {
        errors.push_back({path, "expected \"host:port\", got " + json_type_name(json)});
        return std::nullopt;
    }
    auto e = parse_endpoint(json.get<std::string>());
    if (!e) errors.push_back({path, "\"" + json.get<std::string>() + "\" is not host:port"});
    return e;
}

}  // namespace spec_detail

namespace {

using spec_detail::index_path;
using spec_detail::parse_cache;
using spec_detail::parse_http;
using spec_detail::parse_phase_loads;
using spec_detail::parse_server;

constexpr int64_t kMaxConcurrency = 100'000;

Phase parse_phase(const nlohmann::json& json, const std::string& path,
                  std::vector<SpecError>& errors) {
    JsonReader r(json, path, errors);
    Phase p;
    if (!r.is_object()) return p;
    // A cache run's phase may have a workload of its own: parse_phase_loads reads those keys.
    r.allow_only({"duration_s", "ops", "rate", "rate_to", "concurrency", "workload", "get_ratio",
                  "set_ratio", "keys", "value_size", "commands"});
    if (auto d = r.number("duration_s")) {
        if (*d <= 0)
            r.error(r.path("duration_s"), "must be > 0");
        else
            p.duration_s = *d;
    }
    if (auto n = r.count("ops", 1, UINT64_MAX)) p.ops = *n;
    if (auto v = r.number("rate")) {
        if (*v <= 0)
            r.error(r.path("rate"), "must be > 0");
        else
            p.rate = *v;
    }
    if (auto v = r.number("rate_to")) {
        if (*v <= 0)
            r.error(r.path("rate_to"), "must be > 0");
        else if (!r.has("rate"))
            r.error(r.path("rate_to"), "needs \"rate\", the ramp's start");
        else
            p.rate_to = *v;
    }
    if (auto c = r.integer("concurrency", 1, kMaxConcurrency)) p.concurrency = int(*c);
    if (!r.has("duration_s") && !r.has("ops"))
        r.error(path, "needs \"duration_s\" or \"ops\" to end");
    if (p.rate_to && p.duration_s <= 0 && r.has("ops") && !r.has("duration_s"))
        r.error(r.path("rate_to"), "a ramp needs \"duration_s\"");
    if (!r.has("rate") && !r.has("concurrency"))
        r.error(path, "needs \"rate\" (open model) or \"concurrency\" (closed model)");
    return p;
}

// A timed replay sends at its file's times: its phases give connections, not a rate.
void check_replay_phases(const RunSpec& s, std::vector<SpecError>& errors) {
    if (!s.cache || !s.cache->replay || !s.cache->replay->timed()) return;
    if (s.search)
        errors.push_back({"cache.replay.speed",
                          "a search sets the rate: replay a file with timestamps at \"max\""});
    for (size_t i = 0; i < s.phases.size(); ++i)
        if (s.phases[i].open())
            errors.push_back(
                {index_path("phases", i) + ".rate",
                 "a replay with timestamps sends at the file's times: give the phase "
                 "\"concurrency\" (its connections), or replay at \"speed\": \"max\""});
}

// The host a probe reaches its target through, over SSH.
void parse_via(JsonReader& r, ProbeSpec& p) {
    if (auto v = r.string("via")) {
        p.target = *v;
        if (p.target.find('@') == std::string::npos)
            r.error(r.path("via"), "expected \"user@host[:port]\"");
    }
    if (auto v = r.string("key")) p.key = *v;
}

void parse_prometheus_probe(JsonReader& r, ProbeSpec& p) {
    p.type = ProbeSpec::Type::prometheus;
    if (auto v = r.string("prometheus")) {
        p.url = *v;
        if (!p.url.starts_with("http://"))
            r.error(r.path("prometheus"), "expected an http:// address, got \"" + p.url + "\"");
    }
    if (auto v = r.strings("metrics")) p.metrics = *v;
    if (!r.has("metrics") || p.metrics.empty())
        r.error(r.path("metrics"), "needs at least one selector, e.g. \"node_load1\"");
    for (size_t i = 0; i < p.metrics.size(); ++i)
        if (auto sel = parse_prom_selector(p.metrics[i]); sel.index() == 1)
            r.error(index_path(r.path("metrics"), i),
                    "bad selector \"" + p.metrics[i] + "\": " + std::get<1>(sel));
    if (auto v = r.integer("interval_ms", 100, 3600000)) p.interval_ms = int(*v);
    parse_via(r, p);
    if (r.has("per_core")) r.error(r.path("per_core"), "is for a host probe");
}

void parse_process_probe(JsonReader& r, ProbeSpec& p, std::vector<SpecError>& errors) {
    p.type = ProbeSpec::Type::process;
    JsonReader pr(*r.child("process"), r.path("process"), errors);
    if (!pr.is_object()) {
        r.error(r.path("process"), "expected an object: {\"pid\": N} or {\"match\": \"java\"}");
        return;
    }
    pr.allow_only({"pid", "match", "top"});
    if (auto v = pr.integer("pid", 1, INT32_MAX)) p.pid = *v;
    if (auto v = pr.string("match")) {
        p.match = *v;
        if (p.match.empty()) pr.error(pr.path("match"), "must not be empty");
    }
    if (auto v = pr.integer("top", 1, 100)) p.top = int(*v);
    if (pr.has("pid") == pr.has("match"))
        pr.error(r.path("process"), "needs exactly one of \"pid\" and \"match\"");
    parse_via(r, p);
    for (const char* key : {"per_core", "metrics", "interval_ms"})
        if (r.has(key)) r.error(r.path(key), "is not for a \"process\" probe");
}

void parse_redis_probe(JsonReader& r, ProbeSpec& p, std::vector<SpecError>& errors) {
    p.type = ProbeSpec::Type::redis;
    if (const auto* s = r.child("redis"))
        if (auto e = parse_server(*s, r.path("redis"), errors)) p.server = e->text();
    // As the cache's (secrets.h): a literal, masked when written down, or ${NAME} references.
    if (auto v = r.string("password")) {
        if (auto e = redis_password_error(*v); !e.empty())
            r.error(r.path("password"), e);
        else
            p.password = *v;
    }
    parse_via(r, p);
    for (const char* key : {"per_core", "metrics", "interval_ms"})
        if (r.has(key)) r.error(r.path(key), "is not for a \"redis\" probe");
}

ProbeSpec parse_probe(const nlohmann::json& json, const std::string& path,
                      std::vector<SpecError>& errors) {
    JsonReader r(json, path, errors);
    ProbeSpec p;
    if (!r.is_object()) return p;
    r.allow_only({"local", "ssh", "key", "per_core", "memcached", "jvm", "prometheus", "metrics",
                  "interval_ms", "via", "process", "redis", "password"});
    const int kinds = int(r.has("local")) + int(r.has("ssh") && !r.has("jvm")) +
                      int(r.has("memcached")) + int(r.has("jvm")) + int(r.has("prometheus")) +
                      int(r.has("process")) + int(r.has("redis"));
    if (kinds != 1) {
        r.error(path,
                "needs exactly one of \"local\", \"ssh\", \"memcached\", \"jvm\", "
                "\"prometheus\", \"process\", \"redis\"");
        return p;
    }
    if (r.has("redis")) {
        parse_redis_probe(r, p, errors);
        return p;
    }
    if (r.has("password")) r.error(r.path("password"), "is for a \"redis\" probe");
    if (r.has("prometheus")) {
        parse_prometheus_probe(r, p);
        return p;
    }
    if (r.has("process")) {
        parse_process_probe(r, p, errors);
        return p;
    }
    for (const char* key : {"metrics", "interval_ms", "via"})
        if (r.has(key))
            r.error(r.path(key), "is for a \"prometheus\", \"process\" or \"redis\" probe");
    if (auto v = r.boolean("per_core")) p.per_core = *v;
    if (auto v = r.string("key")) p.key = *v;
    if (r.has("local")) {
        p.type = ProbeSpec::Type::local;
        if (auto v = r.boolean("local"); v && !*v) r.error(r.path("local"), "must be true");
    } else if (r.has("memcached")) {
        p.type = ProbeSpec::Type::memcached;
        if (const auto* m = r.child("memcached"))
            if (auto e = parse_server(*m, r.path("memcached"), errors)) p.target = e->text();
    } else if (r.has("jvm")) {
        p.type = ProbeSpec::Type::jvm;
        JsonReader jr(*r.child("jvm"), r.path("jvm"), errors);
        jr.allow_only({"ssh", "key", "pid", "match"});
        if (auto v = jr.string("ssh")) p.target = *v;
        if (auto v = jr.string("key")) p.key = *v;
        if (auto v = jr.integer("pid", 1, INT32_MAX)) p.pid = *v;
        if (auto v = jr.string("match")) p.match = *v;
        if (jr.is_object() && jr.has("pid") == jr.has("match"))
            jr.error(r.path("jvm"), "needs exactly one of \"pid\" and \"match\"");
    } else {
        p.type = ProbeSpec::Type::ssh;
        if (auto v = r.string("ssh")) p.target = *v;
    }
    if (p.type == ProbeSpec::Type::ssh && p.target.find('@') == std::string::npos)
        r.error(r.path("ssh"), "expected \"user@host[:port]\"");
    return p;
}

AgentSpec parse_agent(const nlohmann::json& json, const std::string& path,
                      std::vector<SpecError>& errors) {
    JsonReader r(json, path, errors);
    AgentSpec a;
    if (!r.is_object()) return a;
    r.allow_only({"local", "host", "key", "perflab"});
    if (r.has("local") == r.has("host")) {
        r.error(path, "needs exactly one of \"host\" and \"local\"");
        return a;
    }
    if (r.has("local")) {
        if (r.has("key") || r.has("perflab"))
            r.error(path, "a local agent takes no \"key\" or \"perflab\"");
        if (auto v = r.boolean("local"); v && !*v) r.error(r.path("local"), "must be true");
        a.local = true;
        return a;
    }
    if (auto v = r.string("host")) a.host = *v;
    if (r.has("host") && a.host.find('@') == std::string::npos)
        r.error(r.path("host"), "expected \"user@host[:port]\"");
    if (auto v = r.string("key")) a.key = *v;
    if (auto v = r.string("perflab")) a.program = *v;
    if (a.program.empty()) r.error(r.path("perflab"), "must not be empty");
    return a;
}

// Agents split each phase's connections among themselves, so every agent needs one.
void parse_agents(const nlohmann::json& json, RunSpec& s, std::vector<SpecError>& errors) {
    if (!json.is_array() || json.empty()) {
        errors.push_back({"agents", "expected a non-empty array of agents"});
        return;
    }
    for (size_t i = 0; i < json.size(); ++i)
        s.agents.push_back(parse_agent(json[i], index_path("agents", i), errors));
    if (std::count_if(s.agents.begin(), s.agents.end(), [](auto& a) { return a.local; }) > 1)
        errors.push_back({"agents", "at most one local agent"});
    if (s.search && s.search->concurrency > 0 && size_t(s.search->concurrency) < s.agents.size())
        errors.push_back({"search.concurrency", "fewer connections than agents (" +
                                                    std::to_string(s.agents.size()) +
                                                    "): each agent needs one"});
    for (size_t i = 0; i < s.phases.size(); ++i) {
        const Phase& p = s.phases[i];
        if (!p.open() && p.concurrency > 0 && size_t(p.concurrency) < s.agents.size())
            errors.push_back({index_path("phases", i) + ".concurrency",
                              "fewer connections than agents (" + std::to_string(s.agents.size()) +
                                  "): each agent needs one"});
        if (!p.open() && p.ops > 0 && p.ops < s.agents.size())
            errors.push_back({index_path("phases", i) + ".ops",
                              "fewer ops than agents (" + std::to_string(s.agents.size()) +
                                  "): each agent needs one"});
    }
}

// Checked against the rest of the spec: a check that could never have data is refused here
// rather than failing every run as "no data".
SloSpec parse_slo(const nlohmann::json& json, const RunSpec& spec, std::vector<SpecError>& errors) {
    SloSpec slo;
    JsonReader r(json, "slo", errors);
    if (!r.is_object()) {
        r.error("slo", "expected an object");
        return slo;
    }
    r.allow_only({"latency_ms", "error_rate", "check_failure_rate", "min_success", "min_hit_rate",
                  "min_throughput_ratio", "max_full_gcs", "window_s", "abort"});
    if (const auto* l = r.child("latency_ms")) {
        JsonReader lr(*l, "slo.latency_ms", errors);
        if (!lr.is_object()) {
            r.error(r.path("latency_ms"), "expected an object such as {\"p99\": 100}");
        } else {
            lr.allow_only({"p50", "p90", "p95", "p99", "p999", "max"});
            for (const char* key : {"p50", "p90", "p95", "p99", "p999", "max"}) {
                const auto v = lr.number(key);
                if (!v) continue;
                if (*v <= 0)
                    lr.error(lr.path(key), "must be > 0 (milliseconds)");
                else
                    slo.latency_ms[key] = *v;
            }
        }
    }
    const auto fraction = [&](const char* key) -> std::optional<double> {
        const auto v = r.number(key);
        if (v && (*v < 0 || *v > 1)) {
            r.error(r.path(key), "must be a fraction from 0 to 1");
            return std::nullopt;
        }
        return v;
    };
    slo.error_rate = fraction("error_rate");
    slo.check_failure_rate = fraction("check_failure_rate");
    if (slo.check_failure_rate && spec.kind != RunKind::http)
        r.error(r.path("check_failure_rate"), "only an http run checks its responses");
    slo.min_success = fraction("min_success");
    slo.min_hit_rate = fraction("min_hit_rate");
    if (auto v = r.number("min_throughput_ratio")) {
        if (*v <= 0 || *v > 1)
            r.error(r.path("min_throughput_ratio"), "must be a fraction above 0, at most 1");
        else
            slo.min_throughput_ratio = v;
    }
    if (auto v = r.count("max_full_gcs", 0, UINT32_MAX)) slo.max_full_gcs = *v;
    if (auto v = r.number("window_s")) {
        if (*v < 1)
            r.error(r.path("window_s"), "must be at least 1 (seconds)");
        else
            slo.window_s = *v;
    }
    if (auto v = r.boolean("abort")) slo.abort = *v;
    if (slo.abort && spec.search)
        r.error(r.path("abort"), "a search judges each step itself: remove \"abort\"");
    if (slo.min_hit_rate && spec.kind != RunKind::cache)
        r.error(r.path("min_hit_rate"), "only a cache run has a hit rate");
    bool open = spec.search.has_value();
    for (const auto& p : spec.phases)
        open = open || p.open();
    if (slo.min_throughput_ratio && !open)
        r.error(r.path("min_throughput_ratio"), "needs an open-model phase (one with a rate)");
    bool jvm = false;
    for (const auto& p : spec.probes)
        jvm = jvm || p.type == ProbeSpec::Type::jvm;
    if (slo.max_full_gcs && !jvm)
        r.error(r.path("max_full_gcs"), "needs a jvm probe in \"probes\"");
    return slo;
}

SearchSpec parse_search(const nlohmann::json& json, std::vector<SpecError>& errors) {
    SearchSpec s;
    JsonReader r(json, "search", errors);
    if (!r.is_object()) {
        r.error("search", "expected an object such as {\"rate_from\": 100, \"rate_to\": 20000}");
        return s;
    }
    r.allow_only({"rate_from", "rate_to", "step_s", "precision", "warmup_s", "concurrency",
                  "settle_s", "confirm_s"});
    const auto positive = [&](const char* key, double& out, bool required) {
        const auto v = r.number(key);
        if (!v) {
            if (required && !r.has(key)) r.error(r.path(key), "required (ops per second)");
            return;
        }
        if (*v <= 0)
            r.error(r.path(key), "must be > 0");
        else
            out = *v;
    };
    positive("rate_from", s.rate_from, true);
    positive("rate_to", s.rate_to, true);
    positive("step_s", s.step_s, false);
    if (s.rate_from > 0 && s.rate_to > 0 && s.rate_to <= s.rate_from)
        r.error(r.path("rate_to"), "must be above rate_from");
    if (auto v = r.number("precision")) {
        if (*v < 0.001 || *v >= 1)
            r.error(r.path("precision"), "must be a fraction from 0.001 to below 1");
        else
            s.precision = *v;
    }
    if (auto v = r.number("warmup_s")) {
        if (*v < 0)
            r.error(r.path("warmup_s"), "must be ≥ 0 (seconds)");
        else
            s.warmup_s = *v;
    }
    if (auto v = r.integer("concurrency", 0, 1'000'000)) s.concurrency = int(*v);
    if (auto v = r.number("settle_s")) {
        if (*v < 0)
            r.error(r.path("settle_s"), "must be ≥ 0 (seconds idle between steps; 0: none)");
        else
            s.settle_s = *v;
    }
    if (auto v = r.number("confirm_s")) {
        if (*v < 0)
            r.error(r.path("confirm_s"), "must be ≥ 0 (seconds the answer is held; 0: no hold)");
        else
            s.confirm_s = *v;
    }
    return s;
}

}  // namespace

std::string SpecResult::error_text() const {
    std::string out;
    for (const auto& e : errors)
        out += e.text() + "\n";
    return out;
}

namespace {

SpecResult parse_spec_as(const nlohmann::json& json, bool read_files) {
    SpecResult result;
    auto& errors = result.errors;
    JsonReader r(json, "", errors);
    if (!r.is_object()) return result;
    r.allow_only({"name", "kind", "tick_ms", "tags", "notes", "phases", "cache", "http", "probes",
                  "seed", "slo", "search", "agents", "on_agent_loss", "wait_for_server",
                  "imported_from"});
    // What an imported run's stored spec keeps of the other tool's configuration: read by
    // people and by compare, not by a run, so the spec runs again as it is.
    if (const auto* v = r.child("imported_from"); v && !v->is_object())
        r.error("imported_from", "an object (what an import kept of the tool's configuration)");
    RunSpec s;
    if (auto v = r.string("name")) s.name = *v;
    if (auto v = r.choice("kind", {"cache", "http"}))
        s.kind = RunKind(*v);
    else if (!r.has("kind"))
        r.error("kind", "required (\"cache\" or \"http\")");
    if (auto v = r.integer("tick_ms", 10, 600'000)) s.tick_ms = int(*v);
    if (auto v = r.strings("tags")) s.tags = *v;
    if (auto v = r.string("notes")) s.notes = *v;
    if (auto v = r.boolean("wait_for_server")) s.wait_for_server = *v;
    if (const auto* v = r.child("seed")) {
        // Unsigned 64-bit, whole: a seed is an identity, so nothing may round it.
        if (v->is_number_unsigned() || (v->is_number_integer() && v->get<int64_t>() >= 0))
            s.seed = v->get<uint64_t>();
        else
            r.error("seed", "expected an unsigned 64-bit integer, got " + v->dump());
    }

    const auto* phases = r.child("phases");
    if (const auto* v = r.child("search")) {
        s.search = parse_search(*v, errors);
        if (phases) r.error("phases", "a search run generates its phases: remove \"phases\"");
        if (!r.has("slo"))
            r.error("slo", "required with \"search\": the checks each step must meet");
    } else if (!phases || !phases->is_array() || phases->empty())
        r.error("phases", "expected a non-empty array of phases");
    else
        for (size_t i = 0; i < phases->size(); ++i)
            s.phases.push_back(parse_phase((*phases)[i], index_path("phases", i), errors));

    if (const auto* c = r.child("cache")) s.cache = parse_cache(*c, errors, read_files);
    if (phases && !s.search) parse_phase_loads(*phases, s, errors);
    check_replay_phases(s, errors);
    if (const auto* h = r.child("http")) s.http = parse_http(*h, errors);
    check_session(s, errors);
    if (r.has("kind")) {
        if (s.kind == RunKind::cache && !s.cache) r.error("cache", "required for a cache run");
        if (s.kind == RunKind::http && !s.http) r.error("http", "required for an http run");
        if (s.kind == RunKind::cache && s.http) r.error("http", "not allowed in a cache run");
        if (s.kind == RunKind::http && s.cache) r.error("cache", "not allowed in an http run");
    }
    if (const auto* p = r.child("probes")) {
        if (!p->is_array())
            r.error("probes", "expected an array of probes");
        else
            for (size_t i = 0; i < p->size(); ++i)
                s.probes.push_back(parse_probe((*p)[i], index_path("probes", i), errors));
    }
    if (const auto* v = r.child("slo")) s.slo = parse_slo(*v, s, errors);
    if (const auto* v = r.child("agents")) parse_agents(*v, s, errors);
    if (auto v = r.choice("on_agent_loss", {"continue", "stop"})) {
        s.on_agent_loss = AgentLoss(*v);
        if (s.agents.empty()) r.error("on_agent_loss", "needs \"agents\"");
    }
    if (s.name.empty()) s.name = std::string(to_string(s.kind)) + " run";
    if (errors.empty()) result.spec = std::move(s);
    return result;
}

}  // namespace

SpecResult parse_spec(const nlohmann::json& json) {
    return parse_spec_as(json, true);
}

SpecResult parse_stored_spec(const nlohmann::json& json) {
    return parse_spec_as(json, false);
}

SpecResult parse_spec_text(const std::string& text) {
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        SpecResult r;
        r.errors.push_back({"", std::string("not valid JSON: ") + e.what()});
        return r;
    }
    return parse_spec(json);
}

SpecResult load_spec_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        SpecResult r;
        r.errors.push_back({"", "cannot read spec file " + path});
        return r;
    }
    std::stringstream text;
    text << in.rdbuf();
    auto r = parse_spec_text(text.str());
    for (auto& e : r.errors)
        if (e.path.empty()) e.message = path + ": " + e.message;
    return r;
}

}  // namespace perflab
