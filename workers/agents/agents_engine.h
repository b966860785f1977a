// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "agent_link.h"
#include "engine.h"
#include "model/agent_totals.h"

namespace perflab {

// The load of a spec with agents: each agent builds its engine from its share (agent_share.h,
// the spec's secrets resolved here), connects and prefills; then all start at a common moment,
// and this engine hands the controller their ticks merged — counts summed, histograms merged —
// so the store, the console and the GUI see one run. A local agent runs its share in this
// process. An agent lost mid-run is told as an event and its share is missing from then on;
// with "on_agent_loss": "stop" the run stops.
class AgentsEngine : public LoadEngine {
  public:
    AgentsEngine(RunSpec spec, std::shared_ptr<SshCancel> cancel);
    ~AgentsEngine() override;

    void start() override;
    void begin_phase(const PhasePlan& plan) override;
    bool phase_done() const override;
    bool drained(int phase) const override;
    void collect(IntervalSample& out, int phase, Clock::time_point origin) override;
    void stop() override;
    void cancel() override;
    // The local agent's first failure to reach a server, else the first remote agent's.
    std::string first_connection_error() const override;
    // Every agent's, each having set its share of the keys; the remote agents' as their ends
    // told them.
    uint64_t prefill_sets() const override;
    std::vector<RunEvent> take_events() override;
    bool wants_stop() const override;
    // Each agent's figures so far, in the spec's order; whole once the last phase drained.
    std::vector<AgentTotals> agent_totals() const override { return totals_; }
    Clock::duration step_lead() const override;
    std::optional<Clock::time_point> common_start() const override { return start_; }
    // The remote agents' machines, once start() connected them.
    std::vector<HardwareProfile> agent_profiles() const;

  private:
    // Each remote agent: ready, or a std::runtime_error naming it.
    void open_agents();
    // Returns the end on the run's clock, in ms, up to which agents' ticks belong to it.
    int64_t await_ticks(int phase, Clock::time_point origin);
    // What a lost agent i's share of `phase` had due by `upto_ms` and neither told nor was
    // counted before: the ops to count as dropped now.
    uint64_t lost_share(size_t i, int phase, int64_t upto_ms);
    // Every agent's order for `phase`, unless it was ordered to the same start already.
    void order(int phase, const Phase& plan, Clock::time_point start);
    // How long, in ticks past its grace, a tick waits for an agent behind.
    static constexpr int kBehindTicks = 2;
    static constexpr auto kSliver = std::chrono::milliseconds(5);
    bool all_live(bool (*done)(const AgentLink::State&, int), int phase) const;

    RunSpec spec_;
    std::shared_ptr<SshCancel> cancel_;
    std::vector<std::unique_ptr<AgentLink>> links_;
    std::vector<bool> loss_told_;
    std::vector<bool> late_told_;
    std::vector<bool> behind_;   // in the tick being collected
    std::vector<int> share_of_;  // each remote agent's k of n
    // Per agent and phase: the ops it told as sent or dropped, and those its loss dropped.
    struct ShareBook {
        uint64_t told = 0;
        uint64_t lost = 0;
    };
    std::vector<std::map<int, ShareBook>> books_;
    std::map<int, std::pair<Phase, Clock::time_point>> plans_;  // each phase begun, as run
    std::map<int, Clock::time_point> ordered_;                  // each phase's start told
    std::vector<AgentTotals> totals_;  // the remote agents', then the local one's
    std::unique_ptr<LoadEngine> local_;
    // The local engine's figures not yet collected when it stopped, per phase: taken then so
    // that each agent's totals are whole when stop() returns.
    std::map<int, IntervalSample> local_rest_;
    bool local_stopped_ = false;
    RunSpec local_share_;
    std::vector<RunEvent> events_;
    Clock::time_point start_{};
    int phase_ = -1;
};

// The engine a spec asks for: its agents' when it names any, else this machine's own
// (make_engine). `agents` is set to the agents' engine, which the result owns, or nullptr.
std::unique_ptr<LoadEngine> make_run_engine(const RunSpec& spec, std::shared_ptr<SshCancel> cancel,
                                            const AgentsEngine** agents);

}  // namespace perflab
