// SPDX-License-Identifier: MIT
#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include "json_path.h"
#include "json_reader.h"
#include "replay_file.h"
#include "secrets.h"
#include "session_spec.h"
#include "spec.h"
#include "template_syntax.h"

namespace perflab {

namespace {

constexpr int64_t kMaxConcurrency = 100'000;
constexpr uint32_t kMaxValueBytes = 1 << 20;  // memcached's default item size limit
constexpr size_t kMaxKeyBytes = 250;          // memcached's key length limit
constexpr uint64_t kMaxPrefillKeys = 100'000'000;
constexpr size_t kMaxPrefixBytes = kMaxKeyBytes - 20;  // room for a 64-bit key number
constexpr int64_t kMaxMultiget = 1024;
constexpr double kMaxReplaySpeed = 1e6;

std::string index_path(const std::string& base, size_t i) {
    return base + "[" + std::to_string(i) + "]";
}

Phase parse_phase(const nlohmann::json& json, const std::string& path,
                  std::vector<SpecError>& errors) {
    JsonReader r(json, path, errors);
    Phase p;
    if (!r.is_object()) return p;
    r.allow_only({"duration_s", "ops", "rate", "rate_to", "concurrency"});
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

// "weights": [[128, 70], [4096, 25], [51200, 5]]: sizes in bytes and their relative weights.
void parse_weighted_sizes(const nlohmann::json& w, JsonReader& r, ValueSize& size) {
    const std::string path = r.path("weights");
    if (!w.is_array() || w.empty() || r.has("min") || r.has("max"))
        return r.error(path, "expected [[bytes, weight], ...] (and no min or max beside it)");
    ValueSize parsed = size;
    parsed.min = kMaxValueBytes;
    parsed.max = 0;
    for (size_t i = 0; i < w.size(); ++i) {
        const auto& pair = w[i];
        const std::string at = path + "[" + std::to_string(i + 1) + "]";
        const auto in = [](const nlohmann::json& v, int64_t lo, int64_t hi) {
            return v.is_number_integer() && v.get<int64_t>() >= lo && v.get<int64_t>() <= hi;
        };
        if (!pair.is_array() || pair.size() != 2 || !in(pair[0], 0, kMaxValueBytes) ||
            !in(pair[1], 1, 1'000'000))
            return r.error(at, "expected [bytes up to " + std::to_string(kMaxValueBytes) +
                                   ", weight 1..1000000], got " + pair.dump());
        const auto bytes = pair[0].get<uint32_t>();
        parsed.weighted.emplace_back(bytes, pair[1].get<uint32_t>());
        parsed.min = std::min(parsed.min, bytes);
        parsed.max = std::max(parsed.max, bytes);
    }
    size = parsed;
}

// "replay": {"file": "ops.txt", "speed": 2 | "max"}: the file is read here, once, so a bad
// line is a spec error naming it (unless read_file is false: a stored spec).
CacheReplay parse_replay(const nlohmann::json& json, std::vector<SpecError>& errors,
                         bool read_file) {
    JsonReader r(json, "cache.replay", errors);
    CacheReplay replay;
    if (!r.is_object()) return replay;
    r.allow_only({"file", "speed"});
    if (const auto* v = r.child("speed")) {
        if (v->is_string() && v->get<std::string>() == "max")
            replay.speed = 0;
        else if (v->is_number() && v->get<double>() > 0 && v->get<double>() <= kMaxReplaySpeed)
            replay.speed = v->get<double>();
        else
            r.error("cache.replay.speed",
                    "expected a factor > 0 (2: twice as fast as recorded) or \"max\", got " +
                        v->dump());
    }
    if (auto v = r.string("file")) {
        replay.file = *v;
        if (!read_file) return replay;
        auto loaded = ReplayFile::load(*v);
        if (loaded.file)
            replay.ops = std::move(loaded.file);
        else
            r.error("cache.replay.file", loaded.error);
    } else if (!r.has("file")) {
        r.error("cache.replay.file", "required");
    }
    return replay;
}

// What multiget and replay cannot be combined with, within the cache section.
void check_cache_combinations(const CacheSpec& c, JsonReader& r) {
    if (c.multiget > 1) {
        if (c.workload == CacheWorkload::cache_aside || c.workload == CacheWorkload::set_only)
            r.error("cache.multiget",
                    "batches of gets need \"workload\": \"get-only\" or \"ratio\" (cache-aside "
                    "sets each missed key, which a batch does not tell)");
        if (c.replay) r.error("cache.multiget", "a replay sends its file's operations one by one");
    }
    if (c.replay && c.prefill)
        r.error("cache.prefill", "a replay's keys come from its file, not from the key space");
}

CacheSpec parse_cache(const nlohmann::json& json, std::vector<SpecError>& errors, bool read_files) {
    JsonReader r(json, "cache", errors);
    CacheSpec c;
    if (!r.is_object()) return c;
    r.allow_only({"servers", "protocol", "workload", "get_ratio", "set_ratio", "keys", "value_size",
                  "ttl_s", "prefill", "driver", "threads", "pipeline", "timeout_ms", "multiget",
                  "replay"});
    if (const auto* s = r.child("servers")) {
        if (!s->is_array() || s->empty()) {
            r.error("cache.servers", "expected a non-empty array of \"host:port\"");
        } else {
            for (size_t i = 0; i < s->size(); ++i)
                if (auto e = parse_server((*s)[i], index_path("cache.servers", i), errors))
                    c.servers.push_back(*e);
        }
    } else {
        r.error("cache.servers", "required");
    }
    if (auto v = r.choice("protocol", {"text", "binary", "meta"})) c.protocol = CacheProtocol(*v);
    if (auto v = r.choice("workload", {"cache-aside", "ratio", "get-only", "set-only"}))
        c.workload = CacheWorkload(*v);
    if (auto v = r.integer("get_ratio", 0, 1'000'000)) c.get_ratio = uint32_t(*v);
    if (auto v = r.integer("set_ratio", 0, 1'000'000)) c.set_ratio = uint32_t(*v);
    if (c.workload == CacheWorkload::ratio && c.get_ratio + c.set_ratio == 0)
        r.error("cache.set_ratio", "get_ratio and set_ratio cannot both be 0");
    if (const auto* k = r.child("keys")) {
        JsonReader kr(*k, "cache.keys", errors);
        kr.allow_only({"count", "prefix", "distribution", "zipf_s", "mean", "stddev"});
        if (auto v = kr.count("count", 1, UINT64_MAX)) c.keys.count = *v;
        if (auto v = kr.string("prefix")) {
            if (v->size() > kMaxPrefixBytes)
                kr.error("cache.keys.prefix", "longer than " + std::to_string(kMaxPrefixBytes) +
                                                  " bytes (memcached keys are at most 250)");
            else if (v->find_first_of(" \t\r\n") != std::string::npos)
                kr.error("cache.keys.prefix", "memcached keys cannot contain whitespace");
            else
                c.keys.prefix = *v;
        }
        if (auto v = kr.choice("distribution", {"uniform", "zipf", "sequential", "gaussian"}))
            c.keys.distribution = KeyDistribution(*v);
        if (auto v = kr.number("mean")) {
            if (*v < 0 || *v >= double(c.keys.count))
                kr.error("cache.keys.mean", "must be a key number in [0, count)");
            else
                c.keys.mean = *v;
        }
        if (auto v = kr.number("stddev")) {
            // Wider than the space, most draws would fall outside it and be drawn again.
            if (*v <= 0 || *v > double(c.keys.count))
                kr.error("cache.keys.stddev", "must be in (0, count]");
            else
                c.keys.stddev = *v;
        }
        if ((c.keys.mean || c.keys.stddev) && c.keys.distribution != KeyDistribution::gaussian)
            kr.error("cache.keys.distribution",
                     "mean and stddev are for the \"gaussian\" distribution");
        if (auto v = kr.number("zipf_s")) {
            if (*v <= 0 || *v > 10)
                kr.error("cache.keys.zipf_s", "must be in (0, 10]");
            else
                c.keys.zipf_s = *v;
        }
    }
    if (const auto* vs = r.child("value_size")) {
        JsonReader vr(*vs, "cache.value_size", errors);
        vr.allow_only({"min", "max", "weights", "bytes"});
        if (auto v = vr.integer("min", 0, kMaxValueBytes)) c.value_size.min = uint32_t(*v);
        if (auto v = vr.integer("max", 0, kMaxValueBytes)) c.value_size.max = uint32_t(*v);
        if (auto v = vr.choice("bytes", {"compressible", "random"}))
            c.value_size.random_bytes = *v == 1;
        if (const auto* w = vr.child("weights")) parse_weighted_sizes(*w, vr, c.value_size);
        if (c.value_size.min > c.value_size.max)
            vr.error("cache.value_size", "min " + std::to_string(c.value_size.min) + " > max " +
                                             std::to_string(c.value_size.max));
    }
    if (auto v = r.integer("ttl_s", 0, INT32_MAX)) c.ttl_s = uint32_t(*v);
    if (auto v = r.boolean("prefill")) c.prefill = *v;
    if (auto v = r.choice("driver", {"libmemcached", "async"})) c.driver = CacheDriver(*v);
    if (auto v = r.integer("threads", 0, 1024)) c.threads = int(*v);
    if (auto v = r.integer("pipeline", 1, 1024)) c.pipeline = int(*v);
    if (auto v = r.integer("timeout_ms", 1, 3'600'000)) c.timeout_ms = int(*v);
    if (c.prefill && c.keys.count > kMaxPrefillKeys)
        r.error("cache.prefill", "a key space of " + std::to_string(c.keys.count) +
                                     " keys is too large to prefill (at most " +
                                     std::to_string(kMaxPrefillKeys) + ")");
    if (c.protocol == CacheProtocol::meta && c.driver == CacheDriver::libmemcached)
        r.error("cache.protocol", "\"meta\" needs \"driver\": \"async\"");
    if (c.pipeline > 1 && c.driver == CacheDriver::libmemcached)
        r.error("cache.pipeline", "pipelining needs \"driver\": \"async\"");
    else if (c.pipeline > 1 && c.protocol == CacheProtocol::binary)
        r.error("cache.pipeline", "pipelining needs the async driver, which speaks text and meta");
    if (c.protocol == CacheProtocol::binary && c.driver == CacheDriver::async)
        r.error("cache.protocol", "\"binary\" needs \"driver\": \"libmemcached\"");
    if (auto v = r.integer("multiget", 1, kMaxMultiget)) c.multiget = uint32_t(*v);
    if (const auto* v = r.child("replay")) c.replay = parse_replay(*v, errors, read_files);
    check_cache_combinations(c, r);
    return c;
}

bool same_name(const std::string& a, const char* b) {
    return std::equal(a.begin(), a.end(), b, b + std::char_traits<char>::length(b),
                      [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}

bool check_template(const std::string& text, const std::string& path, JsonReader& r) {
    if (!looks_templated(text)) return true;
    std::string error;
    parse_template(text, error);
    if (!error.empty()) r.error(path, error);
    return error.empty();
}

// Connections are made per origin, so templates may vary the path and query alone.
void check_url_template(const std::string& url, JsonReader& r) {
    if (!check_template(url, r.path("url"), r)) return;
    const size_t open = url.find("{{");
    if (open == std::string::npos) return;
    const size_t path_at = url.find_first_of("/?", url.find("://") + 3);
    if (path_at == std::string::npos || open < path_at)
        r.error(r.path("url"), "templates may vary the path and query, not the host or port");
}

HttpExpect parse_expect(const nlohmann::json& json, const std::string& path,
                        std::vector<SpecError>& errors) {
    JsonReader r(json, path, errors);
    HttpExpect e;
    if (!r.is_object()) {
        r.error(path, "expected an object such as {\"status\": [200]}");
        return e;
    }
    r.allow_only({"status", "body_contains", "body_regex", "json", "max_bytes"});
    if (const auto* s = r.child("status")) {
        const auto code = [](const nlohmann::json& v) {
            return v.is_number_integer() && v.get<int64_t>() >= 100 && v.get<int64_t>() <= 599;
        };
        if (code(*s))
            e.status.push_back(s->get<int>());
        else if (s->is_array() && !s->empty() && std::all_of(s->begin(), s->end(), code))
            for (const auto& v : *s)
                e.status.push_back(v.get<int>());
        else
            r.error(r.path("status"), "expected status codes 100..599, such as [200, 201]");
    }
    if (auto v = r.string("body_contains")) {
        if (v->empty())
            r.error(r.path("body_contains"), "must not be empty");
        else
            e.body_contains = *v;
    }
    if (auto v = r.string("body_regex")) {
        try {
            std::regex check(*v);
            e.body_regex = *v;
        } catch (const std::regex_error& x) {
            r.error(r.path("body_regex"), std::string("not a regular expression: ") + x.what());
        }
    }
    if (const auto* j = r.child("json")) {
        JsonReader jr(*j, r.path("json"), errors);
        if (!jr.is_object()) {
            r.error(r.path("json"), "expected {\"path\": \"$.ok\", \"equals\": true}");
        } else {
            jr.allow_only({"path", "equals"});
            std::string why;
            if (auto p = jr.string("path")) {
                if (parse_json_path(*p, why))
                    e.json_path = *p;
                else
                    jr.error(jr.path("path"), why);
            } else if (!jr.has("path")) {
                jr.error(jr.path("path"), "required");
            }
            if (const auto* eq = jr.child("equals")) e.json_equals = eq->dump();
        }
    }
    if (auto v = r.count("max_bytes", 0, UINT64_MAX)) e.max_bytes = *v;
    return e;
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

HttpTarget parse_target(const nlohmann::json& json, const std::string& path,
                        std::vector<SpecError>& errors) {
    JsonReader r(json, path, errors);
    HttpTarget t;
    if (!r.is_object()) return t;
    r.allow_only({"method", "url", "headers", "body", "body_file", "body_template", "content_type",
                  "weight", "expect"});
    if (auto v = r.integer("weight", 1, 1'000'000)) t.weight = uint32_t(*v);
    if (auto v = r.string("method")) {
        if (v->empty() || v->find_first_of(" \t\r\n") != std::string::npos)
            r.error(r.path("method"), "not an HTTP method");
        else
            t.method = *v;
    }
    if (auto v = r.string("url"))
        t.url = *v;
    else if (!r.has("url"))
        r.error(r.path("url"), "required");
    if (!t.url.empty() && t.url.rfind("http://", 0) != 0 && t.url.rfind("https://", 0) != 0)
        r.error(r.path("url"), "\"" + t.url + "\": scheme must be http:// or https://");
    else if (!t.url.empty())
        check_url_template(t.url, r);
    if (const auto* h = r.child("headers")) {
        if (!h->is_object())
            r.error(r.path("headers"), "expected an object of name: value");
        else
            for (const auto& [k, v] : h->items()) {
                if (!v.is_string())
                    r.error(r.path("headers") + "." + k, "expected a string");
                else if (auto e = reference_syntax_error(v.get<std::string>()); !e.empty())
                    r.error(r.path("headers") + "." + k, e);
                else if (check_template(v.get<std::string>(), r.path("headers") + "." + k, r))
                    t.headers.emplace_back(k, v.get<std::string>());
            }
    }
    if (auto v = r.string("body")) {
        if (auto e = reference_syntax_error(*v); !e.empty())
            r.error(r.path("body"), e);
        else
            t.body = *v;
    }
    if (auto v = r.string("body_file")) t.body_file = *v;
    if (auto v = r.string("body_template")) {
        if (auto e = reference_syntax_error(*v); !e.empty())
            r.error(r.path("body_template"), e);
        else if (check_template(*v, r.path("body_template"), r))
            t.body_template = *v;
    }
    if (int(r.has("body")) + int(r.has("body_file")) + int(r.has("body_template")) > 1)
        r.error(path, "give one of \"body\", \"body_file\" and \"body_template\"");
    if (auto v = r.string("content_type")) {
        if (v->empty() || v->find_first_of("\r\n") != std::string::npos)
            r.error(r.path("content_type"), "not a header value");
        else
            t.content_type = *v;
    }
    for (const auto& [name, value] : t.headers)
        if (!t.content_type.empty() && same_name(name, "content-type"))
            r.error(r.path("content_type"), "given twice: here and in \"headers\"");
    if (const auto* e = r.child("expect")) t.expect = parse_expect(*e, r.path("expect"), errors);
    return t;
}

HttpSpec parse_http(const nlohmann::json& json, std::vector<SpecError>& errors) {
    JsonReader r(json, "http", errors);
    HttpSpec h;
    if (!r.is_object()) return h;
    r.allow_only({"targets", "threads", "max_connections", "timeout_ms", "connect_timeout_ms",
                  "keepalive", "tls_verify", "http2", "max_streams", "session"});
    const auto* targets = r.child("targets");
    if (!targets || !targets->is_array() || targets->empty())
        r.error("http.targets", "expected a non-empty array of targets");
    else
        for (size_t i = 0; i < targets->size(); ++i)
            h.targets.push_back(parse_target((*targets)[i], index_path("http.targets", i), errors));
    if (auto v = r.integer("threads", 1, 256)) h.threads = int(*v);
    if (auto v = r.integer("max_connections", 1, 1'000'000)) h.max_connections = int(*v);
    if (auto v = r.integer("timeout_ms", 1, 3'600'000)) h.timeout_ms = int(*v);
    if (auto v = r.integer("connect_timeout_ms", 1, 3'600'000)) h.connect_timeout_ms = int(*v);
    if (auto v = r.boolean("keepalive")) h.keepalive = *v;
    if (auto v = r.boolean("tls_verify")) h.tls_verify = *v;
    if (auto v = r.boolean("http2")) h.http2 = *v;
    if (auto v = r.integer("max_streams", 1, 1000)) h.max_streams = int(*v);
    if (h.http2 && !h.keepalive)
        r.error(r.path("http2"), "HTTP/2 keeps its connections open: needs \"keepalive\": true");
    if (const auto* v = r.child("session")) h.session = parse_session(*v, errors);
    if (h.http2 && !h.session.empty())
        r.error(r.path("session"), "sessions run over HTTP/1.1 for now: remove \"http2\"");
    return h;
}

ProbeSpec parse_probe(const nlohmann::json& json, const std::string& path,
                      std::vector<SpecError>& errors) {
    JsonReader r(json, path, errors);
    ProbeSpec p;
    if (!r.is_object()) return p;
    r.allow_only({"local", "ssh", "key", "per_core", "memcached", "jvm"});
    const int kinds = int(r.has("local")) + int(r.has("ssh") && !r.has("jvm")) +
                      int(r.has("memcached")) + int(r.has("jvm"));
    if (kinds != 1) {
        r.error(path, "needs exactly one of \"local\", \"ssh\", \"memcached\", \"jvm\"");
        return p;
    }
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
    r.allow_only({"rate_from", "rate_to", "step_s", "precision", "warmup_s", "concurrency"});
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
                  "seed", "slo", "search", "agents", "on_agent_loss"});
    RunSpec s;
    if (auto v = r.string("name")) s.name = *v;
    if (auto v = r.choice("kind", {"cache", "http"}))
        s.kind = RunKind(*v);
    else if (!r.has("kind"))
        r.error("kind", "required (\"cache\" or \"http\")");
    if (auto v = r.integer("tick_ms", 10, 600'000)) s.tick_ms = int(*v);
    if (auto v = r.strings("tags")) s.tags = *v;
    if (auto v = r.string("notes")) s.notes = *v;
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
