// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "agent_volume.h"
#include "engine.h"
#include "line_buffer.h"
#include "remote/hardware_profile.h"
#include "remote/ssh_cancel.h"
#include "remote/ssh_session.h"

namespace perflab {

// An agent's steady clock against ours, from the round trip with the smallest time.
struct ClockOffset {
    int64_t offset_ns = 0;       // the agent's clock minus ours
    int64_t uncertainty_ns = 0;  // half that round trip
};

// The controller's end of one remote agent: `perflab agent` started over an SSH exec channel.
class AgentLink {
  public:
    AgentLink(const AgentSpec& spec, std::shared_ptr<SshCancel> cancel);
    ~AgentLink();
    AgentLink(const AgentLink&) = delete;
    AgentLink& operator=(const AgentLink&) = delete;

    const std::string& host() const { return spec_.host; }
    // Its machine, as its hello told it (empty before open()).
    const HardwareProfile& profile() const { return profile_; }
    // Connects (the host key checked against known_hosts), starts the agent program and
    // compares its version with ours. Throws std::runtime_error naming the host and why.
    void open();
    ClockOffset measure_clock(int rounds);
    // Sends the agent its share (secrets resolved: the channel is the only way they go).
    void assign(const RunSpec& share, int k, int n);
    // Waits for the agent to have built its engine from the share, connected and prefilled.
    // Throws std::runtime_error naming the host and the agent's reason when it could not.
    void await_ready();
    // Tells the agent its start, `start` on our clock, then reads its records on a thread of
    // its own.
    void start(Clock::time_point start, ClockOffset clock);
    // Safe from any thread: the agent stops sending, its ops in flight still count.
    void request_stop();
    // Orders the agent's search step `phase` at `rate` from `start` on our clock. The reader's
    // thread sends it within kPollMs: it alone uses the channel once the run started.
    void order_step(int phase, double rate, double duration_s, Clock::time_point start);
    static constexpr int kPollMs = 100;
    // Moves the agent's ticks of `phase` that arrived since the last call and end by `upto_ms`
    // on the run's clock into `out`: a tick that came late joins the merged tick of its time,
    // not a later one.
    void take(IntervalSample& out, int phase,
              int64_t upto_ms = std::numeric_limits<int64_t>::max());
    // Each phase the agent found itself past the start of, and by how many µs, since the
    // last call.
    std::vector<std::pair<int, int64_t>> take_lates();
    // Everything arrived and not taken yet, every phase merged; left in place.
    IntervalSample untaken() const;

    struct State {
        int last_phase = -1;           // of its latest tick
        int64_t last_t_ms = -1;        // its latest tick's end, on the run's clock
        int phase_ended = -1;          // its latest phase whose figures are complete
        int step_ended = -1;           // its latest search step whose replies are in
        int connections = 0;           // in its latest tick
        double cpu_max = 0;            // the most CPU it used in a tick, % of its host's cores
        double cpu_last = -1;          // in its latest tick
        uint64_t ticks = 0;            // tick records read
        uint64_t tick_bytes = 0;       // their size on the channel
        bool ended = false;            // its run ended and every figure came
        bool lost = false;             // the connection or the agent failed before that
        std::string why;               // when lost
        std::string connection_error;  // its first failure to reach a server
        uint64_t prefill_sets = 0;     // as it told when ready
    };
    State state() const;
    // Waits until the agent has sent its tick ending near `t_ms` of `phase` (or is past it,
    // ended or lost), or until `until`; false on timeout: the agent is late.
    bool wait_tick(int phase, int64_t t_ms, int64_t slack_ms, Clock::time_point until);
    // Waits until the agent ended or was lost, or until `until`; false on timeout.
    bool wait_end(Clock::time_point until);

  private:
    // `why` with the host's name and the agent's last log lines.
    std::string fail(const std::string& why);
    std::string read_line(int timeout_ms);
    void read_log();
    std::string log_tail() const;
    void read_records();
    void handle(const std::string& line);
    void mark_lost(const std::string& why);

    AgentSpec spec_;
    SshSession session_;
    std::unique_ptr<SshChannel> channel_;
    LineBuffer records_;  // its stdout: records only
    std::string log_;     // the end of its stderr
    AgentVolume volume_;  // of its ticks
    HardwareProfile profile_;
    std::thread reader_;
    std::atomic<bool> stop_wanted_{false};
    std::atomic<bool> quit_{false};  // the reader stops reading: the link is going away
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    State state_;
    std::map<int, std::vector<IntervalSample>> pending_;  // per phase, in arrival order
    std::vector<std::pair<int, int64_t>> lates_;
    std::vector<std::string> outbox_;  // records for the reader's thread to send
    ClockOffset clock_;
};

}  // namespace perflab
