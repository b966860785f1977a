// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "model/prom_selector.h"
#include "model/prom_text.h"

namespace perflab {

// Bucket upper bounds and cumulative counts, by increasing bound, the last +Inf.
using PromBuckets = std::vector<std::pair<double, double>>;

// The q-quantile as Prometheus' histogram_quantile computes it: the bucket the rank falls in,
// linear interpolation inside it (from 0 for the first bucket when its bound is positive),
// the highest finite bound when the rank lands in the +Inf bucket. NaN without observations,
// without a +Inf bucket, or with fewer than two buckets.
double prom_histogram_quantile(double q, PromBuckets buckets);

// Turns successive scrapes into a prometheus ProbeSample's values, one key per series:
//
//   prom.<name>{labels}            a gauge (or untyped, info, stateset sample): its value
//   prom.<name>:rate{labels}       a counter (name as exposed, e.g. node_cpu_seconds_total):
//                                  per second between this scrape and the last; a counter
//                                  that went down was reset, and counts from 0 (as rate())
//   prom.<family>:p50{labels}      a histogram: the quantile of the observations between
//   prom.<family>:p90, :p99        the two scrapes, from the bucket increases
//                                  (histogram_quantile(q, rate(<family>_bucket)))
//   prom.<family>:p50 ... {labels} a summary: the quantiles it exposes (0.5 → p50, 0.99 →
//                                  p99, 0.75 → q0.75), label `quantile` dropped
//   prom.<family>_count:rate{...}  histograms and summaries: observations per second
//
// Labels are written sorted, `{a="x",b="y"}` (none: no braces), so a chart titles its panel
// with what precedes the '{' and a series with the braces. _sum and _created samples are
// not shown; bytes that are not UTF-8 become U+FFFD. A series not seen yet is taken while fewer
// than `cap` are; the others are counted in hidden().
class PromSeries {
  public:
    PromSeries(std::vector<PromSelector> selectors, size_t cap);
    // The values from `now` and the scrape `seconds` before it (none: gauges only).
    nlohmann::json values(const PromScrape& now, double seconds);
    // Keeps `now` as the scrape the next values are counted from.
    void remember(PromScrape now) { last_ = std::move(now), have_last_ = true; }
    void forget() { have_last_ = false; }
    size_t hidden() const { return hidden_.size(); }

  private:
    bool selected(const std::string& name, const std::string& family,
                  const PromLabels& labels) const;
    void put(nlohmann::json& out, const std::string& raw_key, double value);

    std::vector<PromSelector> selectors_;
    size_t cap_;
    std::set<std::string> shown_;
    std::set<std::string> hidden_;
    PromScrape last_;
    bool have_last_ = false;
};

}  // namespace perflab
