// SPDX-License-Identifier: MIT
// The spec's "cache" section.
#include <algorithm>
#include <fstream>

#include "json_reader.h"
#include "redis_commands.h"
#include "replay_file.h"
#include "secrets.h"
#include "spec_parse_sections.h"

namespace perflab {

namespace {

using spec_detail::index_path;
using spec_detail::parse_keys;
using spec_detail::parse_server;
using spec_detail::parse_value_size;

constexpr uint32_t kMaxValueBytes = 1 << 20;  // memcached's default item size limit
constexpr size_t kMaxKeyBytes = 250;          // memcached's key length limit
constexpr uint64_t kMaxPrefillKeys = 100'000'000;
constexpr size_t kMaxPrefixBytes = kMaxKeyBytes - 20;  // room for a 64-bit key number
constexpr int64_t kMaxMultiget = 1024;
constexpr double kMaxReplaySpeed = 1e6;

// "weights": [[128, 70], [4096, 25], [51200, 5]]: sizes in bytes and their relative weights.
void parse_weighted_sizes(const nlohmann::json& w, JsonReader& r, ValueSize& size) {
    const std::string path = r.path("weights");
    if (!w.is_array() || w.empty() || r.has("min") || r.has("max"))
        return r.error(path, "expected [[bytes, weight], ...] (and no min or max beside it)");
    ValueSize parsed = size;
    parsed.min = kMaxValueBytes;
    parsed.max = 0;
    parsed.weighted.clear();
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

// "tls": true, or {"ca": "ca.crt", "cert": "client.crt", "key": "client.key", "verify": true,
// "server_name": "cache.internal"}. The files are opened here too (unless check_files is
// false: a stored spec), so a path that is wrong is bad input before the run.
std::optional<CacheTls> parse_tls(const nlohmann::json& json, std::vector<SpecError>& errors,
                                  bool check_files) {
    if (json.is_boolean())
        return json.get<bool>() ? std::optional<CacheTls>(CacheTls{}) : std::nullopt;
    if (!json.is_object()) {
        errors.push_back(
            {"cache.redis.tls", "expected true, false or an object, got " + json_type_name(json)});
        return std::nullopt;
    }
    JsonReader r(json, "cache.redis.tls", errors);
    r.allow_only({"ca", "cert", "key", "verify", "server_name"});
    CacheTls tls;
    const auto file = [&](const char* key, std::string& out) {
        const auto v = r.string(key);
        if (!v) return;
        if (v->empty() || (check_files && !std::ifstream(*v)))
            r.error(r.path(key), "cannot read \"" + *v + "\"");
        else
            out = *v;
    };
    file("ca", tls.ca);
    file("cert", tls.cert);
    file("key", tls.key);
    if (r.has("cert") != r.has("key"))
        r.error(r.path(r.has("cert") ? "key" : "cert"),
                "required with \"" + std::string(r.has("cert") ? "cert" : "key") +
                    "\" (a client certificate and its key go together)");
    if (auto v = r.boolean("verify")) tls.verify = *v;
    if (auto v = r.string("server_name")) tls.server_name = *v;
    return tls;
}

// "redis": {"hello": 3, "user": "app", "password": "${REDIS_PASSWORD}", "db": 3,
// "cluster": true, "tls": {...}}.
RedisHandshake parse_redis(const nlohmann::json& json, std::vector<SpecError>& errors,
                           bool read_files) {
    JsonReader r(json, "cache.redis", errors);
    RedisHandshake h;
    if (!r.is_object()) return h;
    r.allow_only({"hello", "user", "password", "db", "cluster", "tls"});
    if (auto v = r.integer("hello", 2, 3)) h.hello = int(*v);
    if (auto v = r.string("user")) {
        if (v->empty() || v->find_first_of(" \t\r\n") != std::string::npos)
            r.error("cache.redis.user", "expected a user name without whitespace");
        else
            h.user = *v;
    }
    if (auto v = r.string("password")) {
        if (auto e = redis_password_error(*v); !e.empty())
            r.error("cache.redis.password", e);
        else
            h.password = *v;
    }
    if (!h.user.empty() && h.password.empty())
        r.error("cache.redis.password", "required with \"user\" (AUTH sends both)");
    // Redis' default "databases" is 16; a server configured with more takes a higher one.
    if (auto v = r.integer("db", 0, INT32_MAX)) h.db = int(*v);
    if (auto v = r.boolean("cluster")) h.cluster = *v;
    if (h.cluster && h.db.value_or(0) != 0)
        r.error("cache.redis.db", "a Redis Cluster has database 0 only (SELECT is refused)");
    if (const auto* t = r.child("tls")) h.tls = parse_tls(*t, errors, read_files);
    return h;
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

// What cache.commands replace or cannot be combined with: a spec giving a workload beside
// them would not say which it means.
void check_commands(const CacheSpec& c, JsonReader& r) {
    if (c.commands.empty()) return;
    if (c.protocol != CacheProtocol::redis)
        r.error("cache.commands", "is for \"protocol\": \"redis\"");
    for (const char* key : {"workload", "get_ratio", "set_ratio", "multiget", "replay"})
        if (r.has(key))
            r.error(r.path(key), "cache.commands replace the workload: give one or the other");
    if (c.redis.cluster)
        r.error("cache.commands",
                "not with a Redis Cluster (an op's slot would be its key's, which a command "
                "need not have)");
}

}  // namespace

void spec_detail::parse_keys(const nlohmann::json& json, const std::string& path, KeySpace& keys,
                             std::vector<SpecError>& errors) {
    JsonReader kr(json, path, errors);
    if (!kr.is_object()) return kr.error(path, "expected an object such as {\"count\": 1000000}");
    kr.allow_only({"count", "prefix", "distribution", "zipf_s", "mean", "stddev"});
    if (auto v = kr.count("count", 1, UINT64_MAX)) keys.count = *v;
    if (auto v = kr.string("prefix")) {
        if (v->size() > kMaxPrefixBytes)
            kr.error(kr.path("prefix"), "longer than " + std::to_string(kMaxPrefixBytes) +
                                            " bytes (memcached keys are at most 250)");
        else if (v->find_first_of(" \t\r\n") != std::string::npos)
            kr.error(kr.path("prefix"), "memcached keys cannot contain whitespace");
        else
            keys.prefix = *v;
    }
    if (auto v = kr.choice("distribution", {"uniform", "zipf", "sequential", "gaussian"}))
        keys.distribution = KeyDistribution(*v);
    if (auto v = kr.number("mean")) {
        if (*v < 0 || *v >= double(keys.count))
            kr.error(kr.path("mean"), "must be a key number in [0, count)");
        else
            keys.mean = *v;
    }
    if (auto v = kr.number("stddev")) {
        // Wider than the space, most draws would fall outside it and be drawn again.
        if (*v <= 0 || *v > double(keys.count))
            kr.error(kr.path("stddev"), "must be in (0, count]");
        else
            keys.stddev = *v;
    }
    if ((keys.mean || keys.stddev) && keys.distribution != KeyDistribution::gaussian)
        kr.error(kr.path("distribution"), "mean and stddev are for the \"gaussian\" distribution");
    if (auto v = kr.number("zipf_s")) {
        if (*v <= 0 || *v > 10)
            kr.error(kr.path("zipf_s"), "must be in (0, 10]");
        else
            keys.zipf_s = *v;
    }
}

void spec_detail::parse_value_size(const nlohmann::json& json, const std::string& path,
                                   ValueSize& size, std::vector<SpecError>& errors) {
    JsonReader vr(json, path, errors);
    if (!vr.is_object())
        return vr.error(path, "expected an object such as {\"min\": 128, \"max\": 4096}");
    vr.allow_only({"min", "max", "weights", "bytes"});
    // Sizes given here replace weighted ones given before (a phase's over its section's).
    if (vr.has("min") || vr.has("max")) size.weighted.clear();
    if (auto v = vr.integer("min", 0, kMaxValueBytes)) size.min = uint32_t(*v);
    if (auto v = vr.integer("max", 0, kMaxValueBytes)) size.max = uint32_t(*v);
    if (auto v = vr.choice("bytes", {"compressible", "random"})) size.random_bytes = *v == 1;
    if (const auto* w = vr.child("weights")) parse_weighted_sizes(*w, vr, size);
    if (size.min > size.max)
        vr.error(path, "min " + std::to_string(size.min) + " > max " + std::to_string(size.max));
}

CacheSpec spec_detail::parse_cache(const nlohmann::json& json, std::vector<SpecError>& errors,
                                   bool read_files) {
    JsonReader r(json, "cache", errors);
    CacheSpec c;
    if (!r.is_object()) return c;
    r.allow_only({"servers", "protocol", "workload", "get_ratio", "set_ratio", "keys", "value_size",
                  "ttl_s", "prefill", "driver", "threads", "pipeline", "timeout_ms", "multiget",
                  "replay", "redis", "commands"});
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
    if (auto v = r.choice("protocol", {"text", "binary", "meta", "redis"}))
        c.protocol = CacheProtocol(*v);
    if (auto v = r.choice("workload", {"cache-aside", "ratio", "get-only", "set-only"}))
        c.workload = CacheWorkload(*v);
    if (auto v = r.integer("get_ratio", 0, 1'000'000)) c.get_ratio = uint32_t(*v);
    if (auto v = r.integer("set_ratio", 0, 1'000'000)) c.set_ratio = uint32_t(*v);
    if (c.workload == CacheWorkload::ratio && c.get_ratio + c.set_ratio == 0)
        r.error("cache.set_ratio", "get_ratio and set_ratio cannot both be 0");
    if (const auto* k = r.child("keys")) parse_keys(*k, "cache.keys", c.keys, errors);
    if (const auto* v = r.child("value_size"))
        parse_value_size(*v, "cache.value_size", c.value_size, errors);
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
    if ((c.protocol == CacheProtocol::meta || c.protocol == CacheProtocol::redis) &&
        c.driver == CacheDriver::libmemcached)
        r.error("cache.protocol",
                std::string("\"") + to_string(c.protocol) + "\" needs \"driver\": \"async\"");
    if (c.pipeline > 1 && c.driver == CacheDriver::libmemcached)
        r.error("cache.pipeline", "pipelining needs \"driver\": \"async\"");
    else if (c.pipeline > 1 && c.protocol == CacheProtocol::binary)
        r.error("cache.pipeline", "pipelining needs the async driver, which speaks text and meta");
    if (c.protocol == CacheProtocol::binary && c.driver == CacheDriver::async)
        r.error("cache.protocol", "\"binary\" needs \"driver\": \"libmemcached\"");
    if (auto v = r.integer("multiget", 1, kMaxMultiget)) c.multiget = uint32_t(*v);
    if (const auto* v = r.child("replay")) c.replay = parse_replay(*v, errors, read_files);
    if (const auto* v = r.child("redis")) {
        if (c.protocol == CacheProtocol::redis)
            c.redis = parse_redis(*v, errors, read_files);
        else
            r.error("cache.redis", "is for \"protocol\": \"redis\"");
    }
    if (const auto* v = r.child("commands")) c.commands = parse_commands(*v, errors);
    check_cache_combinations(c, r);
    check_commands(c, r);
    return c;
}

}  // namespace perflab
