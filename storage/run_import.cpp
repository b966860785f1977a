// SPDX-License-Identifier: MIT
#include "run_import.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "database.h"
#include "import_jtl.h"
#include "import_ticks.h"
#include "import_vegeta.h"
#include "model/spec.h"
#include "model/summary.h"
#include "sample_rows.h"

namespace perflab {

namespace {

// vegeta writes one JSON object per line; a JTL in CSV begins with its header.
std::string detect(const std::string& file) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line) && line.find_first_not_of(" \t\r") == std::string::npos) {
    }
    const size_t at = line.find_first_not_of(" \t");
    if (at != std::string::npos && line[at] == '{') return "vegeta";
    if (line.find("timeStamp") != std::string::npos) return "jtl";
    throw ImportError(1, "",
                      "neither vegeta's JSON lines nor a JTL in CSV with its header "
                      "(give --format)");
}

RunSpec spec_of(const ImportOptions& o, const std::string& format,
                const std::vector<IntervalSample>& ticks) {
    RunSpec spec;
    const std::string base = std::filesystem::path(o.file).filename().string();
    spec.name = o.name.empty() ? base : o.name;
    spec.kind = RunKind::http;
    spec.tags = o.tags;
    spec.notes =
        "Imported from " + std::string(format == "jtl" ? "JMeter" : "vegeta") + " results " + base;
    HttpSpec http;
    for (const auto& [op, unused] : ticks.front().ops) {
        HttpTarget t;
        if (const size_t space = op.find(' '); format == "vegeta" && space != std::string::npos)
            t.method = op.substr(0, space), t.url = op.substr(space + 1);
        else
            t.url = op;
        http.targets.push_back(t);
    }
    spec.http = http;
    return spec;
}

int64_t insert_run(Connection& db, const RunSpec& spec, int64_t started_at_ms) {
    Statement q(db,
                "INSERT INTO runs (name, kind, spec_json, notes, status, started_at_ms) "
                "VALUES (?1, ?2, ?3, ?4, 'completed', ?5)");
    q.bind(1, spec.name).bind(2, to_string(spec.kind)).bind(3, to_json(spec).dump());
    q.bind(4, spec.notes).bind(5, started_at_ms);
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
    ImportTicks ticks;
    std::ifstream in(o.file);
    const RecordSink sink = [&](ImportRecord&& r) { ticks.add(r); };
    if (result.format == "jtl")
        read_jtl(in, sink);
    else if (result.format == "vegeta")
        read_vegeta(in, sink);
    else
        throw std::runtime_error("--format: \"" + o.format + "\" is not auto, jtl or vegeta");
    if (ticks.requests() == 0) throw std::runtime_error(o.file + " holds no request");
    result.requests = ticks.requests();
    const int64_t start_ms = ticks.start_ms();
    const std::vector<IntervalSample> samples = ticks.take();
    const RunSpec spec = spec_of(o, result.format, samples);

    SummaryBuilder builder(RunKind::http);
    for (const auto& s : samples)
        builder.add(s);
    auto db = open_database(db_path, Access::write);
    Transaction tx(*db);
    result.run_id = insert_run(*db, spec, start_ms);
    RunRows rows(*db);
    for (size_t i = 0; i < samples.size(); ++i)
        rows.sample(result.run_id, int64_t(i), samples[i]);
    rows.finish(result.run_id, builder.finish(RunStatus::completed),
                start_ms + samples.back().t_ms);
    tx.commit();
    return result;
}

}  // namespace perflab
