// SPDX-License-Identifier: MIT
#include "prometheus_figures.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>

#include "model/phase_span.h"

namespace perflab {

namespace {

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

nlohmann::json figures_json(const std::vector<PromFigure>& figures) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& f : figures)
        out.push_back({{"source", f.source},
                       {"series", f.key},
                       {"mean", f.mean},
                       {"max", f.max},
                       {"samples", f.samples}});
    return out;
}

}  // namespace

std::vector<PromFigure> prometheus_figures(const std::vector<ProbeSample>& samples, int64_t from_ms,
                                           int64_t to_ms) {
    std::map<std::pair<std::string, std::string>, PromFigure> by_series;
    for (const auto& s : samples) {
        if (s.kind != "prometheus" || s.gap || s.t_ms <= from_ms || s.t_ms > to_ms) continue;
        for (const auto& [key, v] : s.values.items()) {
            // The series' figures, not the count of those over the cap ("hidden_series").
            if (!v.is_number() || !key.starts_with("prom.")) continue;
            const double x = v.get<double>();
            auto& f = by_series[{s.source, key}];
            if (f.samples == 0) {
                f.source = s.source;
                f.key = key;
                f.max = x;
            }
            f.mean += x;  // the sum until the end
            f.max = std::max(f.max, x);
            ++f.samples;
        }
    }
    std::vector<PromFigure> out;
    for (auto& [id, f] : by_series) {
        f.mean /= f.samples;
        out.push_back(std::move(f));
    }
    return out;
}

nlohmann::json prometheus_json(const RunSummary& s, const std::vector<ProbeSample>& samples) {
    const auto run = prometheus_figures(samples, -1, std::numeric_limits<int64_t>::max());
    if (run.empty()) return nullptr;
    nlohmann::json phases = nlohmann::json::array();
    for (size_t i = 0; i < s.phases.size(); ++i)
        if (const auto span = phase_span(s, i))
            phases.push_back(
                {{"phase", s.phases[i].phase},
                 {"series", figures_json(prometheus_figures(samples, span->first, span->second))}});
    return {{"run", figures_json(run)}, {"phases", std::move(phases)}};
}

bool is_prometheus_figure(const std::string& name) {
    size_t from = 0;
    if (name.size() > 2 && name[0] == 'p' && std::isdigit(static_cast<unsigned char>(name[1])))
        if (const size_t dot = name.find('.'); dot != std::string::npos) from = dot + 1;
    return name.compare(from, 11, "prometheus ") == 0;
}

std::string probes_csv(const std::vector<ProbeSample>& samples) {
    std::string out = "t_ms,source,kind,gap,key,value\n";
    for (const auto& s : samples) {
        const std::string head = std::to_string(s.t_ms) + "," + csv_field(s.source) + "," +
                                 csv_field(s.kind) + "," + (s.gap ? "1" : "0") + ",";
        if (s.gap) {
            out += head + ",\n";
            continue;
        }
        for (const auto& [key, v] : s.values.items()) {
            if (!v.is_number()) continue;
            out += head + csv_field(key) + "," + v.dump() + "\n";
        }
    }
    return out;
}

}  // namespace perflab
