// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "search_result.h"
#include "slo.h"
#include "spec.h"
#include "summary.h"

namespace perflab {

// Which rate each step of a saturation search runs at. The rate doubles from rate_from
// until a step fails (or rate_to passes), then bisects between the highest passing and the
// lowest failing rate until they are within the precision.
class RateSearch {
  public:
    explicit RateSearch(const SearchSpec& spec);

    bool done() const { return done_; }
    double rate() const { return rate_; }  // the next step's
    void record(bool passed);              // the verdict of the step at rate()
    std::optional<double> max_rate() const { return pass_; }
    std::optional<double> first_failing_rate() const { return fail_; }

    // The most steps a search can take, so an engine's phases can be allotted up front.
    static int max_steps(const SearchSpec& spec);

  private:
    SearchSpec spec_;
    double rate_;
    std::optional<double> pass_;
    std::optional<double> fail_;
    bool done_ = false;
};

// One step at one rate: an open-model phase of step_s on search.concurrency connections.
Phase search_step(const SearchSpec& search, double rate);
// The first phase that is a step: 1 after a warm-up, else 0.
int first_step_phase(const SearchSpec& search);

// Judges one step from its phase's complete totals.
SearchStep judge_step(const SloSpec& slo, RunKind kind, int phase, double rate,
                      const PhaseTotals& totals, std::optional<uint64_t> full_gcs);

}  // namespace perflab
