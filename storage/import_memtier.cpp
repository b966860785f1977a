// SPDX-License-Identifier: MIT
#include "import_memtier.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "hdr_encoding.h"
#include "import_record.h"
#include "model/base64.h"
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

// A double memtier printed, as a number.
double number_of(const json& object, const char* key, const std::string& path) {
    const json& v = member(object, key, path);
    if (!v.is_number() || v.get<double>() < 0)
        throw ImportError(path + "." + key, v.dump() + " is not a number");
    return v.get<double>();
}

// `h` with its sum replaced: memtier's exact sum of latencies where the buckets' values are
// up to a bucket's width (8 µs below 2 ms) above the latencies they stand for. Our encoding
// carries the sum beside the counts (min, max, sum, then the buckets).
Histogram with_sum(const Histogram& h, uint64_t sum) {
    const std::string encoded = h.encode();
    std::string_view rest = std::string_view(encoded).substr(2);
    const auto skip_varint = [&rest] {
        while (!rest.empty() && (static_cast<unsigned char>(rest.front()) & 0x80))
            rest.remove_prefix(1);
        rest.remove_prefix(std::min<size_t>(1, rest.size()));
    };
    skip_varint();
    skip_varint();
    const size_t sum_at = encoded.size() - rest.size();
    skip_varint();
    std::string patched = encoded.substr(0, sum_at);
    for (uint64_t v = sum;; v >>= 7) {
        patched.push_back(char(v >= 0x80 ? (v & 0x7f) | 0x80 : v));
        if (v < 0x80) break;
    }
    patched += rest;
    auto out = Histogram::decode(patched);
    if (!out) throw std::logic_error("a histogram with memtier's sum does not decode");
    return std::move(*out);
}

// The op's whole-run histogram from the HdrHistogram memtier wrote, when it wrote one: each
// bucket at the value memtier reports for it (its highest), the smallest at memtier's "Min
// Latency", the sum memtier's "Accumulated Latency" (whole ms, truncated: within 1 ms).
std::optional<Histogram> recorded(const json& op, const std::string& path,
                                  std::optional<hdr::Layout>& layout) {
    const json& percentiles = op["Percentile Latencies"];
    const auto log = percentiles.find("Histogram log format");
    if (log == percentiles.end() || !log->contains("Compressed Histogram")) return std::nullopt;
    const json& text = (*log)["Compressed Histogram"];
    const std::string field =
        path + ".Percentile Latencies.Histogram log format.Compressed Histogram";
    if (!text.is_string()) throw ImportError(field, "not a string");
    const auto bytes = base64_decode(text.get<std::string>());
    if (!bytes) throw ImportError(field, "not base64");
    std::string error;
    hdr::Layout writer;
    auto h = hdr::decompressed(*bytes, error, &writer);
    if (!h) throw ImportError(field, error);
    layout = writer;
    if (h->empty()) return h;
    if (op.contains("Min Latency")) {
        // memtier prints the smallest bucket's lowest value: one value there, the rest of the
        // bucket at its highest, as its percentiles read it.
        const int64_t min_us = us_of(op["Min Latency"], path + ".Min Latency");
        if (min_us < h->min()) {
            Histogram shifted;
            bool first = true;
            h->for_each_bucket([&](int64_t, int64_t highest, uint64_t n) {
                const int64_t value = std::min(highest, h->max());
                if (first && n > 0) shifted.record(min_us), --n;
                first = false;
                if (n) shifted.record_n(value, n);
            });
            h = std::move(shifted);
        }
    }
    if (op.contains("Accumulated Latency")) {
        const uint64_t sum_us = count_of(op, "Accumulated Latency", path) * 1000;
        // A sum the buckets cannot hold is another file's; the buckets' own is kept then.
        if (sum_us >= uint64_t(h->min()) * h->count() && sum_us <= uint64_t(h->max()) * h->count())
            h = with_sum(*h, sum_us);
    }
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
        s.bytes_in_known = s.bytes_in_known && second.contains("Bytes RX");
        s.bytes_out_known = s.bytes_out_known && second.contains("Bytes TX");
    }
}

// The run's hits and misses from memtier's rates, spread over the ticks in proportion to
// their gets (memtier counts none per second). A get of one key is a hit or a miss, so the
// count's share is exact to far below one get; multi-key gets, whose hits and misses are keys,
// are the rates times the duration. False when the file has no hits to give.
bool add_hits(const json& gets, const std::string& path, int64_t span_ms,
              std::vector<IntervalSample>& ticks) {
    if (!gets.contains("Hits/sec")) return false;
    const double hit_rate = number_of(gets, "Hits/sec", path);
    const double miss_rate = number_of(gets, "Misses/sec", path);
    const double op_rate = number_of(gets, "Ops/sec", path);
    const uint64_t count = count_of(gets, "Count", path);
    if (count == 0 || hit_rate + miss_rate <= 0) return true;
    uint64_t hits = 0, misses = 0;
    // Three rates printed to 0.01: a hit or miss per get leaves them 0.015 apart at most.
    if (std::abs(hit_rate + miss_rate - op_rate) <= 0.015) {
        hits = uint64_t(std::llround(double(count) * hit_rate / (hit_rate + miss_rate)));
        misses = count - hits;
    } else {
        hits = uint64_t(std::llround(hit_rate * double(span_ms) / 1000));
        misses = uint64_t(std::llround(miss_rate * double(span_ms) / 1000));
    }
    uint64_t gets_before = 0, hits_before = 0, misses_before = 0;
    for (auto& s : ticks) {
        const auto it = s.ops.find("get");
        gets_before += it == s.ops.end() ? 0 : it->second.count;
        const double share = double(gets_before) / double(count);
        const auto hits_to = uint64_t(std::llround(double(hits) * share));
        const auto misses_to = uint64_t(std::llround(double(misses) * share));
        s.hits = hits_to - hits_before;
        s.misses = misses_to - misses_before;
        hits_before = hits_to;
        misses_before = misses_to;
    }
    return true;
}

// The one size every value had ("data_size" with no range, list or import), or nullopt.
std::optional<uint64_t> fixed_value_size(const json& doc) {
    const auto c = doc.find("configuration");
    if (c == doc.end() || !c->is_object()) return std::nullopt;
    const auto size = c->find("data_size");
    if (size == c->end() || !size->is_number_unsigned() || size->get<uint64_t>() == 0)
        return std::nullopt;
    const auto is = [&](const char* key, const char* value) {
        const auto it = c->find(key);
        return it == c->end() || it->is_null() || *it == value;
    };
    if (!is("data_size_range", "0:0") || !is("data_size_list", "") || !is("data_import", ""))
        return std::nullopt;
    return size->get<uint64_t>();
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
    const std::string runtime_path = std::string(kSection) + ".Runtime";
    const json& runtime = member(stats, "Runtime", kSection);
    MemtierRun run;
    run.start_ms = int64_t(count_of(runtime, "Start time", runtime_path));
    // Before memtier 1.4.1 the file has no duration: the seconds of its series are the run.
    std::optional<int64_t> duration_ms;
    if (runtime.contains("Total duration"))
        duration_ms = int64_t(count_of(runtime, "Total duration", runtime_path));
    if (const auto it = runtime.find("Interrupted"); it != runtime.end())
        run.interrupted = *it == "true" || *it == true;
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
        member(figures, "Percentile Latencies", path);  // both readings below need it
        if (auto h = recorded(figures, path, run.histogram_layout)) {
            run.latency[op] = std::move(*h);
        } else {
            run.latency[op] = from_percentiles(figures, count, path);
            run.full_histograms = false;
        }
    }
    if (seconds.empty()) throw ImportError(kSection, "no get or set in any second");

    const int64_t last_second = seconds.rbegin()->first;
    const int64_t span_ms = duration_ms.value_or((last_second + 1) * 1000);
    if (span_ms <= 0) throw ImportError(runtime_path + ".Total duration", "0 ms: no run");
    if (span_ms > max_span_s * 1000)
        throw ImportError(runtime_path + ".Total duration",
                          "past the " + format_fixed(double(max_span_s) / 86400, 1) +
                              " days allowed; give --max-span to import more");
    // memtier opens a second for the replies that come after its clock stopped: a stub of
    // a few ops, counted in the last second the duration reaches.
    const int64_t ticks = (span_ms + 999) / 1000;
    if (last_second > ticks)
        throw ImportError(runtime_path + ".Total duration",
                          std::to_string(span_ms) + " ms ends before second " +
                              std::to_string(last_second) + " of the Time-Serie");
    std::vector<IntervalSample> out(static_cast<size_t>(ticks));
    bool rx_known = true, tx_known = true;
    for (auto& [second, s] : seconds) {
        IntervalSample& into = out[size_t(std::min(second, ticks - 1))];
        for (const auto& [op, o] : s.ops)
            into.ops[op].count += o.count;
        into.bytes_in += s.bytes_in;
        into.bytes_out += s.bytes_out;
        rx_known = rx_known && s.bytes_in_known;
        tx_known = tx_known && s.bytes_out_known;
    }
    run.hits_recorded =
        add_hits(member(stats, "Gets", kSection), std::string(kSection) + ".Gets", span_ms, out);
    if (const auto size = fixed_value_size(doc)) {
        for (auto& s : out) {
            const auto set = s.ops.find("set");
            s.bytes_out = (set == s.ops.end() ? 0 : set->second.count) * *size;
            s.bytes_in = s.hits * *size;
            // The value bytes in are the hits': unknown with them (memtier before 1.4).
            s.bytes_in_known = run.hits_recorded;
        }
    } else {
        run.wire_bytes = true;
        for (auto& s : out) {
            s.bytes_in_known = rx_known;
            s.bytes_out_known = tx_known;
        }
    }
    // Every op in each tick; the sends of a tick spread over it, as far as a count tells.
    for (int64_t i = 0; i < ticks; ++i) {
        IntervalSample& s = out[size_t(i)];
        s.t_ms = std::min((i + 1) * 1000, span_ms);
        s.interval_ms = s.t_ms - i * 1000;
        for (const auto& [op, unused] : run.latency)
            s.ops[op];
        if (const uint64_t n = s.total_ops()) {
            s.add_sends(n, i * 1'000'000, s.t_ms * 1000);
            s.add_reply_time(s.t_ms * 1000);
        }
    }
    run.ticks = std::move(out);
    run.imported_from = {{"tool", "memtier_benchmark"},
                         {"configuration", doc.value("configuration", json())},
                         {"run information", doc.value("run information", json())},
                         {"interrupted", run.interrupted},
                         {"total_duration_ms", duration_ms ? json(*duration_ms) : json()},
                         {"bytes", run.wire_bytes ? "wire" : "value"}};
    if (run.histogram_layout)
        run.imported_from["histogram"] = hdr::histogram_json(*run.histogram_layout);
    return run;
}

}  // namespace perflab
