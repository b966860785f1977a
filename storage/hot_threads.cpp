// SPDX-License-Identifier: MIT
#include "hot_threads.h"

#include <algorithm>
#include <limits>
#include <map>

#include "model/phase_span.h"

namespace perflab {

namespace {

constexpr std::string_view kPrefix = "thread.";
constexpr std::string_view kSuffix = ".cpu_pct";

nlohmann::json threads_json(const std::vector<HotThread>& threads) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& t : threads)
        out.push_back({{"source", t.source},
                       {"thread", t.thread},
                       {"mean_cpu_pct", t.mean_cpu_pct},
                       {"max_cpu_pct", t.max_cpu_pct},
                       {"samples", t.samples},
                       {"process_samples", t.process_samples}});
    return out;
}

}  // namespace

std::vector<HotThread> hot_threads(const std::vector<ProbeSample>& samples, int64_t from_ms,
                                   int64_t to_ms) {
    std::map<std::pair<std::string, std::string>, HotThread> by_thread;
    std::map<std::string, int> per_source;
    for (const auto& s : samples) {
        if (s.kind != "process" || s.gap || s.t_ms <= from_ms || s.t_ms > to_ms) continue;
        ++per_source[s.source];
        for (const auto& [key, v] : s.values.items()) {
            if (!v.is_number() || !key.starts_with(kPrefix) || !key.ends_with(kSuffix) ||
                key.size() <= kPrefix.size() + kSuffix.size())
                continue;
            const double x = v.get<double>();
            const std::string name =
                key.substr(kPrefix.size(), key.size() - kPrefix.size() - kSuffix.size());
            auto& t = by_thread[{s.source, name}];
            if (t.samples == 0) {
                t.source = s.source;
                t.thread = name;
                t.max_cpu_pct = x;
            }
            t.mean_cpu_pct += x;  // the sum until the end
            t.max_cpu_pct = std::max(t.max_cpu_pct, x);
            ++t.samples;
        }
    }
    std::vector<HotThread> out;
    for (auto& [id, t] : by_thread) {
        t.mean_cpu_pct /= t.samples;
        t.process_samples = per_source[t.source];
        out.push_back(std::move(t));
    }
    std::stable_sort(out.begin(), out.end(), [](const HotThread& a, const HotThread& b) {
        return a.source != b.source ? a.source < b.source : a.mean_cpu_pct > b.mean_cpu_pct;
    });
    return out;
}

nlohmann::json hot_threads_json(const RunSummary& s, const std::vector<ProbeSample>& samples) {
    const bool probed = std::any_of(samples.begin(), samples.end(),
                                    [](const ProbeSample& p) { return p.kind == "process"; });
    if (!probed) return nullptr;
    nlohmann::json phases = nlohmann::json::array();
    for (size_t i = 0; i < s.phases.size(); ++i)
        if (const auto span = phase_span(s, i))
            phases.push_back(
                {{"phase", s.phases[i].phase},
                 {"threads", threads_json(hot_threads(samples, span->first, span->second))}});
    return {{"run", threads_json(hot_threads(samples, -1, std::numeric_limits<int64_t>::max()))},
            {"phases", std::move(phases)}};
}

}  // namespace perflab
