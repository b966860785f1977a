// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "cluster_map.h"
#include "command_program.h"
#include "engine.h"
#include "first_error.h"
#include "phase_board.h"
#include "phase_loads.h"
#include "tls_filter.h"

namespace perflab {

class AsyncWorker;

// The "async" cache driver: Boost.Asio, one io_context per worker thread (cache.threads,
// 0: one per usable core), the phase's connections spread over the threads, our own codec for
// memcached's text and meta protocols, requests pipelined up to cache.pipeline per
// connection. Built so that the load generator is not the limit.
class AsyncEngine final : public LoadEngine {
  public:
    explicit AsyncEngine(const RunSpec& spec);
    ~AsyncEngine() override;

    void start() override;
    void begin_phase(const PhasePlan& plan) override;
    bool phase_done() const override { return board_.phase_done(); }
    bool drained(int phase) const override;
    void collect(IntervalSample& out, int phase, Clock::time_point origin) override;
    void stop() override;
    void cancel() override;
    uint64_t prefill_sets() const override { return prefill_sets_.load(); }
    std::string first_connection_error() const override { return unreached_.text(); }

  private:
    void resolve();
    void await_connections();
    void throw_if_refused() const;

    RunSpec spec_;
    PhaseBoard board_;
    PhaseLoads loads_;
    std::vector<int> slot_loads_;  // per slot: the load its phase uses
    std::vector<boost::asio::ip::tcp::endpoint> servers_;
    std::optional<ClusterMap> cluster_;  // Redis Cluster: the slot map read at the start
    // cache.commands, compiled once.
    std::optional<CommandProgram> commands_;
    std::optional<TlsContext> tls_;  // "redis": {"tls": ...}: one for every thread's links
    FirstError unreached_;
    FirstError refused_;
    // cancel() comes from another thread and may meet start() still adding workers.
    std::mutex workers_mutex_;
    std::vector<std::unique_ptr<AsyncWorker>> workers_;
    std::atomic<int> connecting_{0};  // links whose first connect has not ended yet
    std::atomic<uint64_t> prefill_sets_{0};
    std::atomic<int> prefilling_{0};
    std::atomic<bool> cancel_{false};
};

}  // namespace perflab
