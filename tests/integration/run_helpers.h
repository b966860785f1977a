// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <vector>

#include "engine.h"
#include "model/observer.h"
#include "run_controller.h"

namespace perflab::test {

// Keeps every sample a run produced, for assertions after the run.
class Collector : public RunObserver {
  public:
    void on_sample(const IntervalSample& s) override {
        std::lock_guard lock(mutex_);
        samples.push_back(s);
    }
    void on_event(const RunEvent& e) override {
        std::lock_guard lock(mutex_);
        events.push_back(e);
    }
    std::vector<IntervalSample> samples;
    std::vector<RunEvent> events;

  private:
    std::mutex mutex_;
};

// Parses (asserting validity) and runs a spec in this process; `watcher`, if given, sees the
// run as it happens.
inline RunSummary run_json(const nlohmann::json& spec_json, Collector* collector = nullptr,
                           RunObserver* watcher = nullptr) {
    auto parsed = parse_spec(spec_json);
    if (!parsed) throw std::runtime_error("invalid spec: " + parsed.error_text());
    RunController controller(*parsed.spec, make_engine(*parsed.spec));
    if (collector) controller.add_observer(collector);
    if (watcher) controller.add_observer(watcher);
    return controller.run();
}

}  // namespace perflab::test
