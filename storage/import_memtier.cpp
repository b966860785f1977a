// SPDX-License-Identifier: MIT
#include "import_memtier.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <nlohmann/json.hpp>
#include <utility>

#include "base64.h"
#include "hdr_encoding.h"
#include "import_record.h"
#include "model/format.h"

namespace perflab {

namespace {

using nlohmann::json;

// memtier's own names for the ops PerfLab has; "Totals" repeats them, "Waits" is Redis' WAIT.
constexpr std::pair<const char*, const char*> kOps[] = {{"Gets", "get"}, {"Sets", "set"}};
constexpr const char* kSection = "ALL STATS";

const json& member(const json& object, const char* key, const std::string& path) {
    const auto it = object.find(key);
    if (it == object.end()) throw ImportError(path + "." + key, "missing");
    return *it;
}

// A count; memtier prints null for a figure that is not a number.
uint64_t count_of(const json& object, const char* key, const std::string& path) {
    const json& v = member(object, key, path);
    if (!v.is_number_unsigned())
        throw ImportError(path + "." + key, v.dump() + " is not a whole number");
    return v.get<uint64_t>();
}

// A count memtier may leave out (before 2.1, or 2.3 for "Connection Errors"): 0 then. Not
// json::value(), which throws a type_error for a count of another type and converts a double
// out of range.
uint64_t optional_count(const json& object, const char* key, const std::string& path) {
    return object.is_object() && object.contains(key) ? count_of(object, key, path) : 0;
}

// A latency in ms (memtier prints three decimals) as whole µs.
int64_t us_of(const json& v, const std::string& path) {
    if (!v.is_number() || v.get<double>() < 0)
        throw ImportError(path, v.dump() + " is not a latency in ms");
    return std::llround(v.get<double>() * 1000);
}

// "p99.900" → 99.9; nullopt for any other key.
std::optional<double> percentile_of(const std::string& key) {
    if (key.size() < 2 || key[0] != 'p') return std::nullopt;
    double p = 0;
    const auto [end, ec] = std::from_chars(key.data() + 1, key.data() + key.size(), p);
    if (ec != std::errc() || end != key.data() + key.size() || p <= 0 || p > 100)
        return std::nullopt;
    return p;
}

// The op's whole-run histogram from the HdrHistogram memtier wrote, when it wrote one.
std::optional<Histogram> recorded(const json& percentiles, const std::string& path) {
    const auto log = percentiles.find("Histogram log format");
    if (log == percentiles.end() || !log->contains("Compressed Histogram")) return std::nullopt;
    const json& text = (*log)["Compressed Histogram"];
    const std::string field = path + ".Histogram log format.Compressed Histogram";
    if (!text.is_string()) throw ImportError(field, "not a string");
    const auto bytes = base64_decode(text.get<std::string>());
    if (!bytes) throw ImportError(field, "not base64");
    std::string error;
    auto h = hdr::decompressed(*bytes, error);
    if (!h) throw ImportError(field, error);
    return h;
}

// A histogram that holds the listed percentiles at their ranks, the minimum at rank 1 and the
// maximum at the last: every figure memtier printed reads back as it printed it, and nothing
// in between pretends to be known.
Histogram from_percentiles(const json& op, uint64_t count, const std::string& path) {
    const std::string at = path + ".Percentile Latencies";
    std::vector<std::pair<double, int64_t>> points;
    for (const auto& [key, value] : op["Percentile Latencies"].items())
        if (const auto p = percentile_of(key); p && !value.is_null())
            points.emplace_back(*p, us_of(value, at + "." + key));
    if (points.empty()) throw ImportError(at, "no percentile and no histogram");
    std::sort(points.begin(), points.end());
    Histogram h;
    uint64_t placed = 0;
    const auto place = [&](uint64_t rank, int64_t us) {
        if (rank > placed) h.record_n(us, rank - placed), placed = rank;
    };
    place(1, us_of(member(op, "Min Latency", path), path + ".Min Latency"));
    for (const auto& [p, us] : points)
        place(Histogram::rank_for(p, count), us);
    place(count, us_of(member(op, "Max Latency", path), path + ".Max Latency"));
    return h;
}

// Counts and bytes per second since the run's start, as memtier's "Time-Serie" keys them.
void add_seconds(const json& series, const std::string& op, const std::string& path,
                 int64_t max_span_s, std::map<int64_t, IntervalSample>& seconds) {
    for (const auto& [key, second] : series.items()) {
        int64_t at = 0;
        const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), at);
        const std::string here = path + "." + key;
        if (ec != std::errc() || end != key.data() + key.size() || at < 0 || !second.is_object())
            throw ImportError(here, "not a second of the run");
        // Every second before it becomes a tick: one absurd key would fill the memory.
        if (at > max_span_s)
            throw ImportError(here, "past the " + format_fixed(double(max_span_s) / 86400, 1) +
                                        " days allowed; give --max-span to import more");
        IntervalSample& s = seconds[at];
        OpSample& o = s.ops[op];
        o.count += count_of(second, "Count", here);
        // Bytes per second arrived in memtier 2.1.
        s.bytes_in += optional_count(second, "Bytes RX", here);
        s.bytes_out += optional_count(second, "Bytes TX", here);
    }
}

json parsed(std::istream& in) {
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        const auto upto = text.begin() + std::ptrdiff_t(std::min(e.byte, text.size()));
        throw ImportError(1 + std::count(text.begin(), upto, '\n'), "",
                          "not valid JSON (memtier_benchmark writes NaN as -nan before 2.1.2)");
    } catch (const json::out_of_range& e) {
        // A number beyond a double's range (1e400): nlohmann quotes it but does not say where.
        const std::string what = e.what();
        const size_t from = what.find('\'') + 1;
        const std::string number = what.substr(from, what.rfind('\'') - from);
        const auto at = text.begin() + std::ptrdiff_t(std::min(text.find(number), text.size()));
        throw ImportError(1 + std::count(text.begin(), at, '\n'), "",
                          "not valid JSON: " + number + " is beyond a double's range");
    }
}

}  // namespace

MemtierRun read_memtier(std::istream& in, int64_t max_span_s) {
    const json doc = parsed(in);
    if (!doc.is_object() || !doc.contains(kSection))
        throw ImportError(kSection,
                          "missing: not a memtier_benchmark JSON file of one run (a file of "
                          "several, --run-count, holds BEST, WORST and AGGREGATED results)");
    const json& stats = doc[kSection];
    MemtierRun run;
    run.start_ms = int64_t(count_of(member(stats, "Runtime", kSection), "Start time",
                                    std::string(kSection) + ".Runtime"));
    for (const auto& [name, value] : stats.items()) {
        // Captured by name: clang before 16 cannot capture a structured binding.
        const bool known = std::any_of(std::begin(kOps), std::end(kOps),
                                       [&name = name](const auto& op) { return name == op.first; });
        if (!known && name != "Totals" && name != "Waits" && value.is_object() &&
            value.contains("Time-Serie") &&
            optional_count(value, "Count", std::string(kSection) + "." + name) > 0)
            throw ImportError(std::string(kSection) + "." + name,
                              "memtier ran this command; PerfLab reads gets and sets only");
    }
    if (const auto totals = stats.find("Totals"); totals != stats.end())
        run.connection_errors =
            optional_count(*totals, "Connection Errors", std::string(kSection) + ".Totals");

    std::map<int64_t, IntervalSample> seconds;
    for (const auto& [memtier_name, op] : kOps) {
        const std::string path = std::string(kSection) + "." + memtier_name;
        const json& figures = member(stats, memtier_name, kSection);
        const uint64_t count = count_of(figures, "Count", path);
        if (count == 0) continue;  // a get-only run has no set row, as PerfLab's own
        add_seconds(member(figures, "Time-Serie", path), op, path + ".Time-Serie", max_span_s,
                    seconds);
        const json& percentiles = member(figures, "Percentile Latencies", path);
        if (auto h = recorded(percentiles, path + ".Percentile Latencies")) {
            run.latency[op] = std::move(*h);
        } else {
            run.latency[op] = from_percentiles(figures, count, path);
            run.full_histograms = false;
        }
    }
    if (seconds.empty()) throw ImportError(kSection, "no get or set in any second");

    // Every second from the first to the last, each op in each; the sends of a second spread
    // over it, as far as a count tells.
    for (int64_t second = 0; second <= seconds.rbegin()->first; ++second) {
        IntervalSample s;
        if (const auto it = seconds.find(second); it != seconds.end()) s = std::move(it->second);
        s.t_ms = (second + 1) * 1000;
        s.interval_ms = 1000;
        for (const auto& [op, unused] : run.latency)
            s.ops[op];
        if (const uint64_t n = s.total_ops()) {
            s.add_sends(n, second * 1'000'000, s.t_ms * 1000);
            s.add_reply_time(s.t_ms * 1000);
        }
        run.ticks.push_back(std::move(s));
    }
    return run;
}

}  // namespace perflab
