// SPDX-License-Identifier: MIT
#include "libmemcached_engine.h"

#include <libmemcached/memcached.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "cache_stats.h"
#include "key_chooser.h"
#include "model/double_buffer.h"
#include "model/run_seed.h"
#include "op_mix.h"
#include "prefill_keys.h"
#include "value_source.h"

namespace perflab {

namespace {

constexpr auto kLate = std::chrono::milliseconds(1);
constexpr auto kMaxBackoff = std::chrono::milliseconds(100);
constexpr size_t kKeyRoom = 256;  // a memcached key is at most 250 bytes

CacheError classify(memcached_return_t rc) {
    switch (rc) {
        case MEMCACHED_TIMEOUT:
            return CacheError::timeout;
        case MEMCACHED_CONNECTION_FAILURE:
        case MEMCACHED_CONNECTION_SOCKET_CREATE_FAILURE:
        case MEMCACHED_CONNECTION_BIND_FAILURE:
        case MEMCACHED_HOST_LOOKUP_FAILURE:
        case MEMCACHED_ERRNO:
        case MEMCACHED_SERVER_MARKED_DEAD:
        case MEMCACHED_SERVER_TEMPORARILY_DISABLED:
        case MEMCACHED_UNKNOWN_READ_FAILURE:
        case MEMCACHED_READ_FAILURE:
        case MEMCACHED_WRITE_FAILURE:
        case MEMCACHED_NO_SERVERS:
            return CacheError::connection;
        default:
            return CacheError::server;
    }
}

struct McDeleter {
    void operator()(memcached_st* mc) const { memcached_free(mc); }
};
using McHandle = std::unique_ptr<memcached_st, McDeleter>;

McHandle connect(const CacheSpec& cache) {
    McHandle mc(memcached_create(nullptr));
    if (!mc) throw std::runtime_error("libmemcached: cannot create a handle");
    const auto timeout_ms = uint64_t(cache.timeout_ms);
    memcached_behavior_set(mc.get(), MEMCACHED_BEHAVIOR_BINARY_PROTOCOL,
                           cache.protocol == CacheProtocol::binary);
    memcached_behavior_set(mc.get(), MEMCACHED_BEHAVIOR_TCP_NODELAY, 1);
    memcached_behavior_set(mc.get(), MEMCACHED_BEHAVIOR_KETAMA, 1);
    memcached_behavior_set(mc.get(), MEMCACHED_BEHAVIOR_CONNECT_TIMEOUT, timeout_ms);
    memcached_behavior_set(mc.get(), MEMCACHED_BEHAVIOR_POLL_TIMEOUT, timeout_ms);
    memcached_behavior_set(mc.get(), MEMCACHED_BEHAVIOR_RCV_TIMEOUT, timeout_ms * 1000);
    memcached_behavior_set(mc.get(), MEMCACHED_BEHAVIOR_SND_TIMEOUT, timeout_ms * 1000);
    // A stopped server is tried again after a second, so a restarted one is found again.
    memcached_behavior_set(mc.get(), MEMCACHED_BEHAVIOR_RETRY_TIMEOUT, 1);
    memcached_behavior_set(mc.get(), MEMCACHED_BEHAVIOR_DEAD_TIMEOUT, 1);
    for (const auto& s : cache.servers) {
        const auto rc = memcached_server_add(mc.get(), s.host.c_str(), s.port);
        if (rc != MEMCACHED_SUCCESS)
            throw std::runtime_error("cache.servers: cannot add " + s.text() + ": " +
                                     memcached_strerror(mc.get(), rc));
    }
    return mc;
}

}  // namespace

class LibmemcachedEngine::Worker {
  public:
    Worker(const RunSpec& spec, PhaseBoard& board, const PhaseLoads& loads,
           const std::vector<int>& slot_loads, int index, FirstError& unreached)
        : cache_(*spec.cache),
          board_(board),
          slot_loads_(slot_loads),
          index_(index),
          unreached_(unreached),
          mc_(connect(cache_)),
          replay_(cache_.replay ? cache_.replay->ops.get() : nullptr),
          batch_keys_(cache_.multiget > 1 ? size_t(cache_.multiget) * kKeyRoom : 0),
          batch_key_at_(cache_.multiget > 1 ? cache_.multiget : 0),
          batch_key_len_(batch_key_at_.size()) {
        if (!memcached_result_create(mc_.get(), &result_))
            throw std::runtime_error("libmemcached: cannot create a result");
        const auto& all = loads.loads();
        keys_.reserve(all.size());
        values_.reserve(all.size());
        mixes_.reserve(all.size());
        for (size_t l = 0; l < all.size(); ++l) {
            const uint64_t seed = PhaseLoads::seed(*spec.seed, int(l));
            keys_.emplace_back(all[l].keys, stream_seed(seed, uint64_t(index), Stream::keys));
            values_.emplace_back(all[l].value_size,
                                 stream_seed(seed, uint64_t(index), Stream::values),
                                 replay_value_bytes(cache_));
            mixes_.emplace_back(all[l]);
        }
        if (replay_) pacer_.replay(replay_, cache_.replay->speed);
    }

    ~Worker() {
        if (thread_.joinable()) thread_.join();
        memcached_result_free(&result_);
    }

    void launch() {
        thread_ = std::thread([this] { loop(); });
    }
    void join() {
        if (thread_.joinable()) thread_.join();
    }

    // Sets its keys of `keys` below count; returns how many were stored.
    uint64_t prefill(const PrefillKeys& keys, const std::atomic<bool>& cancel) {
        uint64_t stored = 0;
        for (uint64_t k = keys.first(index_); k < cache_.keys.count && !cancel.load();
             k += keys.stride())
            stored += set(keys_[0].format(k), values_[0].next()) == MEMCACHED_SUCCESS;
        return stored;
    }

    void drain(IntervalSample& out, int phase, Clock::time_point origin) {
        stats_[size_t(phase) & 1].drain([&](const CacheStats& s) { s.add_to(out, origin); });
    }

  private:
    // One op at a time: when the worker sees the board change, its op of the phase before
    // has ended, so that phase is drained for this worker at once.
    void loop() {
        int seen = -1;
        for (;;) {
            const int cur = board_.current();
            if (cur != seen && seen >= 0) {
                const uint64_t dropped = pacer_.drop_due(Clock::now());
                if (dropped) stats(seen).write([&](CacheStats& s) { s.dropped += dropped; });
                board_.mark_drained(seen);
            }
            if (cur == PhaseBoard::kClosed) return;
            if (cur != seen) {
                seen = cur;
                if (cur >= 0) {
                    pacer_.reset(board_.plan(cur), index_, board_.cut(cur));
                    load_ = size_t(slot_loads_[size_t(cur)]);
                }
                reported_ = false;
            }
            if (cur < 0 || !pacer_.active() || pacer_.exhausted()) {
                if (cur >= 0 && pacer_.active() && !reported_)
                    board_.mark_done(cur), reported_ = true;
                board_.wait_change(seen);
                continue;
            }
            const auto due = pacer_.open() ? pacer_.due() : Clock::now();
            if (pacer_.open() && !board_.sleep_until(due, seen)) continue;
            const bool ok = operate(due, seen);
            pacer_.advance();
            backoff(ok, seen);
        }
    }

    // After a connection failure, waits a little (doubling up to 100 ms) before the next op,
    // so a stopped server is not hammered; the open model's schedule keeps its times.
    void backoff(bool ok, int seen) {
        if (ok || pacer_.open()) {
            failures_ = 0;
            return;
        }
        const auto pause = std::min<Clock::duration>(
            kMaxBackoff, std::chrono::milliseconds(int64_t{1} << std::min(failures_++, 7)));
        board_.sleep_until(Clock::now() + pause, seen);
    }

    // One operation (and the set after a cache-aside miss); false on a connection failure.
    DoubleBuffer<CacheStats>& stats(int phase) { return stats_[size_t(phase) & 1]; }

    bool operate(Clock::time_point due, int phase) {
        const uint64_t at = pacer_.index();
        const CacheOp op =
            replay_ ? (replay_->is_set(at) ? CacheOp::set : CacheOp::get) : mixes_[load_].next();
        if (op == CacheOp::get && cache_.multiget > 1) return timed_mget(due, phase);
        const auto key = replay_ ? replay_->key(at) : keys_[load_].next();
        const auto started = Clock::now();
        const auto from = pacer_.open() ? due : started;
        const bool late = pacer_.open() && started - due > kLate;
        if (op == CacheOp::set) {
            const auto value =
                replay_ ? values_[load_].sized(replay_->value_bytes(at)) : values_[load_].next();
            return timed_set(key, value, from, late, phase, pacer_.open());
        }
        const auto rc = get(key);
        const auto done = Clock::now();
        const bool hit = rc == MEMCACHED_SUCCESS;
        const bool miss = rc == MEMCACHED_NOTFOUND || rc == MEMCACHED_END;
        if (classify(rc) == CacheError::connection && !hit && !miss) note_unreached(rc);
        const int64_t service = pacer_.open() ? micros(done - started) : -1;
        stats(phase).write([&](CacheStats& s) {
            ++s.sent;
            s.late += late;
            s.times.sent(started);
            s.times.replied(done);
            if (hit || miss) {
                s.record(CacheOp::get, micros(done - from), service);
                s.hits += hit;
                s.misses += miss;
                s.bytes_in += hit ? last_value_in_ : 0;
            } else {
                s.fail(CacheOp::get, classify(rc), micros(done - from), service);
            }
        });
        if (miss && mixes_[load_].workload() == CacheWorkload::cache_aside && !replay_)
            return timed_set(key, values_[load_].next(), done, false, phase, false);
        return hit || miss || classify(rc) != CacheError::connection;
    }

    // paced: `from` is an intended time, so the set's service time is counted too.
    bool timed_set(std::string_view key, std::string_view value, Clock::time_point from, bool late,
                   int phase, bool paced) {
        const auto started = Clock::now();
        const auto rc = set(key, value);
        const auto done = Clock::now();
        if (rc != MEMCACHED_SUCCESS && classify(rc) == CacheError::connection) note_unreached(rc);
        const int64_t service = paced ? micros(done - started) : -1;
        stats(phase).write([&](CacheStats& s) {
            ++s.sent;
            s.late += late;
            s.times.sent(started);
            s.times.replied(done);
            if (rc == MEMCACHED_SUCCESS) {
                s.record(CacheOp::set, micros(done - from), service);
                s.bytes_out += last_value_size_;
            } else {
                s.fail(CacheOp::set, classify(rc), micros(done - from), service);
            }
        });
        return rc == MEMCACHED_SUCCESS || classify(rc) != CacheError::connection;
    }

    void note_unreached(memcached_return_t rc) {
        unreached_.note([&] {
            const auto& server = cache_.servers.front();
            return (cache_.servers.size() == 1 ? server.text() + ": " : std::string()) +
                   memcached_strerror(mc_.get(), rc) + " (" +
                   memcached_last_error_message(mc_.get()) + ")";
        });
    }

    // One memcached_mget for cache.multiget keys, timed as one op; each key a hit or a miss.
    bool timed_mget(Clock::time_point due, int phase) {
        const uint32_t n = cache_.multiget;
        for (uint32_t i = 0; i < n; ++i) {
            const auto key = keys_[load_].next();
            char* at = batch_keys_.data() + size_t(i) * kKeyRoom;
            std::memcpy(at, key.data(), key.size());
            batch_key_at_[i] = at;
            batch_key_len_[i] = key.size();
        }
        const auto started = Clock::now();
        const auto from = pacer_.open() ? due : started;
        const bool late = pacer_.open() && started - due > kLate;
        uint64_t hits = 0, bytes = 0;
        auto rc = memcached_mget(mc_.get(), batch_key_at_.data(), batch_key_len_.data(), n);
        if (rc == MEMCACHED_SUCCESS) {
            memcached_return_t fetch_rc = MEMCACHED_SUCCESS;
            while (memcached_fetch_result(mc_.get(), &result_, &fetch_rc) != nullptr) {
                ++hits;
                bytes += memcached_result_length(&result_);
            }
            if (fetch_rc != MEMCACHED_END && fetch_rc != MEMCACHED_NOTFOUND) rc = fetch_rc;
        }
        const auto done = Clock::now();
        const bool ok = rc == MEMCACHED_SUCCESS;
        if (!ok && classify(rc) == CacheError::connection) note_unreached(rc);
        const int64_t service = pacer_.open() ? micros(done - started) : -1;
        stats(phase).write([&](CacheStats& s) {
            ++s.sent;
            s.late += late;
            s.times.sent(started);
            s.times.replied(done);
            s.hits += hits;
            s.bytes_in += bytes;
            if (ok) {
                s.record(CacheOp::mget, micros(done - from), service);
                s.misses += n - hits;
            } else {
                s.fail(CacheOp::mget, classify(rc), micros(done - from), service);
            }
        });
        return ok || classify(rc) != CacheError::connection;
    }

    memcached_return_t set(std::string_view key, std::string_view value) {
        last_value_size_ = value.size();
        return memcached_set(mc_.get(), key.data(), key.size(), value.data(), value.size(),
                             time_t(cache_.ttl_s), 0);
    }

    // mget into a reused result instead of memcached_get, which mallocs every value.
    memcached_return_t get(std::string_view key) {
        const char* keys[] = {key.data()};
        const size_t lengths[] = {key.size()};
        memcached_return_t rc = memcached_mget(mc_.get(), keys, lengths, 1);
        if (rc != MEMCACHED_SUCCESS) return rc;
        memcached_return_t fetch_rc = MEMCACHED_SUCCESS;
        const bool found = memcached_fetch_result(mc_.get(), &result_, &fetch_rc) != nullptr;
        if (!found) return fetch_rc == MEMCACHED_END ? MEMCACHED_NOTFOUND : fetch_rc;
        last_value_in_ = memcached_result_length(&result_);
        // Consume the end of the reply, so the next request starts clean.
        memcached_return_t end_rc = MEMCACHED_SUCCESS;
        while (memcached_fetch_result(mc_.get(), &result_, &end_rc) != nullptr) {
        }
        return MEMCACHED_SUCCESS;
    }

    const CacheSpec& cache_;
    PhaseBoard& board_;
    const std::vector<int>& slot_loads_;  // per slot of the board: its index into the loads
    const int index_;
    FirstError& unreached_;
    McHandle mc_;
    memcached_result_st result_{};
    // Per load (PhaseLoads), built up front; load_ is the current phase's.
    std::vector<KeyChooser> keys_;
    std::vector<ValueSource> values_;
    std::vector<OpMix> mixes_;
    size_t load_ = 0;
    OpPacer pacer_;
    DoubleBuffer<CacheStats> stats_[2];
    const ReplayFile* replay_;  // null: keys and ops from the key space and the workload
    // A multi-get's keys, each in a slot of its own, allotted once.
    std::vector<char> batch_keys_;
    std::vector<const char*> batch_key_at_;
    std::vector<size_t> batch_key_len_;
    size_t last_value_size_ = 0;
    size_t last_value_in_ = 0;
    int failures_ = 0;
    bool reported_ = false;
    std::thread thread_;
};

LibmemcachedEngine::LibmemcachedEngine(const RunSpec& spec)
    : spec_(with_seed(spec)),
      board_(spec.phases.size()),
      loads_(spec_),
      slot_loads_(spec.phases.size(), 0) {}

LibmemcachedEngine::~LibmemcachedEngine() {
    stop();
}

void LibmemcachedEngine::start() {
    int connections = 1;
    for (const auto& p : spec_.phases)
        connections = std::max(connections, phase_connections(spec_, p));
    for (int i = 0; i < connections; ++i)
        workers_.push_back(
            std::make_unique<Worker>(spec_, board_, loads_, slot_loads_, i, unreached_));
    if (spec_.cache->prefill) prefill();
    for (auto& w : workers_)
        w->launch();
}

void LibmemcachedEngine::prefill() {
    std::vector<std::thread> threads;
    std::vector<uint64_t> stored(workers_.size());
    const PrefillKeys keys{uint64_t(spec_.share), uint64_t(spec_.shares), workers_.size()};
    for (size_t i = 0; i < workers_.size(); ++i)
        threads.emplace_back([&, i] { stored[i] = workers_[i]->prefill(keys, cancel_); });
    for (auto& t : threads)
        t.join();
    for (auto n : stored)
        prefill_sets_ += n;
}

void LibmemcachedEngine::begin_phase(const PhasePlan& plan) {
    // Written before the plan is published: a worker that sees the plan sees its load.
    slot_loads_[size_t(plan.index)] = loads_.index_of(plan.phase);
    board_.publish(plan);
}

bool LibmemcachedEngine::drained(int phase) const {
    return board_.drained(phase, int(workers_.size()));
}

void LibmemcachedEngine::collect(IntervalSample& out, int phase, Clock::time_point origin) {
    for (auto& w : workers_)
        w->drain(out, phase, origin);
    out.connections = board_.current() >= 0 ? board_.plan(board_.current()).connections : 0;
}

void LibmemcachedEngine::cancel() {
    cancel_.store(true);
}

void LibmemcachedEngine::stop() {
    cancel_.store(true);
    board_.close();
    for (auto& w : workers_)
        w->join();
}

}  // namespace perflab
