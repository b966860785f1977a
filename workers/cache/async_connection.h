// SPDX-License-Identifier: MIT
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "cache_stats.h"
#include "cluster_map.h"
#include "command_program.h"
#include "engine.h"
#include "http/target_picker.h"
#include "io/reactor.h"
#include "memcache_codec.h"
#include "model/replay_file.h"
#include "op_mix.h"
#include "phase_board.h"
#include "phase_loads.h"
#include "prefill_keys.h"
#include "resp_codec.h"

namespace perflab {

class AsyncWorker;

// One connection of the async driver: a socket to each server (the key's server is chosen
// by libmemcached's hashing, or in a Redis Cluster by its slot's master), up to
// cache.pipeline requests in flight, the next request sent as soon as a reply is in (closed
// model) or at its due time (open model). Lives on its worker's reactor and is touched by
// that thread only.
class AsyncConnection {
  public:
    AsyncConnection(AsyncWorker& worker, int index);
    AsyncConnection(const AsyncConnection&) = delete;
    AsyncConnection& operator=(const AsyncConnection&) = delete;
    ~AsyncConnection();

    void open();  // connects every link
    // Before open(): an op mix for each load beside the cache section's.
    void prepare_loads(const PhaseLoads& loads);
    // Before open(), for a run of cache.commands: its ops are those, drawn by their weights.
    void prepare_commands(const CommandProgram& program);
    // Ends the phase before (its ops due by now go while the pipeline has room, the rest
    // are dropped; its ops in flight still count for it), then starts this one.
    void begin_phase(const PhasePlan& plan);
    // Prefill: sets its keys of `keys` below the key count; `done` runs once.
    void begin_prefill(const PrefillKeys& keys, std::function<void(uint64_t stored)> done);
    // No new requests (ops due by now go while the pipeline has room, the rest are dropped);
    // closes the sockets once replies are in.
    void close_when_idle();
    // Fails every request still in flight as `kind` and closes.
    void abandon(CacheError kind);
    // Drops links whose replies (or connection) take longer than cache.timeout_ms.
    void expire_stalled(Clock::time_point now);

    struct Pending {
        CacheOp op = CacheOp::get;
        int phase = -1;  // the phase it belongs to; -1: a prefill set
        uint32_t value_bytes = 0;
        uint64_t key = 0;
        Clock::time_point from{};
        Clock::time_point sent{};
        bool paced = false;  // open model: `from` is the intended time, so service time counts
        // mget: this link's share of the batch (keys), what came back so far, and its slot.
        bool failed = false;
        uint16_t keys = 0;
        uint16_t values = 0;
        int batch = -1;
        uint16_t slot = 0;    // Redis Cluster mget: the slot of this part's keys
        bool asking = false;  // no op: the ASKING before an op an ASK redirection sends on
        uint8_t hops = 0;     // redirections followed
        // CacheOp::command: which of cache.commands.
        uint16_t command = 0;
        bool prefill() const noexcept { return phase < 0; }
        size_t stats_index() const noexcept {  // its figures' in CacheStats::ops
            return op == CacheOp::command ? kCacheOps + command : size_t(op);
        }
        int64_t service_us(Clock::time_point done) const noexcept {
            return paced ? micros(done - sent) : -1;
        }
    };
    class Link;

  private:
    enum class Mode { idle, prefill, phase, closing };
    // A multi-get in flight: one request on each link its keys hash to.
    struct Batch {
        int parts = 0;  // requests not answered yet
        bool failed = false;
        CacheError kind = CacheError::server;
        // Redis: a part's error reply, whose kind the batch is counted under, as a single
        // key's op is; a part without a reply (kind) goes before it.
        std::optional<RedisError> reply_error;
    };

    void pump();
    void end_phase(Clock::time_point now);
    bool next_op(Pending& p, Clock::time_point now);
    std::string_view op_key(const Pending& p);
    void fail_unsent(const Pending& p, Clock::time_point now);
    void on_link_up(Link& link, Clock::time_point now);
    ReplyParser::Result on_replies(Link& link, std::string_view data);
    ReplyParser::Result on_resp_replies(Link& link, std::string_view data);
    void on_resp_reply(const RespReply& r, const Pending& p, Clock::time_point done, CacheStats& s);
    void on_command_reply(const RespReply& r, const Pending& p, Clock::time_point done,
                          CacheStats& s);
    bool on_resp_batch(const RespReply& r, Pending p, Clock::time_point done, CacheStats& s);
    void encode_resp_batch();
    // Redis Cluster.
    void count_at_node(const Link& link, const RespReply& r, const Pending& p, CacheStats& s);
    Link& link_to(size_t node);
    Link& link_for(std::string_view key);
    bool send_cluster_batch(Pending p, Clock::time_point now);
    bool follow(const Link& from, const RespReply& r, const Pending& p, Clock::time_point now,
                CacheStats& s);
    void resend(Link& link, const Pending& p, Clock::time_point now);
    bool fail_one(const Pending& p, CacheError kind, Clock::time_point now, CacheStats& s);
    bool redis_batches() const noexcept { return redis_batches_; }
    void on_reply(const Reply& r, const Pending& p, Clock::time_point done, CacheStats& s);
    bool send_batch(Pending p, Clock::time_point now);
    bool absorb(const Reply& r, Pending& p) const noexcept;
    bool on_batch_part(const Reply& r, const Pending& p, Clock::time_point done, CacheStats& s);
    void on_prefill_reply(const Reply& r);
    void fail_pending(Link& link, CacheError kind, Clock::time_point now);
    void on_link_down(Link& link, CacheError kind);
    void arm_due_timer(Clock::time_point due);
    void check_finished();
    void close_now();

    AsyncWorker& worker_;
    const int index_;
    const int pipeline_;
    std::vector<std::unique_ptr<Link>> links_;
    Reactor::Timer due_timer_;
    bool due_armed_ = false;
    Clock::time_point due_at_{};
    Mode mode_ = Mode::idle;
    OpPacer pacer_;
    int phase_ = -1;
    bool reported_ = false;
    bool closed_ = false;
    int inflight_ = 0;
    // Per load (PhaseLoads): the first the cache section's; load_ the current phase's.
    std::vector<OpMix> mixes_;
    int load_ = 0;
    // A run of cache.commands: the next command, by weight (the smooth weighted round-robin
    // of HTTP targets: exact over each sum of the weights).
    std::optional<TargetPicker> command_mix_;
    const ReplayFile* replay_;  // null: keys and ops from the key space and the workload
    const uint32_t multiget_;
    // Slots for batches in flight: at most one per pipeline place, allotted up front.
    std::vector<Batch> batches_;
    std::vector<int> free_batches_;
    // Redis batches: each key's number and link, drawn before any is written.
    const bool redis_batches_;
    std::vector<uint64_t> batch_draws_;
    std::vector<uint32_t> batch_links_;
    // Redis Cluster batches: every batch slot's keys, kept until its last part is answered
    // (a redirected part is sent again), and one batch's keys in slot order, to split it.
    ClusterMap* const cluster_;
    std::vector<uint64_t> cluster_keys_;
    std::vector<uint32_t> slot_order_;
    std::vector<uint16_t> key_slots_;
    std::vector<uint64_t> follow_ups_;  // cache-aside: keys to set after their miss
    uint64_t prefill_next_ = 0;
    uint64_t prefill_stride_ = 1;
    uint64_t prefill_stored_ = 0;
    std::function<void(uint64_t)> prefill_done_;
};

}  // namespace perflab
