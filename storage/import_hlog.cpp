// SPDX-License-Identifier: MIT
#include "import_hlog.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "hdr_encoding.h"
#include "hlog_export.h"
#include "import_record.h"
#include "model/base64.h"
#include "model/format.h"

namespace perflab {

namespace {

// "#[BaseTime: 1764555600.123 (seconds since epoch)]" → 1764555600.123
std::optional<double> header_seconds(const std::string& line, const char* key) {
    const std::string prefix = std::string("#[") + key + ": ";
    if (line.rfind(prefix, 0) != 0) return std::nullopt;
    size_t used = 0;
    return parse_number_prefix(std::string_view(line).substr(prefix.size()), used);
}

double number(const std::string& text, int64_t line, const char* field) {
    if (const auto v = parse_number(text); v && std::isfinite(*v) && *v >= 0) return *v;
    throw ImportError(line, field, "expected a number of seconds, got \"" + text + "\"");
}

// A histogram as a slot holds it: its encoding deflated, behind its length. Encoded alone a
// second of two thousand requests is 2-3 KB (a varint per bucket), which for a day of
// intervals of two ops came to 0.5 GB; deflated it is about the size the log gave it. One
// stream for the whole log: a fresh one per histogram allocates (and the kernel zeroes)
// a quarter of a megabyte each time.
class Packer {
  public:
    Packer() {
        if (deflateInit(&z_, Z_BEST_SPEED) != Z_OK) throw std::runtime_error("zlib: no memory");
    }
    ~Packer() { deflateEnd(&z_); }
    Packer(const Packer&) = delete;
    Packer& operator=(const Packer&) = delete;

    std::string operator()(const Histogram& h) {
        const std::string plain = h.encode();
        const auto length = uint32_t(plain.size());
        std::string out(sizeof length + deflateBound(&z_, uLong(plain.size())), '\0');
        std::memcpy(out.data(), &length, sizeof length);
        deflateReset(&z_);
        z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.data()));
        z_.avail_in = uInt(plain.size());
        z_.next_out = reinterpret_cast<Bytef*>(out.data() + sizeof length);
        z_.avail_out = uInt(out.size() - sizeof length);
        if (deflate(&z_, Z_FINISH) != Z_STREAM_END)
            throw std::runtime_error("zlib: cannot deflate a histogram");
        out.resize(sizeof length + z_.total_out);
        out.shrink_to_fit();
        return out;
    }

  private:
    z_stream z_{};
};

Histogram decoded(const std::string& slot) {
    if (slot.empty()) return {};
    uint32_t length = 0;
    std::memcpy(&length, slot.data(), sizeof length);
    std::string plain(length, '\0');
    uLongf size = length;
    std::optional<Histogram> h;
    if (uncompress(reinterpret_cast<Bytef*>(plain.data()), &size,
                   reinterpret_cast<const Bytef*>(slot.data() + sizeof length),
                   uLong(slot.size() - sizeof length)) == Z_OK)
        h = Histogram::decode(plain);
    if (!h) throw std::logic_error("an import's own histogram does not decode");
    return std::move(*h);
}

// Merges h into the histogram `slot` holds: an interval's op seldom has two lines.
void merge_into(std::string& slot, const Histogram& h, Packer& pack) {
    if (slot.empty()) {
        slot = pack(h);
        return;
    }
    Histogram merged = decoded(slot);
    merged.merge(h);
    slot = pack(merged);
}

}  // namespace

bool hlog_after_comments(std::istream& in) {
    std::string line;
    while (std::getline(in, line))
        if (!line.empty() && line[0] != '#' && line.find_first_not_of(" \t\r") != std::string::npos)
            return line.rfind("\"StartTimestamp\"", 0) == 0 || line.rfind("Tag=", 0) == 0 ||
                   (line[0] >= '0' && line[0] <= '9' &&
                    std::count(line.begin(), line.end(), ',') == 3);
    return false;
}

HlogRun read_hlog(std::istream& in, int64_t max_span_s) {
    std::optional<double> base, start;
    bool end_timestamps = false;
    // PerfLab's own untagged lines merge its tagged ones (for readers given no tag): each
    // request would count twice.
    bool perflab_log = false;
    HlogRun run;
    Packer pack;
    ImportSpan span(max_span_s);
    // Every line's values, service times too: while they fit an int64 no merge of them (an
    // interval's, the run's summary) overflows a histogram's count.
    uint64_t values = 0;
    std::string line;
    int64_t number_of_line = 0;
    while (std::getline(in, line)) {
        ++number_of_line;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        if (line[0] == '#') {
            if (auto v = header_seconds(line, "BaseTime")) base = v;
            if (auto v = header_seconds(line, "StartTime")) start = v;
            perflab_log = perflab_log || line.rfind("#[Logged with PerfLab", 0) == 0;
            continue;
        }
        if (line.rfind("\"StartTimestamp\"", 0) == 0) {
            // HdrHistogram_c's writer (memtier's --hdr-file-prefix logs) puts each interval's
            // end where the Java one puts its length, and its maximum in the values' unit.
            end_timestamps = line.rfind("\"StartTimestamp\",\"EndTimestamp\"", 0) == 0;
            continue;
        }
        std::string op = "all";
        std::string rest = line;
        if (rest.rfind("Tag=", 0) == 0) {
            const size_t comma = rest.find(',');
            if (comma == std::string::npos)
                throw ImportError(number_of_line, "Tag", "a tag with no interval after it");
            op = rest.substr(4, comma - 4);
            rest = rest.substr(comma + 1);
        } else if (perflab_log) {
            continue;
        }
        std::vector<std::string> fields;
        for (size_t from = 0;;) {
            const size_t comma = rest.find(',', from);
            fields.push_back(rest.substr(from, comma - from));
            if (comma == std::string::npos) break;
            from = comma + 1;
        }
        if (fields.size() != 4)
            throw ImportError(number_of_line, "",
                              "expected StartTimestamp,Interval_Length,Interval_Max,"
                              "Interval_Compressed_Histogram");
        const double at_s = number(fields[0], number_of_line, "StartTimestamp");
        const char* second_field = end_timestamps ? "EndTimestamp" : "Interval_Length";
        double length_s = number(fields[1], number_of_line, second_field);
        if (end_timestamps) {
            if (length_s < at_s)
                throw ImportError(number_of_line, "EndTimestamp",
                                  "before the interval's StartTimestamp");
            length_s -= at_s;
        }
        const double max = number(fields[2], number_of_line, "Interval_Max");
        const auto bytes = base64_decode(fields[3]);
        if (!bytes)
            throw ImportError(number_of_line, "Interval_Compressed_Histogram", "not base64");
        std::string error;
        hdr::Layout layout;
        auto h = hdr::decompressed(*bytes, error, &layout);
        if (!h) throw ImportError(number_of_line, "Interval_Compressed_Histogram", error);
        if (layout.coarser() &&
            (!run.coarser_layout_ || layout.sub_buckets() < run.coarser_layout_->sub_buckets() ||
             layout.lowest_discernible > run.coarser_layout_->lowest_discernible))
            run.coarser_layout_ = layout;
        if (h->count() > uint64_t(INT64_MAX) - values)
            throw ImportError(number_of_line, "Interval_Compressed_Histogram",
                              "the log holds more than 2^63 - 1 values");
        values += h->count();
        // Interval_Max is in the writer's unit (PerfLab's: ms for µs values); one that does
        // not land in the maximum's bucket is in another unit and is left alone.
        h->refine_max(std::llround(std::min(end_timestamps ? max : max * 1000, 9e18)));
        // Small timestamps are relative to the log's base (HistogramLogWriter's convention).
        const double origin = base ? *base : start && at_s < 1e9 ? *start : 0;
        const double begin = std::round((origin + at_s) * 1000);
        const double length = std::round(length_s * 1000);
        // Beyond int64 as ms, no check below could tell it apart from a plausible time.
        if (!(begin < 9e18 && length < 9e18))
            throw ImportError(number_of_line, "StartTimestamp", "not a plausible time");
        const auto begin_ms = int64_t(begin);
        span.check(begin_ms, number_of_line, "StartTimestamp");
        span.check(begin_ms + int64_t(length), number_of_line, second_field);
        HlogRun::Interval& interval = run.intervals_[begin_ms];
        interval.length_ms = std::max(interval.length_ms, int64_t(length));
        // PerfLab's own logs carry an op's service time under a tag of its own.
        const std::string suffix = kServiceTagSuffix;
        if (op.size() > suffix.size() && op.ends_with(suffix)) {
            merge_into(interval.ops[op.substr(0, op.size() - suffix.size())].service, *h, pack);
        } else {
            run.requests_ += h->count();
            run.ops_.insert(op);
            merge_into(interval.ops[op].latency, *h, pack);
        }
    }
    if (run.intervals_.empty()) throw ImportError(number_of_line, "", "no interval in the log");
    run.start_ms_ = run.intervals_.begin()->first;
    return run;
}

void HlogRun::drain(const std::function<void(IntervalSample&&)>& f) {
    while (!intervals_.empty()) {
        auto node = intervals_.extract(intervals_.begin());
        const Interval& interval = node.mapped();
        IntervalSample s;
        const int64_t from_ms = node.key() - start_ms_;
        s.t_ms = from_ms + interval.length_ms;
        s.interval_ms = interval.length_ms;
        // A histogram log holds latencies only.
        s.bytes_in_known = s.bytes_out_known = false;
        for (const auto& [op, encoded] : interval.ops) {
            OpSample& o = s.ops[op];
            o.latency = decoded(encoded.latency);
            o.service = decoded(encoded.service);
            o.count = o.latency.count();
            if (o.count) s.add_sends(o.count, from_ms * 1000, s.t_ms * 1000);
        }
        if (s.sent) s.add_reply_time(s.t_ms * 1000);
        f(std::move(s));
    }
}

}  // namespace perflab
