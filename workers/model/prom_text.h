// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace perflab {

// A reader of the Prometheus text exposition format 0.0.4 and of its OpenMetrics 1.0 variant
// (https://prometheus.io/docs/instrumenting/exposition_formats/,
// https://github.com/OpenObservability/OpenMetrics/blob/main/specification/OpenMetrics.md).
// Ours rather than a library's: Debian 12 packages no C or C++ client that parses the format
// (prometheus-cpp only writes it), and the grammar is a page long.
//
// Read: `# HELP`, `# TYPE`, `# UNIT` (OpenMetrics) and `# EOF` (nothing after it is read);
// sample lines `name{label="value",...} value [timestamp]` with the escapes \\ \" \n in label
// values, a trailing comma in the label set, and values like "+Inf", "-Inf", "NaN", "1e3".
// An OpenMetrics exemplar (` # {...} value [ts]`) is skipped; timestamps are read and
// dropped, since a scrape is placed on the run's clock by its arrival.

enum class PromType { untyped, counter, gauge, histogram, gaugehistogram, summary, info, stateset };

using PromLabels = std::vector<std::pair<std::string, std::string>>;  // in the order given

struct PromSample {
    std::string name;  // as written: "http_requests_total", "latency_bucket"
    PromLabels labels;
    double value = 0;
};

struct PromScrape {
    std::vector<PromSample> samples;
    std::map<std::string, PromType> types;  // by family name, from `# TYPE`
    std::map<std::string, std::string> units;
    bool eof = false;  // an OpenMetrics `# EOF` ended it
};

struct PromParseResult {
    PromScrape scrape;
    std::optional<std::string> error;  // "line 3: ..." for the first line that is no sample
};

PromParseResult parse_prom_text(std::string_view text);

// `text` with each byte that is not part of valid UTF-8 replaced by U+FFFD: a label value or a
// page is any bytes, but what becomes a JSON key or an event's text must be UTF-8 (JSON
// refuses anything else when it is written).
std::string prom_utf8(std::string_view text);

// The family a sample belongs to, and its type: the name itself if it has a `# TYPE`, else
// the name less a suffix its family's type gives it (_total, _created for counters;
// _bucket, _count, _sum, _created for histograms and summaries; _gcount, _gsum for gauge
// histograms; _info). A sample with no typed family is its own untyped family.
std::pair<std::string, PromType> prom_family(const PromScrape& scrape, const std::string& name);

}  // namespace perflab
