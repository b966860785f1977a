// SPDX-License-Identifier: MIT
#include "run_import.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "database.h"
#include "import_hlog.h"
#include "import_jtl.h"
#include "import_k6.h"
#include "import_memtier.h"
#include "import_ticks.h"
#include "import_vegeta.h"
#include "memtier_spec.h"
#include "model/format.h"
#include "model/spec.h"
#include "model/summary.h"
#include "run_bundle.h"
#include "sample_rows.h"
#include "sha256.h"

namespace perflab {

namespace {

// The next line holding more than blanks, or "" at the end.
std::string next_line(std::istream& in) {
    std::string line;
    while (std::getline(in, line) && line.find_first_not_of(" \t\r") == std::string::npos) {
    }
    return line;
}

// vegeta and k6 write a JSON object per line, k6's typed; memtier_benchmark one document over
// many lines, its opening brace alone on the first; a JTL in CSV begins with its header; an
// HdrHistogram log with its comment lines, its legend or a tagged interval.
std::string detect(const std::string& file) {
    std::ifstream in(file);
    const std::string line = next_line(in);
    // HistogramLogWriter's comments (outputComment: '#' and the text) may come first.
    if (line.rfind('#', 0) == 0 && hlog_after_comments(in)) return "hlog";
    const size_t at = line.find_first_not_of(" \t");
    if (at != std::string::npos && line[at] == '{' &&
        line.find_first_not_of(" \t\r", at + 1) == std::string::npos)
        return "memtier";
    if (at != std::string::npos && line[at] == '{') {
        // k6 writes typed lines ({"type": "Metric"|"Point", ...}); vegeta, one result each.
        const auto first = nlohmann::json::parse(line, nullptr, false);
        return first.is_object() && first.contains("type") && first.contains("metric") ? "k6"
                                                                                       : "vegeta";
    }
    if (line.rfind("#[", 0) == 0 || line.rfind("\"StartTimestamp\"", 0) == 0 ||
        line.rfind("Tag=", 0) == 0)
        return "hlog";
    // JMeter's XML results are told apart so that its reader can say how to save CSV.
    if (line.find("timeStamp") != std::string::npos || (at != std::string::npos && line[at] == '<'))
        return "jtl";
    throw ImportError(1, "",
                      "neither vegeta's or k6's JSON lines, memtier_benchmark's JSON, a JTL in "
                      "CSV with its header nor an HdrHistogram log (give --format)");
}

// The file's SHA-256 in hex: the same file imported twice is refused.
std::string sha256_of(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    return sha256_hex(in);
}

ImportResult import_from_bundle(const std::string& db_path, const ImportOptions& o) {
    if (!o.name.empty())
        throw ImportError("--name", "a bundle's runs keep their names (tag them with --tag)");
    const BundleImport bundle = import_bundle(db_path, o.file, o.tags);
    if (o.progress) o.progress(1.0);
    ImportResult result;
    result.format = "bundle";
    result.requests = bundle.requests;
    for (const auto& [from, here] : bundle.stored) {
        result.run_ids.push_back(here);
        result.remarks.push_back("run " + std::to_string(from) + " of the bundle stored as run " +
                                 std::to_string(here));
    }
    result.run_id = result.run_ids.front();
    for (const auto& [from, here] : bundle.already)
        result.warnings.push_back("run " + std::to_string(from) +
                                  " of the bundle is stored here already, as run " +
                                  std::to_string(here) + ": not stored again");
    return result;
}

const char* source_of(const std::string& format) {
    if (format == "jtl") return "JMeter results";
    if (format == "hlog") return "the HdrHistogram log";
    if (format == "k6") return "k6 results";
    if (format == "memtier") return "memtier_benchmark results";
    return "vegeta results";
}

// What a file holds: its ticks in a list (a log's intervals, memtier's seconds: small), or
// per second as its requests came (a stored hour of requests would map a histogram per op
// and second), handed over one at a time.
struct ReadRun {
    explicit ReadRun(int64_t max_span_s) : ticks(max_span_s) {}
    std::vector<IntervalSample> samples;
    ImportTicks ticks;
    std::optional<HlogRun> hlog;
    int64_t start_ms = 0;
    uint64_t requests = 0;
    std::set<std::string> ops;  // in every tick
    // The whole run's latencies per op where the ticks have none (summary only).
    std::optional<std::map<std::string, Histogram>> latency;
    std::string note;  // what the notes add about the file
    // The source tool's configuration and what the import made of it, stored with the spec.
    nlohmann::json imported_from;

    void drain(const std::function<void(IntervalSample&&)>& f) {
        for (auto& s : samples)
            f(std::move(s));
        samples.clear();
        if (hlog) hlog->drain(f);
        ticks.drain(f);
    }
};

// The ops of ticks read whole, and their requests.
void count_samples(ReadRun& run) {
    for (const auto& s : run.samples) {
        run.requests += s.total_ops();
        for (const auto& [op, unused] : s.ops)
            run.ops.insert(op);
    }
}

ReadRun read_memtier_run(std::istream& in, int64_t max_span_s) {
    MemtierRun memtier = read_memtier(in, max_span_s);
    ReadRun run(max_span_s);
    run.start_ms = memtier.start_ms;
    run.samples = std::move(memtier.ticks);
    count_samples(run);
    run.latency = std::move(memtier.latency);
    run.note = memtier.full_histograms
                   ? "; summary only: latencies per second were percentiles, the whole run's "
                     "are its histograms"
                   : "; summary only: latencies are the whole run's percentiles, minimum and "
                     "maximum alone";
    if (memtier.connection_errors)
        run.note += "; " + std::to_string(memtier.connection_errors) + " connection errors";
    if (memtier.interrupted)
        run.note += "; interrupted (memtier's \"Interrupted\": \"true\"): stopped by Ctrl+C";
    run.note += memtier.hits_recorded
                    ? "; hits and misses are the run's, spread over its seconds as its gets"
                    : "; hits and misses unknown: the file has no Hits/sec or Misses/sec "
                      "(memtier before 1.4)";
    run.note +=
        memtier.wire_bytes
            ? "; bytes are memtier's wire bytes (values of differing sizes), not value bytes"
            : "; bytes are value bytes (data_size per set and per hit), not memtier's "
              "wire bytes";
    if (memtier.histogram_layout && memtier.histogram_layout->coarser())
        run.note += "; latencies at memtier's precision (" +
                    std::to_string(memtier.histogram_layout->significant_digits) +
                    " significant digits), the mean memtier's own";
    run.imported_from = std::move(memtier.imported_from);
    return run;
}

RunSpec spec_of(const ImportOptions& o, const std::string& format, const ReadRun& run) {
    RunSpec spec;
    const std::string base = std::filesystem::path(o.file).filename().string();
    spec.name = o.name.empty() ? base : o.name;
    spec.tags = o.tags;
    spec.notes = "Imported from " + std::string(source_of(format)) + " " + base + run.note;
    // A log of gets and sets is a cache run's; anything else, requests to targets.
    bool cache = format == "hlog" || format == "memtier";
    for (const auto& op : run.ops)
        cache = cache && (op == "get" || op == "set");
    spec.kind = cache ? RunKind::cache : RunKind::http;
    if (cache) {
        spec.cache = CacheSpec{};
        if (format == "memtier")
            apply_memtier_configuration(run.imported_from.value("configuration", nlohmann::json()),
                                        spec);
        return spec;
    }
    HttpSpec http;
    for (const auto& op : run.ops) {
        HttpTarget t;
        if (const size_t space = op.find(' ');
            (format == "vegeta" || format == "k6") && space != std::string::npos)
            t.method = op.substr(0, space), t.url = op.substr(space + 1);
        else
            t.url = op;
        http.targets.push_back(t);
    }
    spec.http = http;
    return spec;
}

int64_t insert_run(Connection& db, const RunSpec& spec, const nlohmann::json& imported_from,
                   int64_t started_at_ms, const std::string& sha256, bool summary_only) {
    nlohmann::json spec_json = to_json(spec);
    if (!imported_from.is_null()) spec_json["imported_from"] = imported_from;
    Statement q(db,
                "INSERT INTO runs (name, kind, spec_json, notes, status, started_at_ms, "
                "source_sha256, summary_only) VALUES (?1, ?2, ?3, ?4, 'imported', ?5, ?6, ?7)");
    q.bind(1, spec.name).bind(2, to_string(spec.kind)).bind(3, spec_json.dump());
    q.bind(4, spec.notes).bind(5, started_at_ms).bind(6, sha256);
    q.bind(7, int64_t{summary_only});
    q.run();
    const int64_t run = db.last_insert_id();
    Statement tag(db, "INSERT OR IGNORE INTO run_tags (run_id, tag) VALUES (?1, ?2)");
    for (const auto& t : spec.tags) {
        tag.bind(1, run).bind(2, t);
        tag.run();
    }
    return run;
}

// Throws naming the run `file` became when a file of that hash was imported before.
void refuse_imported(Connection& db, const std::string& file, const std::string& sha256) {
    Statement q(db, "SELECT id FROM runs WHERE source_sha256 = ?1");
    q.bind(1, sha256);
    if (q.step())
        throw std::runtime_error(file + " was imported already, as run " +
                                 std::to_string(q.integer(0)));
    q.run();
}

// Reads the file in its format, reporting progress through the options and what it
// skipped through `warn`.
ReadRun read_run(const ImportOptions& o, const std::string& format, const WarningSink& warn) {
    std::ifstream in(o.file);
    if (format == "memtier") return read_memtier_run(in, o.max_span_s);
    ReadRun run(o.max_span_s);
    if (format == "hlog") {
        run.hlog = read_hlog(in, o.max_span_s);
        run.start_ms = run.hlog->start_ms();
        run.requests = run.hlog->requests();
        run.ops = run.hlog->ops();
        if (const auto& layout = run.hlog->coarser_layout()) {
            run.imported_from = {{"tool", "HdrHistogram log"},
                                 {"histogram", hdr::histogram_json(*layout)}};
            run.note += "; latencies at the log's precision (" +
                        std::to_string(layout->significant_digits) + " significant digits)";
        }
        return run;
    }
    const auto size = double(std::filesystem::file_size(o.file));
    uint64_t read = 0;
    const RecordSink sink = [&](ImportRecord&& r) {
        run.ticks.add(r);
        if (++read % 65536 == 0 && o.progress && size > 0)
            o.progress(std::clamp(double(in.tellg()) / size, 0.0, 1.0));
    };
    if (format == "jtl")
        read_jtl(in, sink, warn);
    else if (format == "vegeta")
        read_vegeta(in, sink, warn);
    else if (format == "k6")
        read_k6(in, sink, warn);
    else
        throw std::runtime_error("--format: \"" + o.format +
                                 "\" is not auto, jtl, vegeta, k6, memtier or hlog");
    run.requests = run.ticks.requests();
    run.start_ms = run.ticks.start_ms();
    run.ops = run.ticks.ops();
    return run;
}

// "page 50 (50 failed, mean 12.34 ms, max 122 ms)" for each label.
std::string transactions_text(const std::map<std::string, ImportTicks::Transactions>& all) {
    std::string text;
    for (const auto& [label, t] : all)
        text += (text.empty() ? "" : "; ") + label + " " + std::to_string(t.count) + " (" +
                std::to_string(t.failed) + " failed, mean " +
                format_fixed(double(t.total_us) / double(t.count) / 1000.0, 2) + " ms, max " +
                format_fixed(double(t.max_us) / 1000.0, 0) + " ms)";
    return text;
}

// What the user should be told of how the rows were counted.
std::vector<std::string> remarks_of(const std::string& format, const ImportTicks& ticks) {
    std::vector<std::string> remarks;
    uint64_t transactions = 0;
    for (const auto& [label, t] : ticks.transactions())
        transactions += t.count;
    if (transactions)
        remarks.push_back(std::to_string(transactions) +
                          " Transaction Controller rows are transactions, not requests (their "
                          "requests have rows of their own): " +
                          transactions_text(ticks.transactions()));
    if (format == "jtl")
        remarks.push_back("success is JMeter's verdict (its success column)" +
                          (ticks.passed_off_status()
                               ? ": " + std::to_string(ticks.passed_off_status()) +
                                     " responses with a status outside 200-399 that it passed "
                                     "count as successes"
                               : std::string()));
    return remarks;
}

}  // namespace

ImportResult import_run(const std::string& db_path, const ImportOptions& o) {
    if (!std::ifstream(o.file)) throw std::runtime_error("cannot read " + o.file);
    if (o.format == "bundle" || (o.format == "auto" && is_bundle(o.file)))
        return import_from_bundle(db_path, o);
    ImportResult result;
    result.format = o.format == "auto" ? detect(o.file) : o.format;
    const std::string sha256 = sha256_of(o.file);
    if (std::filesystem::exists(db_path)) {
        auto db = open_database(db_path, Access::read);
        refuse_imported(*db, o.file, sha256);
    }
    ReadRun run = read_run(o, result.format,
                           [&result](const std::string& w) { result.warnings.push_back(w); });
    result.requests = run.requests;
    if (result.requests == 0) throw std::runtime_error(o.file + " holds no request");
    if (o.progress) o.progress(1.0);
    result.remarks = remarks_of(result.format, run.ticks);
    for (const auto& w : result.warnings)
        run.note += "; " + w;
    for (const auto& r : result.remarks)
        run.note += "; " + r;
    const RunSpec spec = spec_of(o, result.format, run);

    auto db = open_database(db_path, Access::write);
    Transaction tx(*db);
    try {
        result.run_id =
            insert_run(*db, spec, run.imported_from, run.start_ms, sha256, run.latency.has_value());
    } catch (const StoreError&) {
        // Another import of the same file stored it while this one read (a UNIQUE hash).
        refuse_imported(*db, o.file, sha256);
        throw;
    }
    RunRows rows(*db);
    SummaryBuilder builder(spec.kind);
    int64_t seq = 0, last_ms = 0;
    run.drain([&](IntervalSample&& s) {
        builder.add(s);
        rows.sample(result.run_id, seq++, s);
        last_ms = s.t_ms;
    });
    RunSummary summary = builder.finish(RunStatus::imported);
    // The ticks of a summary-only run have counts but no latencies: the run's come whole.
    if (run.latency)
        for (auto* totals : {&summary.overall.totals, &summary.phases.front().totals})
            for (const auto& [op, h] : *run.latency)
                totals->ops[op].latency = h;
    rows.finish(result.run_id, summary, run.start_ms + last_ms);
    tx.commit();
    result.run_ids = {result.run_id};
    return result;
}

}  // namespace perflab
