// SPDX-License-Identifier: MIT
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/spec.h"
#include "model/summary.h"
#include "remote/hardware_profile.h"
#include "sqlite.h"
#include "storage_samples.h"
#include "store_writer.h"

// Runs written to a store through the observer interface, as the controller writes them.
namespace perflab::test {

inline RunSpec cache_spec(const std::string& name = "stored run", int64_t keys = 1000) {
    const nlohmann::json j = {
        {"name", name},
        {"kind", "cache"},
        {"tick_ms", 1000},
        {"tags", {"nightly"}},
        {"notes", "from the spec"},
        {"phases", {{{"duration_s", 60}, {"concurrency", 4}}, {{"duration_s", 60}, {"rate", 500}}}},
        {"cache", {{"servers", {"127.0.0.1:11211"}}, {"keys", {{"count", keys}}}}}};
    auto parsed = parse_spec(j);
    EXPECT_TRUE(parsed) << parsed.error_text();
    return *parsed.spec;
}

inline HardwareProfile profile(const std::string& host = "loadgen") {
    HardwareProfile p;
    p.hostname = host;
    p.cpu_model = "Test CPU";
    p.sockets = 1;
    p.cores = 4;
    p.threads = 8;
    p.memory_total_bytes = 16ull << 30;
    return p;
}

// A run written through the observer interface, as the controller would.
struct WrittenRun {
    int64_t id = 0;
    std::vector<IntervalSample> samples;
    RunSummary summary;
};

// `jvm_flags`, when given, is the command line of a JVM the run probed.
inline WrittenRun write_run(const std::string& db, int ticks,
                            const HardwareProfile& host = profile(),
                            const RunSpec& spec = cache_spec(), const std::string& jvm_flags = "") {
    WrittenRun run;
    StoreWriter writer(db, spec, host);
    if (!jvm_flags.empty()) {
        HardwareProfile server = profile("app-server");
        server.server_notes = jvm_flags;
        writer.add_host(server, "jvm app-server 'Bootstrap'");
    }
    run.id = writer.run_id();
    SummaryBuilder builder(RunKind::cache);
    writer.on_start(spec);
    writer.on_event({0, "phase", "phase 1: concurrency 4"});
    for (int i = 0; i < ticks; ++i) {
        const int phase = i < ticks / 2 ? 0 : 1;
        if (i == ticks / 2) {
            writer.on_phase_end(builder.phase(0));
            writer.on_event({int64_t(i) * 1000, "phase", "phase 2: rate 500/s"});
        }
        auto s = synthetic_tick(i, 1000, phase, 2000);
        builder.add(s);
        writer.on_sample(s);
        ProbeSample p;
        p.t_ms = s.t_ms;
        p.source = "local";
        p.kind = "host";
        p.values = {{"cpu_user", 12.5 + i}, {"cpu_busy", 20.0 + i}, {"load1", 0.5}};
        writer.on_probe_sample(p);
        run.samples.push_back(std::move(s));
    }
    writer.on_phase_end(builder.phase(1));
    run.summary = builder.finish(RunStatus::completed);
    writer.on_end(run.summary);
    EXPECT_EQ(writer.finish(), "");
    return run;
}

// A one-phase run of `ticks` synthetic ticks of 2000 ops, tick i changed by change(tick, i)
// before it is stored, and its summary by finish() before the run ends.
inline WrittenRun write_changed_run(const std::string& db, const RunSpec& spec, int ticks,
                                    const std::function<void(IntervalSample&, int)>& change,
                                    const std::function<void(RunSummary&)>& finish = {}) {
    WrittenRun run;
    StoreWriter writer(db, spec, profile());
    run.id = writer.run_id();
    SummaryBuilder builder(RunKind::cache);
    writer.on_start(spec);
    for (int i = 0; i < ticks; ++i) {
        auto s = synthetic_tick(i, 1000, 0, 2000);
        change(s, i);
        builder.add(s);
        writer.on_sample(s);
        run.samples.push_back(std::move(s));
    }
    writer.on_phase_end(builder.phase(0));
    run.summary = builder.finish(RunStatus::completed);
    if (finish) finish(run.summary);
    writer.on_end(run.summary);
    EXPECT_EQ(writer.finish(), "");
    return run;
}

// The columns of the samples table, as a migration left them.
inline std::vector<std::string> sample_columns(Connection& db) {
    Statement q(db, "SELECT name FROM pragma_table_info('samples')");
    std::vector<std::string> out;
    while (q.step())
        out.push_back(q.text(0));
    return out;
}

}  // namespace perflab::test
