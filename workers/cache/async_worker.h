// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "async_connection.h"
#include "cache_stats.h"
#include "cluster_map.h"
#include "command_program.h"
#include "first_error.h"
#include "io/reactor.h"
#include "key_chooser.h"
#include "model/double_buffer.h"
#include "phase_board.h"
#include "phase_loads.h"
#include "server_picker.h"
#include "tls_filter.h"
#include "value_source.h"

namespace perflab {

// One thread of the async driver: a reactor, its share of the connections, and what
// they share without locks (keys, values, server choice, the thread's recorder).
class AsyncWorker {
  public:
    // `seed`: the run's; this thread's streams derive from it and `thread_index`. `cluster`:
    // a Redis Cluster's slot map at the start (`servers` are its masters), copied. `tls`: the
    // run's TLS context ("redis": {"tls": ...}), shared; null without TLS.
    AsyncWorker(const CacheSpec& cache, const std::vector<boost::asio::ip::tcp::endpoint>& servers,
                PhaseBoard& board, const std::atomic<bool>& cancel, uint64_t seed, int thread_index,
                const std::vector<int>& connections, FirstError& unreached, FirstError& refused,
                const ClusterMap* cluster, const TlsContext* tls);
    ~AsyncWorker();
    AsyncWorker(const AsyncWorker&) = delete;
    AsyncWorker& operator=(const AsyncWorker&) = delete;

    // Runs the thread: connects (calling `connected` once per link when its first connect
    // ended, either way), prefills if `prefill_done` is set (called from the thread with the
    // keys this worker stored), then follows the board until it closes.
    void launch(const PrefillKeys& prefill_keys, std::function<void(uint64_t)> prefill_done,
                std::function<void()> connected);
    void link_settled() {
        if (connected_) connected_();
    }
    // From any thread: the board changed (a phase began, or it closed).
    void notify();
    // From any thread: requests still in flight at the close are failed as cancelled at once.
    void abandon();
    void join();
    void drain(IntervalSample& out, int phase, Clock::time_point origin) {
        stats(phase).drain([&](const CacheStats& s) { s.add_to(out, origin, command_names_); });
    }

    const CacheSpec& cache() const noexcept { return cache_; }
    const std::vector<boost::asio::ip::tcp::endpoint>& servers() const noexcept { return servers_; }
    Reactor& reactor() noexcept { return reactor_; }
    // Where a link reads its socket, and where it opens TLS records: the thread's, as only one
    // link reads at a time.
    std::span<char> read_scratch() noexcept { return {read_scratch_.get(), kScratch}; }
    std::span<char> plain_scratch() noexcept { return {plain_scratch_.get(), kScratch}; }
    PhaseBoard& board() noexcept { return board_; }
    // The current phase's keys and values: its load's (PhaseLoads).
    KeyChooser& keys() noexcept { return *keys_now_; }
    ValueSource& values() noexcept { return *values_now_; }
    // A phase's own, for an op of an earlier phase written again after the boundary (a
    // cluster's redirection answered late); a prefill's (phase < 0): the current ones.
    KeyChooser& keys_of(int phase) noexcept {
        const int load = phase < 0 ? load_ : load_of(phase);
        return load == 0 ? keys_ : more_keys_[size_t(load) - 1];
    }
    ValueSource& values_of(int phase) noexcept {
        const int load = phase < 0 ? load_ : load_of(phase);
        return load == 0 ? values_ : more_values_[size_t(load) - 1];
    }
    // Before launch(): the choosers of every load beside the cache section's, and where the
    // board's slots say which load each uses (written before each slot is published).
    void prepare_loads(const PhaseLoads& loads, const std::vector<int>& slot_loads, uint64_t seed,
                       int thread_index);
    // Before launch(), for a run of cache.commands: the program this thread renders them with
    // (shared, read-only), its streams derived from `seed` and `thread_index` of `threads`.
    void prepare_commands(const CommandProgram& program, uint64_t seed, int thread_index,
                          int threads);
    // Null unless the run sends cache.commands.
    const CommandProgram* commands() const noexcept { return commands_; }
    // Writes command c of the current phase's keys and values; returns its values' bytes.
    uint64_t render_command(size_t c, OutBuffer& out, std::string_view key) {
        return commands_->render(c, out, key, values(), *command_state_);
    }
    int load() const noexcept { return load_; }
    int load_of(int slot) const noexcept { return (*slot_loads_)[size_t(slot)]; }
    const ServerPicker& picker() const noexcept { return picker_; }
    // This thread's slot map, which the MOVED replies its connections see keep current; null
    // unless the servers are a Redis Cluster.
    ClusterMap* cluster() noexcept { return cluster_ ? &*cluster_ : nullptr; }
    // The run's TLS context; null unless its links speak TLS.
    const TlsContext* tls() const noexcept { return tls_; }
    // A phase's figures, by phase parity: the phase before may still be draining.
    DoubleBuffer<CacheStats>& stats(int phase) noexcept { return stats_[size_t(phase) & 1]; }
    void op_started(int phase) noexcept { ++inflight_[size_t(phase) & 1]; }
    void op_ended(int phase) noexcept {
        if (--inflight_[size_t(phase) & 1] == 0 && phase == draining_) finish_drain();
    }
    bool cancelled() const noexcept { return cancel_.load(std::memory_order_relaxed); }
    void on_connection_closed();
    void note_unreached(const boost::asio::ip::tcp::endpoint& server, const std::string& error);
    // A Redis server refused a connection's login (AUTH, SELECT): the run cannot start.
    void note_refused(const boost::asio::ip::tcp::endpoint& server, const std::string& error);
    bool refused() const noexcept { return refused_here_; }

  private:
    void on_board_change();
    void finish_drain();
    void close_all(CacheError kind);
    void watch_timeouts();
    void start_prefill(const PrefillKeys& keys, std::function<void(uint64_t)> done);

    const CacheSpec& cache_;
    const std::vector<boost::asio::ip::tcp::endpoint>& servers_;
    PhaseBoard& board_;
    const std::atomic<bool>& cancel_;
    FirstError& unreached_;
    FirstError& refused_;
    bool refused_here_ = false;
    static constexpr size_t kScratch = 64 * 1024;
    Reactor reactor_;
    std::unique_ptr<char[]> read_scratch_{new char[kScratch]};
    std::unique_ptr<char[]> plain_scratch_;
    Reactor::Timer close_deadline_;
    Reactor::Timer watchdog_;
    KeyChooser keys_;
    ValueSource values_;
    // Loads 1.. of PhaseLoads; load 0 is keys_ and values_.
    std::vector<KeyChooser> more_keys_;
    std::vector<ValueSource> more_values_;
    KeyChooser* keys_now_ = &keys_;
    ValueSource* values_now_ = &values_;
    const std::vector<int>* slot_loads_ = nullptr;
    int load_ = 0;
    ServerPicker picker_;
    std::optional<ClusterMap> cluster_;
    const TlsContext* tls_;
    const CommandProgram* commands_ = nullptr;
    std::optional<CommandProgram::State> command_state_;
    std::vector<std::string> command_names_;  // empty: the run's ops are get, set and mget
    DoubleBuffer<CacheStats> stats_[2];
    int inflight_[2] = {0, 0};
    int draining_ = -1;  // the ended phase whose requests are still in flight
    bool abandon_ = false;
    std::function<void()> connected_;
    std::vector<std::unique_ptr<AsyncConnection>> connections_;
    int seen_ = -1;
    int prefilling_ = 0;
    int closed_ = 0;
    uint64_t prefill_stored_ = 0;
    std::thread thread_;
};

}  // namespace perflab
