// SPDX-License-Identifier: MIT
#include "async_connection.h"

#include <algorithm>
#include <utility>

#include "async_link.h"
#include "async_worker.h"

namespace perflab {

namespace {

constexpr auto kLate = std::chrono::milliseconds(1);
// Request header room per request, beside the value itself.
constexpr size_t kRequestOverhead = 300;
// The out-buffers start at most this large and grow when a burst of large values needs it.
constexpr size_t kMaxInitialOut = 256 * 1024;

size_t initial_out(const CacheSpec& cache, int pipeline) {
    return std::min(kMaxInitialOut, size_t(pipeline) * (cache.value_size.max + kRequestOverhead));
}

}  // namespace

AsyncConnection::AsyncConnection(AsyncWorker& worker, int index)
    : worker_(worker),
      index_(index),
      pipeline_(std::max(1, worker.cache().pipeline)),
      due_timer_(worker.reactor(),
                 [this] {
                     due_armed_ = false;
                     pump();
                 }),
      mixes_{OpMix(cache_load(worker.cache()))},
      replay_(worker.cache().replay ? worker.cache().replay->ops.get() : nullptr),
      multiget_(worker.cache().multiget),
      batches_(multiget_ > 1 ? size_t(pipeline_) : 0),
      redis_batches_(multiget_ > 1 && worker.cache().protocol == CacheProtocol::redis),
      cluster_(worker.cluster()) {
    for (int i = 0; i < int(batches_.size()); ++i)
        free_batches_.push_back(i);
    if (replay_) pacer_.replay(replay_, worker.cache().replay->speed);
    const size_t out = initial_out(worker.cache(), pipeline_);
    for (const auto& server : worker.servers())
        links_.push_back(std::make_unique<Link>(*this, links_.size(), server, out));
    follow_ups_.reserve(size_t(pipeline_));
    if (redis_batches()) {
        batch_draws_.resize(multiget_);
        batch_links_.resize(multiget_);
    }
    if (cluster_ && multiget_ > 1) {
        cluster_keys_.resize(batches_.size() * multiget_);
        slot_order_.resize(multiget_);
        key_slots_.resize(multiget_);
    }
}

AsyncConnection::~AsyncConnection() = default;

void AsyncConnection::prepare_loads(const PhaseLoads& loads) {
    for (size_t l = mixes_.size(); l < loads.loads().size(); ++l)
        mixes_.emplace_back(loads.loads()[l]);
}

void AsyncConnection::prepare_commands(const CommandProgram& program) {
    command_mix_.emplace(program.weights());
}

void AsyncConnection::open() {
    for (auto& link : links_)
        link->connect();
}

void AsyncConnection::begin_phase(const PhasePlan& plan) {
    if (mode_ == Mode::closing) return;
    if (mode_ == Mode::phase) end_phase(Clock::now());
    mode_ = Mode::phase;
    phase_ = plan.index;
    load_ = worker_.load();
    pacer_.reset(plan, index_, worker_.board().cut(plan.index));
    reported_ = false;
    pump();
}

void AsyncConnection::end_phase(Clock::time_point now) {
    pump();
    const uint64_t dropped = pacer_.drop_due(now);
    if (dropped) worker_.stats(phase_).write([&](CacheStats& s) { s.dropped += dropped; });
    // A cache-aside set after a miss is not a planned op: one still owed is not sent.
    follow_ups_.clear();
}

void AsyncConnection::begin_prefill(const PrefillKeys& keys, std::function<void(uint64_t)> done) {
    mode_ = Mode::prefill;
    prefill_next_ = keys.first(index_);
    prefill_stride_ = keys.stride();
    prefill_done_ = std::move(done);
    pump();
}

void AsyncConnection::close_when_idle() {
    if (mode_ == Mode::phase) end_phase(Clock::now());
    mode_ = Mode::closing;
    follow_ups_.clear();
    due_armed_ = false;
    due_timer_.cancel();
    check_finished();
}

void AsyncConnection::abandon(CacheError kind) {
    if (closed_) return;
    const auto now = Clock::now();
    for (auto& link : links_)
        fail_pending(*link, kind, now);
    close_now();
}

void AsyncConnection::fail_pending(Link& link, CacheError kind, Clock::time_point now) {
    link.for_each_pending([&](const Pending& p) {
        if (p.prefill()) return;
        bool ended = false;
        worker_.stats(p.phase).write([&](CacheStats& s) { ended = fail_one(p, kind, now, s); });
        if (ended) worker_.op_ended(p.phase);
    });
    inflight_ -= int(link.in_flight());
    link.head_ = link.count_ = 0;
}

// Counts an op as failed; a batch fails once, with its last part. True when the op ended.
bool AsyncConnection::fail_one(const Pending& p, CacheError kind, Clock::time_point now,
                               CacheStats& s) {
    if (p.op == CacheOp::mget) {
        Batch& b = batches_[size_t(p.batch)];
        b.failed = true;
        b.kind = kind;
        if (--b.parts > 0) return false;
        free_batches_.push_back(p.batch);
    }
    s.fail(p.stats_index(), kind, micros(now - p.from), p.service_us(now));
    s.times.replied(now);
    return true;
}

void AsyncConnection::close_now() {
    if (closed_) return;
    closed_ = true;
    mode_ = Mode::closing;
    due_armed_ = false;
    due_timer_.cancel();
    for (auto& link : links_)
        link->shut();
    inflight_ = 0;
    worker_.on_connection_closed();
}

// The next request this connection owes, if one is due now.
bool AsyncConnection::next_op(Pending& p, Clock::time_point now) {
    if (mode_ == Mode::prefill) {
        if (prefill_next_ >= worker_.cache().keys.count || worker_.cancelled() || worker_.refused())
            return false;
        p = {CacheOp::set, -1, 0, prefill_next_, now};
        prefill_next_ += prefill_stride_;
        return true;
    }
    if (mode_ != Mode::phase || !pacer_.active() || pacer_.exhausted()) return false;
    p = Pending{};
    p.phase = phase_;
    p.from = now;
    if (pacer_.open()) {
        const auto due = pacer_.due();
        if (due > now) {
            arm_due_timer(due);
            return false;
        }
        p.from = due;
        p.paced = true;
    }
    if (replay_) {
        p.key = pacer_.index();
        p.op = replay_->is_set(p.key) ? CacheOp::set : CacheOp::get;
        p.value_bytes = replay_->value_bytes(p.key);
    } else if (command_mix_) {
        p.op = CacheOp::command;
        p.command = uint16_t(command_mix_->next());
        if (worker_.commands()->keyed(p.command)) p.key = worker_.keys().draw();
    } else {
        p.op = mixes_[size_t(load_)].next();
        if (p.op == CacheOp::get && multiget_ > 1)
            p.op = CacheOp::mget;
        else
            p.key = worker_.keys().draw();
    }
    pacer_.advance();
    return true;
}

void AsyncConnection::pump() {
    if (mode_ == Mode::closing) {
        // No new op, but a redirection's resend that a reply queued still goes out.
        for (auto& link : links_)
            link->flush();
        return check_finished();
    }
    if (mode_ == Mode::idle) return;
    const auto now = Clock::now();
    uint64_t sent = 0, late = 0;
    const bool paced = mode_ == Mode::phase && pacer_.open();
    while (inflight_ < pipeline_) {
        Pending p;
        if (!follow_ups_.empty()) {
            p = {CacheOp::set, phase_, 0, follow_ups_.back(), now};
            follow_ups_.pop_back();
        } else if (!next_op(p, now)) {
            break;
        }
        if (p.op == CacheOp::mget) {
            if (!send_batch(p, now)) {
                fail_unsent(p, now);
                if (!pacer_.open()) break;
                continue;
            }
            worker_.op_started(p.phase);
            ++sent;
            late += paced && now - p.from > kLate;
            continue;
        }
        const auto key = replay_ ? replay_->key(p.key) : op_key(p);
        Link& link = link_for(key);
        if (link.state() == Link::State::down) {
            fail_unsent(p, now);
            // Closed model: wait for the link's next attempt.
            if (mode_ == Mode::phase && !pacer_.open()) break;
            continue;
        }
        p.sent = now;
        if (p.op == CacheOp::command) {
            p.value_bytes = uint32_t(worker_.render_command(p.command, link.out(), key));
            link.enqueue(p, now);
        } else {
            std::string_view value;
            if (p.op == CacheOp::set) {
                value = replay_ ? worker_.values().sized(p.value_bytes) : worker_.values().next();
                p.value_bytes = uint32_t(value.size());
            }
            link.send(p, key, value, now);
        }
        ++inflight_;
        if (p.prefill()) continue;
        worker_.op_started(p.phase);
        ++sent;
        // One queued on a connecting link is late or not when the link comes up.
        late += paced && link.state() == Link::State::up && now - p.from > kLate;
    }
    if (sent)
        worker_.stats(phase_).write([&](CacheStats& s) {
            s.sent += sent;
            s.late += late;
            s.times.sent(now);
        });
    for (auto& link : links_)
        link->flush();
    check_finished();
}

// Spreads a batch's keys over the links of their servers, one request on each. False, the
// batch unsent, when a link is down: a batch waits for no server.
bool AsyncConnection::send_batch(Pending p, Clock::time_point now) {
    if (cluster_) return send_cluster_batch(p, now);
    for (const auto& link : links_)
        if (link->state() == Link::State::down) return false;
    const auto protocol = worker_.cache().protocol;
    for (auto& link : links_)
        link->batch_keys_ = 0;
    if (redis_batches()) {
        encode_resp_batch();
    } else {
        for (uint32_t i = 0; i < multiget_; ++i) {
            const auto key = worker_.keys().next();
            Link& link = *links_[worker_.picker().pick(key)];
            if (link.batch_keys_++ == 0) encode_mget_begin(link.out(), protocol);
            encode_mget_key(link.out(), protocol, key);
        }
    }
    // Batches in flight never outnumber the pipeline's places, as each holds one at least.
    p.batch = free_batches_.back();
    free_batches_.pop_back();
    Batch& batch = batches_[size_t(p.batch)] = Batch{};
    p.sent = now;
    for (auto& link : links_) {
        if (link->batch_keys_ == 0) continue;
        if (!redis_batches()) encode_mget_end(link->out(), protocol);
        p.keys = uint16_t(link->batch_keys_);
        link->enqueue(p, now);
        ++batch.parts;
        ++inflight_;
    }
    return true;
}

// RESP puts an MGET's key count before its keys: each link's count is known once every key
// of the batch is drawn, and the keys are written after.
void AsyncConnection::encode_resp_batch() {
    for (uint32_t i = 0; i < multiget_; ++i) {
        batch_draws_[i] = worker_.keys().draw();
        batch_links_[i] = uint32_t(worker_.picker().pick(worker_.keys().format(batch_draws_[i])));
        ++links_[batch_links_[i]]->batch_keys_;
    }
    for (auto& link : links_)
        if (link->batch_keys_ > 0) resp_encode_mget_begin(link->out(), link->batch_keys_);
    for (uint32_t i = 0; i < multiget_; ++i)
        resp_encode_mget_key(links_[batch_links_[i]]->out(),
                             worker_.keys().format(batch_draws_[i]));
}

void AsyncConnection::fail_unsent(const Pending& p, Clock::time_point now) {
    if (p.prefill()) return;
    const bool late = mode_ == Mode::phase && pacer_.open() && now - p.from > kLate;
    worker_.stats(p.phase).write([&](CacheStats& s) {
        ++s.sent;
        s.late += late;
        s.fail(p.stats_index(), CacheError::connection, micros(now - p.from));
        s.times.sent(now);
        s.times.replied(now);
    });
}

void AsyncConnection::on_link_up(Link& link, Clock::time_point now) {
    if (mode_ != Mode::phase || !pacer_.open()) return;
    uint64_t late = 0;
    link.for_each_pending([&](const Pending& p) { late += !p.prefill() && now - p.from > kLate; });
    if (late) worker_.stats(phase_).write([&](CacheStats& s) { s.late += late; });
}

ReplyParser::Result AsyncConnection::on_replies(Link& link, std::string_view data) {
    if (link.redis_) return on_resp_replies(link, data);
    ReplyParser::Result result;
    bool unexpected = false;
    const auto done = Clock::now();
    // Replies to the phase before (still draining) and to this one can share a read.
    worker_.stats(0).write([&](CacheStats& even) {
        worker_.stats(1).write([&](CacheStats& odd) {
            result = link.parser().feed(data, [&](const Reply& reply) {
                Pending* front = link.front();
                if (!front || (reply.kind == ReplyKind::value && front->op != CacheOp::mget)) {
                    unexpected = true;
                    return;
                }
                if (front->op == CacheOp::mget && !absorb(reply, *front)) return;
                Pending p;
                link.pop(p, done);
                --inflight_;
                if (p.prefill()) return on_prefill_reply(reply);
                CacheStats& s = (p.phase & 1) ? odd : even;
                s.times.replied(done);
                if (p.op != CacheOp::mget)
                    on_reply(reply, p, done, s);
                else if (!on_batch_part(reply, p, done, s))
                    return;
                worker_.op_ended(p.phase);
            });
        });
    });
    if (unexpected) result.ok = false;
    return result;
}

ReplyParser::Result AsyncConnection::on_resp_replies(Link& link, std::string_view data) {
    RespParser::Result result;
    bool unexpected = false;
    const auto done = Clock::now();
    worker_.stats(0).write([&](CacheStats& even) {
        worker_.stats(1).write([&](CacheStats& odd) {
            result = link.resp().feed(data, [&](const RespReply& reply) {
                Pending p;
                if (!link.pop(p, done)) {
                    unexpected = true;
                    return;
                }
                --inflight_;
                // ASKING's +OK: the op is the command after it.
                if (p.asking) return;
                if (cluster_ && reply.type == RespType::error &&
                    follow(link, reply, p, done, (p.phase & 1) ? odd : even))
                    return;
                if (p.prefill()) {
                    prefill_stored_ += reply.type == RespType::simple;
                    return;
                }
                CacheStats& s = (p.phase & 1) ? odd : even;
                s.times.replied(done);
                if (cluster_) count_at_node(link, reply, p, s);
                if (p.op == CacheOp::command)
                    on_command_reply(reply, p, done, s);
                else if (p.op != CacheOp::mget)
                    on_resp_reply(reply, p, done, s);
                else if (!on_resp_batch(reply, p, done, s))
                    return;
                worker_.op_ended(p.phase);
            });
        });
    });
    return {result.used, result.ok && !unexpected};
}

// GET: a bulk string is a hit, a nil a miss; SET: +OK stored; an error reply is counted by its
// kind; any other reply to either is the server's error.
void AsyncConnection::on_resp_reply(const RespReply& r, const Pending& p, Clock::time_point done,
                                    CacheStats& s) {
    if (r.type == RespType::error)
        return s.fail_reply(p.op, r.error, micros(done - p.from), p.service_us(done));
    Reply reply;
    if (r.type == RespType::bulk)
        reply = {ReplyKind::hit, r.bytes};
    else if (r.type == RespType::null)
        reply = {ReplyKind::miss, 0};
    else if (r.type == RespType::simple)
        reply = {ReplyKind::stored, 0};
    on_reply(reply, p, done, s);
}

// One of cache.commands: any reply completes it, an error reply as an error of its kind. Only
// a GET has a hit (a bulk string) or a miss (a nil); the other commands' replies tell neither.
void AsyncConnection::on_command_reply(const RespReply& r, const Pending& p, Clock::time_point done,
                                       CacheStats& s) {
    const int64_t latency = micros(done - p.from);
    if (r.type == RespType::error)
        return s.fail_reply(p.stats_index(), r.error, latency, p.service_us(done));
    s.record(p.stats_index(), latency, p.service_us(done));
    s.bytes_out += p.value_bytes;
    s.bytes_in += r.type == RespType::bulk ? r.bytes : r.value_bytes;
    if (!worker_.commands()->is_get(p.command)) return;
    s.hits += r.type == RespType::bulk;
    s.misses += r.type == RespType::null;
}

// The key an op is sent by: its key's, or for a command without {{key}} its first argument.
std::string_view AsyncConnection::op_key(const Pending& p) {
    if (p.op == CacheOp::command && !worker_.commands()->keyed(p.command))
        return worker_.commands()->route(p.command);
    return worker_.keys().format(p.key);
}

// An MGET's array: each bulk string a hit, each nil a miss, as a text multi-get's values and
// the keys it left out.
bool AsyncConnection::on_resp_batch(const RespReply& r, Pending p, Clock::time_point done,
                                    CacheStats& s) {
    if (r.type == RespType::aggregate && r.elements == p.keys && r.values + r.nulls == p.keys) {
        p.values = uint16_t(r.values);
        p.value_bytes = uint32_t(r.value_bytes);
        return on_batch_part({ReplyKind::end, 0}, p, done, s);
    }
    if (auto& first = batches_[size_t(p.batch)].reply_error; r.type == RespType::error && !first)
        first = r.error;
    return on_batch_part({ReplyKind::error, 0}, p, done, s);
}

// A reply within a batch's request is counted into it; true when the reply ends the request
// (text: the last value, or END; meta: MN).
bool AsyncConnection::absorb(const Reply& r, Pending& p) const noexcept {
    const bool meta = worker_.cache().protocol == CacheProtocol::meta;
    if (r.kind == ReplyKind::value || (meta && r.kind == ReplyKind::hit)) {
        ++p.values;
        p.value_bytes += r.value_bytes;
        return false;
    }
    if (!meta || r.kind == ReplyKind::end) return true;
    p.failed = p.failed || r.kind != ReplyKind::miss;
    return false;
}

// Counts a batch's keys on one link as hits and misses; true when it was the batch's last
// part, whose time is the batch's latency.
bool AsyncConnection::on_batch_part(const Reply& r, const Pending& p, Clock::time_point done,
                                    CacheStats& s) {
    uint32_t values = p.values;
    uint64_t bytes = p.value_bytes;
    bool failed = p.failed;
    if (r.kind == ReplyKind::hit) {
        ++values;
        bytes += r.value_bytes;
    } else if (r.kind != ReplyKind::miss && r.kind != ReplyKind::end) {
        failed = true;
    }
    s.hits += values;
    s.bytes_in += bytes;
    // A key whose reply was an error is neither hit nor miss.
    if (!failed) s.misses += p.keys - values;
    Batch& batch = batches_[size_t(p.batch)];
    batch.failed = batch.failed || failed;
    if (--batch.parts > 0) return false;
    free_batches_.push_back(p.batch);
    const int64_t latency = micros(done - p.from);
    if (batch.failed && batch.kind == CacheError::server && batch.reply_error)
        s.fail_reply(CacheOp::mget, *batch.reply_error, latency, p.service_us(done));
    else if (batch.failed)
        s.fail(CacheOp::mget, batch.kind, latency, p.service_us(done));
    else
        s.record(CacheOp::mget, latency, p.service_us(done));
    return true;
}

void AsyncConnection::on_prefill_reply(const Reply& r) {
    prefill_stored_ += r.kind == ReplyKind::stored;
}

void AsyncConnection::on_reply(const Reply& r, const Pending& p, Clock::time_point done,
                               CacheStats& s) {
    const int64_t latency = micros(done - p.from);
    const int64_t service = p.service_us(done);
    if (p.op == CacheOp::set) {
        if (r.kind == ReplyKind::stored) {
            s.record(CacheOp::set, latency, service);
            s.bytes_out += p.value_bytes;
        } else {
            s.fail(CacheOp::set, CacheError::server, latency, service);
        }
        return;
    }
    if (r.kind != ReplyKind::hit && r.kind != ReplyKind::miss)
        return s.fail(CacheOp::get, CacheError::server, latency, service);
    s.record(CacheOp::get, latency, service);
    if (r.kind == ReplyKind::hit) {
        ++s.hits;
        s.bytes_in += r.value_bytes;
    } else {
        ++s.misses;
        // A miss of a phase before, with a workload of its own, is no key of this one's.
        if (mixes_[size_t(load_)].workload() == CacheWorkload::cache_aside &&
            mode_ == Mode::phase && !replay_ && worker_.load_of(p.phase) == load_)
            follow_ups_.push_back(p.key);
    }
}

void AsyncConnection::on_link_down(Link& link, CacheError kind) {
    fail_pending(link, kind, Clock::now());
    if (mode_ == Mode::closing) return check_finished();
    // The retry timer, not this call, decides when the next attempt goes out.
    worker_.reactor().defer([this] { pump(); });
}

void AsyncConnection::expire_stalled(Clock::time_point now) {
    const auto timeout = std::chrono::milliseconds(worker_.cache().timeout_ms);
    for (auto& link : links_)
        link->expire_if_stalled(now, timeout);
}

void AsyncConnection::arm_due_timer(Clock::time_point due) {
    if (due_armed_ && due_at_ <= due) return;
    due_armed_ = true;
    due_at_ = due;
    due_timer_.arm_at(due);
}

void AsyncConnection::check_finished() {
    if (inflight_ > 0) return;
    if (mode_ == Mode::prefill &&
        (prefill_next_ >= worker_.cache().keys.count || worker_.cancelled() || worker_.refused())) {
        mode_ = Mode::idle;
        if (prefill_done_) std::exchange(prefill_done_, nullptr)(prefill_stored_);
    } else if (mode_ == Mode::phase && !reported_ && pacer_.active() && pacer_.exhausted() &&
               follow_ups_.empty()) {
        worker_.board().mark_done(phase_);
        reported_ = true;
    } else if (mode_ == Mode::closing) {
        close_now();
    }
}

AsyncConnection::Link& AsyncConnection::link_for(std::string_view key) {
    if (!cluster_) return *links_[worker_.picker().pick(key)];
    return link_to(cluster_->node_of(cluster_key_slot(key)));
}

// A cluster node's link; one the connection has none to yet (a redirection named a node
// the cluster gained) is opened on first use.
AsyncConnection::Link& AsyncConnection::link_to(size_t node) {
    while (links_.size() <= node) {
        auto link = std::make_unique<Link>(*this, links_.size(), cluster_->nodes[links_.size()],
                                           initial_out(worker_.cache(), pipeline_));
        // The run's start waits for the links it began with, not for this one.
        link->settled_ = true;
        link->connect();
        links_.push_back(std::move(link));
    }
    return *links_[node];
}

}  // namespace perflab
