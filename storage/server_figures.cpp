// SPDX-License-Identifier: MIT
#include "server_figures.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>

namespace perflab {

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

double number(const nlohmann::json& values, const char* key) {
    const auto it = values.find(key);
    return it != values.end() && it->is_number() ? it->get<double>() : kNone;
}

// A running sum or extreme that stays NaN until it sees a value.
struct Total {
    double sum = kNone, max = kNone;
    int n = 0;
    void add(double v) {
        if (std::isnan(v)) return;
        sum = n ? sum + v : v;
        max = n ? std::max(max, v) : v;
        ++n;
    }
    double mean() const { return n ? sum / n : kNone; }
};

}  // namespace

std::vector<std::pair<std::string, double>> server_figures(const std::vector<ProbeSample>& samples,
                                                           int64_t from_ms, int64_t to_ms) {
    Total full_gcs, gc_ms, cpu, bytes;
    // A span's evictions are its samples' evictions_delta (each since the sample before, the
    // first since the run's start). Runs stored before samples had it: the counter at the
    // span's end less the counter at the tick before it (or at its first tick).
    std::map<std::string, std::pair<double, double>> evictions;  // source: (before, last)
    Total evicted;
    Total redis_evicted, redis_hits, redis_lookups, redis_memory;
    for (const auto& s : samples) {
        if (s.gap || s.t_ms > to_ms) continue;
        const bool inside = s.t_ms > from_ms;
        if (s.kind == "redis") {
            if (!inside) continue;
            redis_evicted.add(number(s.values, "evictions_delta"));
            const double hits = number(s.values, "keyspace_hits_delta");
            redis_hits.add(hits);
            redis_lookups.add(hits + number(s.values, "keyspace_misses_delta"));
            redis_memory.add(number(s.values, "used_memory"));
            continue;
        }
        if (s.kind == "memcached") {
            if (const double delta = number(s.values, "evictions_delta"); !std::isnan(delta)) {
                if (!inside) continue;
                evicted.add(delta);
                bytes.add(number(s.values, "bytes"));
                continue;
            }
            const double counter = number(s.values, "evictions");
            if (std::isnan(counter)) continue;
            const auto it = evictions.try_emplace(s.source, counter, kNone).first;
            if (!inside)
                it->second.first = counter;
            else
                it->second.second = counter;
            if (inside) bytes.add(number(s.values, "bytes"));
            continue;
        }
        if (!inside) continue;
        if (s.kind == "jvm") {
            full_gcs.add(number(s.values, "full_gc_delta"));
            gc_ms.add(number(s.values, "young_gc_ms"));
            gc_ms.add(number(s.values, "full_gc_ms"));
        } else if (s.kind == "host") {
            cpu.add(number(s.values, "cpu_busy"));
        }
    }
    for (const auto& [source, counters] : evictions)
        if (!std::isnan(counters.second)) evicted.add(counters.second - counters.first);
    // The server's own hit rate over the span: none without a lookup.
    const double hit_pct =
        redis_lookups.sum > 0 ? 100.0 * redis_hits.sum / redis_lookups.sum : kNone;
    return {{"jvm_full_gcs", full_gcs.sum},         {"jvm_gc_ms", gc_ms.sum},
            {"host_cpu_mean_pct", cpu.mean()},      {"host_cpu_max_pct", cpu.max},
            {"memcached_evictions", evicted.sum},   {"memcached_bytes_max", bytes.max},
            {"redis_evictions", redis_evicted.sum}, {"redis_hit_pct", hit_pct},
            {"redis_memory_max", redis_memory.max}};
}

namespace {

nlohmann::json figures_json(const std::vector<std::pair<std::string, double>>& figures) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [name, v] : figures)
        out[name] = std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v);
    return out;
}

bool all_unknown(const std::vector<std::pair<std::string, double>>& figures) {
    return std::all_of(figures.begin(), figures.end(),
                       [](const auto& f) { return std::isnan(f.second); });
}

}  // namespace

nlohmann::json servers_json(const RunSummary& s, const std::vector<ProbeSample>& samples) {
    const auto run = server_figures(samples, -1, std::numeric_limits<int64_t>::max());
    if (all_unknown(run)) return nullptr;
    nlohmann::json phases = nlohmann::json::array();
    for (size_t i = 0; i < s.phases.size(); ++i)
        if (const auto span = phase_span(s, i)) {
            nlohmann::json phase = figures_json(server_figures(samples, span->first, span->second));
            phase["phase"] = s.phases[i].phase;
            phases.push_back(std::move(phase));
        }
    return {{"run", figures_json(run)}, {"phases", std::move(phases)}};
}

bool is_server_figure(const std::string& name) {
    std::string bare = name;
    if (bare.size() > 2 && bare[0] == 'p' && std::isdigit(static_cast<unsigned char>(bare[1])))
        if (const size_t dot = bare.find('.'); dot != std::string::npos) bare.erase(0, dot + 1);
    static const std::vector<std::pair<std::string, double>> kAll = server_figures({}, 0, 0);
    return std::any_of(kAll.begin(), kAll.end(), [&](const auto& f) { return f.first == bare; });
}

}  // namespace perflab
