// SPDX-License-Identifier: MIT
#include "run_import.h"

#include <openssl/evp.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "database.h"
#include "import_hlog.h"
#include "import_jtl.h"
#include "import_k6.h"
#include "import_ticks.h"
#include "import_vegeta.h"
#include "model/spec.h"
#include "model/summary.h"
#include "sample_rows.h"

namespace perflab {

namespace {

// vegeta and k6 write a JSON object per line, k6's typed; a JTL in CSV begins with its header;
// an HdrHistogram log with its comment lines, its legend or a tagged interval.
std::string detect(const std::string& file) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line) && line.find_first_not_of(" \t\r") == std::string::npos) {
    }
    const size_t at = line.find_first_not_of(" \t");
    if (at != std::string::npos && line[at] == '{') {
        // k6 writes typed lines ({"type": "Metric"|"Point", ...}); vegeta, one result each.
        const auto first = nlohmann::json::parse(line, nullptr, false);
        return first.is_object() && first.contains("type") && first.contains("metric") ? "k6"
                                                                                       : "vegeta";
    }
    if (line.rfind("#[", 0) == 0 || line.rfind("\"StartTimestamp\"", 0) == 0 ||
        line.rfind("Tag=", 0) == 0)
        return "hlog";
    if (line.find("timeStamp") != std::string::npos) return "jtl";
    throw ImportError(1, "",
                      "neither vegeta's or k6's JSON lines, a JTL in CSV with its header nor "
                      "an HdrHistogram log (give --format)");
}

// The file's SHA-256 in hex, read in pieces: the same file imported twice is refused.
std::string sha256_of(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(),
                                                                      EVP_MD_CTX_free);
    if (!ctx || !EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr))
        throw std::runtime_error("SHA-256 is not available");
    std::string buffer(1 << 16, '\0');
    while (in.read(buffer.data(), std::streamsize(buffer.size())) || in.gcount() > 0)
        EVP_DigestUpdate(ctx.get(), buffer.data(), size_t(in.gcount()));
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_DigestFinal_ex(ctx.get(), digest, &size);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    for (unsigned int i = 0; i < size; ++i)
        hex += {kHex[digest[i] >> 4], kHex[digest[i] & 15]};
    return hex;
}

const char* source_of(const std::string& format) {
    if (format == "jtl") return "JMeter results";
    if (format == "hlog") return "the HdrHistogram log";
    if (format == "k6") return "k6 results";
    return "vegeta results";
}

RunSpec spec_of(const ImportOptions& o, const std::string& format,
                const std::vector<IntervalSample>& ticks) {
    RunSpec spec;
    const std::string base = std::filesystem::path(o.file).filename().string();
    spec.name = o.name.empty() ? base : o.name;
    spec.tags = o.tags;
    spec.notes = "Imported from " + std::string(source_of(format)) + " " + base;
    // A log of gets and sets is a cache run's; anything else, requests to targets.
    bool cache = format == "hlog";
    for (const auto& [op, unused] : ticks.front().ops)
        cache = cache && (op == "get" || op == "set");
    spec.kind = cache ? RunKind::cache : RunKind::http;
    if (cache) {
        spec.cache = CacheSpec{};
        return spec;
    }
    HttpSpec http;
    for (const auto& [op, unused] : ticks.front().ops) {
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

int64_t insert_run(Connection& db, const RunSpec& spec, int64_t started_at_ms,
                   const std::string& sha256) {
    Statement q(db,
                "INSERT INTO runs (name, kind, spec_json, notes, status, started_at_ms, "
                "source_sha256) VALUES (?1, ?2, ?3, ?4, 'imported', ?5, ?6)");
    q.bind(1, spec.name).bind(2, to_string(spec.kind)).bind(3, to_json(spec).dump());
    q.bind(4, spec.notes).bind(5, started_at_ms).bind(6, sha256);
    q.run();
    const int64_t run = db.last_insert_id();
    Statement tag(db, "INSERT OR IGNORE INTO run_tags (run_id, tag) VALUES (?1, ?2)");
    for (const auto& t : spec.tags) {
        tag.bind(1, run).bind(2, t);
        tag.run();
    }
    return run;
}

}  // namespace

ImportResult import_run(const std::string& db_path, const ImportOptions& o) {
    if (!std::ifstream(o.file)) throw std::runtime_error("cannot read " + o.file);
    ImportResult result;
    result.format = o.format == "auto" ? detect(o.file) : o.format;
    const std::string sha256 = sha256_of(o.file);
    if (std::filesystem::exists(db_path)) {
        auto db = open_database(db_path, Access::read);
        Statement q(*db, "SELECT id FROM runs WHERE source_sha256 = ?1");
        q.bind(1, sha256);
        if (q.step())
            throw std::runtime_error(o.file + " was imported already, as run " +
                                     std::to_string(q.integer(0)));
        q.run();
    }
    std::vector<IntervalSample> samples;
    int64_t start_ms = 0;
    std::ifstream in(o.file);
    const auto size = double(std::filesystem::file_size(o.file));
    const auto report = [&] {
        if (o.progress && size > 0) o.progress(std::clamp(double(in.tellg()) / size, 0.0, 1.0));
    };
    if (result.format == "hlog") {
        HlogRun run = read_hlog(in);
        start_ms = run.start_ms;
        samples = std::move(run.ticks);
        for (const auto& s : samples)
            result.requests += s.total_ops();
    } else {
        ImportTicks ticks;
        uint64_t read = 0;
        const RecordSink sink = [&](ImportRecord&& r) {
            ticks.add(r);
            if (++read % 65536 == 0) report();
        };
        if (result.format == "jtl")
            read_jtl(in, sink);
        else if (result.format == "vegeta")
            read_vegeta(in, sink);
        else if (result.format == "k6")
            read_k6(in, sink);
        else
            throw std::runtime_error("--format: \"" + o.format +
                                     "\" is not auto, jtl, vegeta, k6 or hlog");
        result.requests = ticks.requests();
        start_ms = ticks.start_ms();
        samples = ticks.take();
    }
    if (result.requests == 0) throw std::runtime_error(o.file + " holds no request");
    if (o.progress) o.progress(1.0);
    const RunSpec spec = spec_of(o, result.format, samples);

    SummaryBuilder builder(spec.kind);
    for (const auto& s : samples)
        builder.add(s);
    auto db = open_database(db_path, Access::write);
    Transaction tx(*db);
    result.run_id = insert_run(*db, spec, start_ms, sha256);
    RunRows rows(*db);
    for (size_t i = 0; i < samples.size(); ++i)
        rows.sample(result.run_id, int64_t(i), samples[i]);
    rows.finish(result.run_id, builder.finish(RunStatus::imported), start_ms + samples.back().t_ms);
    tx.commit();
    return result;
}

}  // namespace perflab
