// SPDX-License-Identifier: MIT
#include "prom_series.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace perflab {

namespace {

std::string label_text(PromLabels labels, std::string_view drop) {
    std::erase_if(labels, [&](const auto& l) { return l.first == drop; });
    if (labels.empty()) return {};
    std::sort(labels.begin(), labels.end());
    std::string out = "{";
    for (const auto& [k, v] : labels) {
        if (out.size() > 1) out += ',';
        out += k + "=\"";
        for (char c : v) {
            if (c == '\\' || c == '"') out += '\\';
            if (c == '\n')
                out += "\\n";
            else
                out += c;
        }
        out += '"';
    }
    return out + "}";
}

std::string label_value(const PromLabels& labels, std::string_view name) {
    for (const auto& [k, v] : labels)
        if (k == name) return v;
    return {};
}

std::string quantile_key(const std::string& q) {
    static const std::map<std::string, std::string> named = {
        {"0.5", "p50"}, {"0.9", "p90"}, {"0.95", "p95"}, {"0.99", "p99"}, {"0.999", "p999"}};
    const auto it = named.find(q);
    return it != named.end() ? it->second : "q" + q;
}

// What the last scrape had, by sample name and label text (all labels).
using Previous = std::map<std::string, double>;

Previous index(const PromScrape& s) {
    Previous out;
    for (const auto& x : s.samples)
        out[x.name + label_text(x.labels, "")] = x.value;
    return out;
}

// The increase since the last scrape, as rate() takes it: a counter that went down restarted
// from 0.
double increase(double now, double before) {
    return now >= before ? now - before : now;
}

}  // namespace

double prom_histogram_quantile(double q, PromBuckets buckets) {
    if (std::isnan(q)) return std::nan("");
    if (q < 0) return -HUGE_VAL;
    if (q > 1) return HUGE_VAL;
    std::sort(buckets.begin(), buckets.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    if (buckets.size() < 2 || !std::isinf(buckets.back().first)) return std::nan("");
    // As Prometheus' ensureMonotonic: a bucket below its predecessor (a scrape that caught
    // the buckets mid-update) takes the predecessor's count.
    for (size_t i = 1; i < buckets.size(); ++i)
        buckets[i].second = std::max(buckets[i].second, buckets[i - 1].second);
    const double observations = buckets.back().second;
    if (observations <= 0) return std::nan("");
    double rank = q * observations;
    size_t b = 0;
    while (b < buckets.size() - 1 && buckets[b].second < rank)
        ++b;
    if (b == buckets.size() - 1) return buckets[b - 1].first;
    if (b == 0 && buckets[0].first <= 0) return buckets[0].first;
    double start = 0;
    double count = buckets[b].second;
    if (b > 0) {
        start = buckets[b - 1].first;
        count -= buckets[b - 1].second;
        rank -= buckets[b - 1].second;
    }
    return start + (buckets[b].first - start) * (rank / count);
}

PromSeries::PromSeries(std::vector<PromSelector> selectors, size_t cap)
    : selectors_(std::move(selectors)), cap_(cap) {}

bool PromSeries::selected(const std::string& name, const std::string& family,
                          const PromLabels& labels) const {
    for (const auto& s : selectors_)
        if (s.matches(name, labels) || s.matches(family, labels)) return true;
    return false;
}

void PromSeries::put(nlohmann::json& out, const std::string& raw_key, double value) {
    // JSON has no NaN nor infinity; an unknown figure is left out: a gap in that series.
    if (!std::isfinite(value)) return;
    const std::string key = prom_utf8(raw_key);
    if (!shown_.contains(key)) {
        if (shown_.size() >= cap_) {
            hidden_.insert(key);
            return;
        }
        shown_.insert(key);
    }
    out[key] = value;
}

nlohmann::json PromSeries::values(const PromScrape& now, double seconds) {
    nlohmann::json out = nlohmann::json::object();
    const bool rates = have_last_ && seconds > 0;
    const Previous before = rates ? index(last_) : Previous{};
    const auto previous = [&](const PromSample& s) -> std::optional<double> {
        const auto it = before.find(s.name + label_text(s.labels, ""));
        if (it == before.end()) return std::nullopt;
        return it->second;
    };
    // Histogram buckets by family and label set (less `le`): bound → (now, before).
    std::map<std::string, std::map<double, std::pair<double, double>>> buckets;
    for (const auto& s : now.samples) {
        const auto [family, type] = prom_family(now, s.name);
        if (!selected(s.name, family, s.labels)) continue;
        if (s.name.ends_with("_created") && s.name != family) continue;
        const bool histogram = type == PromType::histogram || type == PromType::gaugehistogram;
        const bool summary = type == PromType::summary;
        if ((histogram || summary) && (s.name.ends_with("_sum") || s.name.ends_with("_gsum")))
            continue;
        if (type == PromType::counter || ((histogram || summary) && s.name.ends_with("_count"))) {
            if (!rates) continue;
            if (const auto b = previous(s))
                put(out, "prom." + s.name + ":rate" + label_text(s.labels, ""),
                    increase(s.value, *b) / seconds);
            continue;
        }
        if (histogram && s.name.ends_with("_bucket")) {
            const std::string le = label_value(s.labels, "le");
            double bound = 0;
            if (le == "+Inf")
                bound = HUGE_VAL;
            else if (std::sscanf(le.c_str(), "%lf", &bound) != 1)
                continue;
            auto& at = buckets["prom." + family + "\x1f" + label_text(s.labels, "le")][bound];
            at.first = s.value;
            at.second = rates ? previous(s).value_or(NAN) : NAN;
            continue;
        }
        if (summary && s.name == family) {
            put(out,
                "prom." + family + ":" + quantile_key(label_value(s.labels, "quantile")) +
                    label_text(s.labels, "quantile"),
                s.value);
            continue;
        }
        put(out, "prom." + s.name + label_text(s.labels, ""), s.value);
    }
    for (const auto& [id, by_bound] : buckets) {
        if (!rates) break;
        PromBuckets increases;
        // A reset anywhere restarts every bucket from 0, as the +Inf bucket (the count)
        // going down shows.
        const auto inf = by_bound.find(HUGE_VAL);
        const bool reset = inf != by_bound.end() && inf->second.first < inf->second.second;
        bool known = true;
        for (const auto& [bound, nb] : by_bound) {
            known = known && !std::isnan(nb.second);
            increases.emplace_back(bound, reset ? nb.first : nb.first - nb.second);
        }
        if (!known) continue;
        const size_t sep = id.find('\x1f');
        const std::string name = id.substr(0, sep);
        const std::string labels = id.substr(sep + 1);
        for (const auto& [q, key] : {std::pair{0.5, "p50"}, {0.9, "p90"}, {0.99, "p99"}})
            put(out, name + ":" + key + labels, prom_histogram_quantile(q, increases));
    }
    return out;
}

}  // namespace perflab
