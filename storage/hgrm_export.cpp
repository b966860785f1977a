// SPDX-License-Identifier: MIT
#include "hgrm_export.h"

#include <bit>
#include <cmath>
#include <cstdio>

#include "model/format.h"

namespace perflab {

std::vector<std::pair<std::string, Histogram>> hgrm_histograms(const RunSummary& summary) {
    const IntervalSample& t = summary.overall.totals;
    std::vector<std::pair<std::string, Histogram>> out;
    if (summary.kind == RunKind::http) {
        out.emplace_back("", t.latency());
        if (auto service = t.service(); !service.empty())
            out.emplace_back("service", std::move(service));
        return out;
    }
    for (const auto& [name, op] : t.ops)
        if (!op.latency.empty()) out.emplace_back(name, op.latency);
    for (const auto& [name, op] : t.ops)
        if (!op.service.empty()) out.emplace_back(name + ".service", op.service);
    return out;
}

hdr::Layout hgrm_layout(const nlohmann::json& spec) {
    hdr::Layout layout;
    const nlohmann::json h = spec.value("imported_from", nlohmann::json::object())
                                 .value("histogram", nlohmann::json::object());
    const auto digits = h.find("significant_digits");
    const auto lowest = h.find("lowest_discernible_us");
    if (digits != h.end() && digits->is_number_integer() && *digits >= 0 && *digits <= 5)
        layout.significant_digits = digits->get<int>();
    if (lowest != h.end() && lowest->is_number_integer() && *lowest >= 1 && *lowest < (1 << 30))
        layout.lowest_discernible = lowest->get<int64_t>();
    return layout;
}

std::string hgrm_text(const Histogram& h, const hdr::Layout& layout) {
    // HdrHistogram's percentile iterator: five reports per halving of the distance to 100%.
    constexpr int kTicksPerHalfDistance = 5;
    constexpr double kScale = 1000.0;  // µs -> ms
    char line[128];
    std::string out;
    std::snprintf(line, sizeof line, "%12s %14s %10s %14s\n\n", "Value", "Percentile", "TotalCount",
                  "1/(1-Percentile)");
    out += line;
    const uint64_t total = h.count();
    double next = 0;
    uint64_t cumulative = 0;
    double variance_sum = 0;
    const double mean = h.mean();
    h.for_each_bucket([&](int64_t lowest, int64_t highest, uint64_t n) {
        cumulative += n;
        const double mid = (double(lowest) + double(highest)) / 2;
        variance_sum += double(n) * (mid - mean) * (mid - mean);
        const double reached = 100.0 * double(cumulative) / double(total);
        const double value = double(std::min(highest, h.max())) / kScale;
        while (next <= reached && next < 100.0) {
            std::snprintf(line, sizeof line, " %10llu ",
                          static_cast<unsigned long long>(cumulative));
            out += format_fixed(value, 3, 12) + " " + format_fixed(next / 100, 12, 2) + line +
                   format_fixed(1 / (1 - next / 100), 2, 14) + "\n";
            const int halvings = int(std::log2(100.0 / (100.0 - next))) + 1;
            next += 100.0 / (kTicksPerHalfDistance * std::pow(2.0, halvings));
            // Like HdrHistogram, the bucket that completes the count reports once; the
            // 100% line follows.
            if (cumulative == total) break;
        }
    });
    if (total > 0) {
        std::snprintf(line, sizeof line, " %10llu\n", static_cast<unsigned long long>(total));
        out +=
            format_fixed(double(h.max()) / kScale, 3, 12) + " " + format_fixed(1.0, 12, 2) + line;
    }
    const double stddev = total ? std::sqrt(variance_sum / double(total)) : 0;
    // HdrHistogram's bucket count for the layout, up to our highest value.
    const int64_t sub_buckets = layout.sub_buckets();
    int buckets = 1;
    for (int64_t limit = sub_buckets << (std::bit_width(uint64_t(layout.lowest_discernible)) - 1);
         limit <= Histogram::kHighest; limit *= 2)
        ++buckets;
    out += "#[Mean    = " + format_fixed(mean / kScale, 3, 12) +
           ", StdDeviation   = " + format_fixed(stddev / kScale, 3, 12) + "]\n";
    std::snprintf(line, sizeof line, ", Total count    = %12llu]\n",
                  static_cast<unsigned long long>(total));
    out += "#[Max     = " + format_fixed(double(h.max()) / kScale, 3, 12) + line;
    std::snprintf(line, sizeof line, "#[Buckets = %12d, SubBuckets     = %12lld]\n", buckets,
                  static_cast<long long>(sub_buckets));
    out += line;
    return out;
}

}  // namespace perflab
