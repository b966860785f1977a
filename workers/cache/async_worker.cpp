// SPDX-License-Identifier: MIT
#include "async_worker.h"

#include <algorithm>

#include "model/run_seed.h"

namespace perflab {

AsyncWorker::AsyncWorker(const CacheSpec& cache,
                         const std::vector<boost::asio::ip::tcp::endpoint>& servers,
                         PhaseBoard& board, const std::atomic<bool>& cancel, uint64_t seed,
                         int thread_index, const std::vector<int>& connections,
                         FirstError& unreached, FirstError& refused, const ClusterMap* cluster,
                         const TlsContext* tls)
    : cache_(cache),
      servers_(servers),
      board_(board),
      cancel_(cancel),
      unreached_(unreached),
      refused_(refused),
      plain_scratch_(tls ? new char[kScratch] : nullptr),
      close_deadline_(reactor_, [this] { close_all(CacheError::timeout); }),
      watchdog_(reactor_,
                [this] {
                    if (board_.current() == PhaseBoard::kClosed) return;
                    const auto now = Clock::now();
                    for (auto& c : connections_)
                        c->expire_stalled(now);
                    watch_timeouts();
                }),
      keys_(cache.keys, stream_seed(seed, uint64_t(thread_index), Stream::keys)),
      values_(cache.value_size, stream_seed(seed, uint64_t(thread_index), Stream::values),
              replay_value_bytes(cache)),
      picker_(cache),
      tls_(tls),
      stats_{DoubleBuffer<CacheStats>(CacheStats(cache.commands.size())),
             DoubleBuffer<CacheStats>(CacheStats(cache.commands.size()))} {
    if (cluster) cluster_ = *cluster;
    for (const int index : connections)
        connections_.push_back(std::make_unique<AsyncConnection>(*this, index));
}

AsyncWorker::~AsyncWorker() {
    join();
}

void AsyncWorker::prepare_loads(const PhaseLoads& loads, const std::vector<int>& slot_loads,
                                uint64_t seed, int thread_index) {
    slot_loads_ = &slot_loads;
    const auto& all = loads.loads();
    more_keys_.reserve(all.size());
    more_values_.reserve(all.size());
    for (size_t l = 1; l < all.size(); ++l) {
        const uint64_t s = PhaseLoads::seed(seed, int(l));
        more_keys_.emplace_back(all[l].keys, stream_seed(s, uint64_t(thread_index), Stream::keys));
        more_values_.emplace_back(all[l].value_size,
                                  stream_seed(s, uint64_t(thread_index), Stream::values),
                                  replay_value_bytes(cache_));
    }
    for (auto& c : connections_)
        c->prepare_loads(loads);
}

void AsyncWorker::prepare_commands(const CommandProgram& program, uint64_t seed, int thread_index,
                                   int threads) {
    commands_ = &program;
    command_state_ = program.state(stream_seed(seed, uint64_t(thread_index), Stream::templates),
                                   uint64_t(thread_index), uint64_t(threads));
    command_names_ = program.names();
    for (auto& c : connections_)
        c->prepare_commands(program);
}

void AsyncWorker::launch(const PrefillKeys& prefill_keys,
                         std::function<void(uint64_t)> prefill_done,
                         std::function<void()> connected) {
    connected_ = std::move(connected);
    thread_ = std::thread([this, prefill_keys, done = std::move(prefill_done)]() mutable {
        for (auto& c : connections_)
            c->open();
        if (done) start_prefill(prefill_keys, std::move(done));
        watch_timeouts();
        reactor_.run();
    });
}

void AsyncWorker::start_prefill(const PrefillKeys& keys, std::function<void(uint64_t)> done) {
    prefilling_ = int(connections_.size());
    auto finished = [this, done = std::move(done)](uint64_t stored) {
        prefill_stored_ += stored;
        if (--prefilling_ == 0) done(prefill_stored_);
    };
    for (auto& c : connections_)
        c->begin_prefill(keys, finished);
}

void AsyncWorker::notify() {
    reactor_.post([this] { on_board_change(); });
}

void AsyncWorker::abandon() {
    reactor_.post([this] {
        abandon_ = true;
        if (board_.current() == PhaseBoard::kClosed) close_all(CacheError::cancelled);
    });
}

void AsyncWorker::on_board_change() {
    const int current = board_.current();
    if (current == seen_) return;
    const int ended = seen_;
    seen_ = current;
    if (current >= 0) {
        load_ = load_of(current);
        keys_now_ = load_ == 0 ? &keys_ : &more_keys_[size_t(load_) - 1];
        values_now_ = load_ == 0 ? &values_ : &more_values_[size_t(load_) - 1];
        for (auto& c : connections_)
            c->begin_phase(board_.plan(current));
        if (ended >= 0) {
            draining_ = ended;
            if (inflight_[size_t(ended) & 1] == 0) finish_drain();
        }
        return;
    }
    if (current != PhaseBoard::kClosed) return;
    // Replies still in flight are awaited, so every request sent is counted, but not for
    // longer than a request's timeout: then they count as timeouts.
    reactor_.release();
    watchdog_.cancel();
    close_deadline_.arm_after(std::chrono::milliseconds(cache_.timeout_ms));
    for (auto& c : connections_)
        c->close_when_idle();
    if (abandon_) close_all(CacheError::cancelled);
}

void AsyncWorker::finish_drain() {
    board_.mark_drained(draining_);
    draining_ = -1;
}

void AsyncWorker::close_all(CacheError kind) {
    for (auto& c : connections_)
        c->abandon(kind);
    reactor_.stop();
}

void AsyncWorker::note_unreached(const boost::asio::ip::tcp::endpoint& server,
                                 const std::string& error) {
    unreached_.note([&] {
        return server.address().to_string() + ":" + std::to_string(server.port()) + ": " + error;
    });
}

void AsyncWorker::note_refused(const boost::asio::ip::tcp::endpoint& server,
                               const std::string& error) {
    refused_here_ = true;
    refused_.note([&] {
        return server.address().to_string() + ":" + std::to_string(server.port()) + ": " + error;
    });
}

// Looks for stalled links a few times per timeout, at most every 100 ms.
void AsyncWorker::watch_timeouts() {
    watchdog_.arm_after(std::clamp(std::chrono::milliseconds(cache_.timeout_ms / 4),
                                   std::chrono::milliseconds(1), std::chrono::milliseconds(100)));
}

void AsyncWorker::on_connection_closed() {
    if (++closed_ == int(connections_.size())) close_deadline_.cancel();
}

void AsyncWorker::join() {
    if (thread_.joinable()) thread_.join();
}

}  // namespace perflab
