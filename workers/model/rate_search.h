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
// lowest failing rate until they are within the precision. Then, with a confirmation, it
// holds the highest passing rate for confirm_s: a failed hold steps down by the precision,
// up to kMaxHolds holds, so max_rate is a rate that was sustained for the hold's length.
class RateSearch {
  public:
    explicit RateSearch(const SearchSpec& spec);

    bool done() const { return done_; }
    double rate() const { return rate_; }      // the next step's
    bool holding() const { return holding_; }  // the next step is a confirmation hold
    double duration_s() const;                 // the next step's length
    void record(bool passed);                  // the verdict of the step at rate()
    // With a confirmation, only a rate a hold passed.
    std::optional<double> max_rate() const { return pass_; }
    std::optional<double> first_failing_rate() const { return fail_; }
    bool confirmed() const { return confirmed_; }  // a hold passed
    // Per step recorded: whether it was a hold.
    const std::vector<bool>& holds() const { return holds_; }

    // The most steps a search can take, so an engine's phases can be allotted up front.
    static int max_steps(const SearchSpec& spec);
    static constexpr int kMaxHolds = 4;

  private:
    void end_bisection();

    SearchSpec spec_;
    double rate_;
    std::optional<double> pass_;
    std::optional<double> fail_;
    bool done_ = false;
    bool holding_ = false;
    bool confirmed_ = false;
    std::vector<bool> holds_;
};

// The confirmation hold's length: confirm_s, or 3 × step_s when unset.
double confirm_seconds(const SearchSpec& search);

// One step at one rate: an open-model phase of duration_s (0: step_s) on search.concurrency
// connections.
Phase search_step(const SearchSpec& search, double rate, double duration_s = 0);
// The first phase that is a step: 1 after a warm-up, else 0.
int first_step_phase(const SearchSpec& search);

// Judges one step from its phase's complete totals.
SearchStep judge_step(const SloSpec& slo, RunKind kind, int phase, double rate,
                      const PhaseTotals& totals, std::optional<uint64_t> full_gcs);

}  // namespace perflab
