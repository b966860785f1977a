// SPDX-License-Identifier: MIT
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "http/http_engine.h"
#include "model/observer.h"
#include "process.h"
#include "run_controller.h"

namespace perflab::test {

struct HttpRun {
    RunSummary summary;
    std::vector<IntervalSample> samples;

    // The most connections open at a tick's end.
    int max_connections() const {
        int n = 0;
        for (const auto& s : samples)
            n = std::max(n, s.connections);
        return n;
    }
};

// Runs an http spec in this process and keeps every tick's sample; `watcher`, if given, sees
// the run as it happens.
inline HttpRun run_http(const nlohmann::json& json, RunObserver* watcher = nullptr) {
    struct Keep : RunObserver {
        std::vector<IntervalSample>* out;
        void on_sample(const IntervalSample& s) override { out->push_back(s); }
    };
    HttpRun run;
    const SpecResult parsed = parse_spec(json);
    EXPECT_TRUE(parsed) << parsed.error_text();
    if (!parsed) return run;
    auto engine = std::make_unique<HttpEngine>(*parsed.spec);
    RunController controller(*parsed.spec, std::move(engine));
    Keep keep;
    keep.out = &run.samples;
    controller.add_observer(&keep);
    if (watcher) controller.add_observer(watcher);
    run.summary = controller.run();
    return run;
}

// {"kind": "http", "phases": phases, "http": {"targets": [{"url": url}], ...extra}}
inline nlohmann::json http_spec(const std::string& url, nlohmann::json phases,
                                nlohmann::json extra = nlohmann::json::object()) {
    nlohmann::json http = {{"targets", {{{"url", url}}}}, {"threads", 2}};
    for (const auto& [k, v] : extra.items())
        http[k] = v;
    return {{"name", "test"}, {"kind", "http"}, {"phases", phases}, {"http", http}};
}

// `perflab run` must refuse the spec as bad input: exit 2, naming `field` on stderr.
inline void expect_bad_input(const nlohmann::json& spec, const std::string& field) {
    TempDir dir;
    dir.write("spec.json", spec.dump());
    const Output out = run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store", "-q"}, 60);
    EXPECT_EQ(out.code, 2) << out.err;
    EXPECT_NE(out.err.find(field), std::string::npos) << "expected " << field << " in: " << out.err;
}

// Requests whose latency was above `us`, from the histogram's buckets.
inline uint64_t slower_than(const Histogram& h, int64_t us) {
    uint64_t n = 0;
    h.for_each_bucket([&](int64_t lowest, int64_t, uint64_t count) {
        if (lowest > us) n += count;
    });
    return n;
}

inline uint64_t status_count(const IntervalSample& s, int code) {
    const auto it = s.status_codes.find(code);
    return it == s.status_codes.end() ? 0 : it->second;
}

inline uint64_t error_count(const IntervalSample& s, const std::string& text) {
    const auto it = s.errors.find(text);
    return it == s.errors.end() ? 0 : it->second;
}

}  // namespace perflab::test
