// SPDX-License-Identifier: MIT
// AsyncConnection in a Redis Cluster: counts per node, multi-gets split by slot, and the
// redirections (MOVED, ASK, TRYAGAIN) an op follows to the node that holds its key.
#include "async_connection.h"
#include "async_link.h"
#include "async_worker.h"

namespace perflab {

namespace {

// Redirections one op follows before it counts as the server's error: nodes that send it
// back and forth.
constexpr uint8_t kMaxHops = 16;

}  // namespace

// A cluster node's part: a call of the op (an MGET: of its part of the batch), and the hits
// and misses of its lookups, as the node's own INFO counts them.
void AsyncConnection::count_at_node(const Link& link, const RespReply& r, const Pending& p,
                                    CacheStats& s) {
    CacheStats::Node& n = s.node(link.node_, link.name_);
    ++n.calls[p.stats_index()];
    if (r.type == RespType::error) {
        ++n.errors;
    } else if (p.op == CacheOp::mget && r.type == RespType::aggregate) {
        n.hits += r.values;
        n.misses += r.nulls;
    } else if (p.op == CacheOp::get ||
               (p.op == CacheOp::command && worker_.commands()->is_get(p.command))) {
        n.hits += r.type == RespType::bulk;
        n.misses += r.type == RespType::null;
    }
}

// A cluster refuses a multi-get whose keys lie in several slots (CROSSSLOT): the batch goes
// as one MGET per slot, each on its master's link, each redirected on its own if need be.
// The batch's keys stay in its slot until its last part is answered.
bool AsyncConnection::send_cluster_batch(Pending p, Clock::time_point now) {
    const int b = free_batches_.back();
    uint64_t* keys = cluster_keys_.data() + size_t(b) * multiget_;
    for (uint32_t i = 0; i < multiget_; ++i) {
        keys[i] = worker_.keys().draw();
        key_slots_[i] = cluster_key_slot(worker_.keys().format(keys[i]));
        slot_order_[i] = i;
        if (link_to(cluster_->node_of(key_slots_[i])).state() == Link::State::down) return false;
    }
    std::sort(slot_order_.begin(), slot_order_.end(),
              [&](uint32_t x, uint32_t y) { return key_slots_[x] < key_slots_[y]; });
    free_batches_.pop_back();
    p.batch = b;
    Batch& batch = batches_[size_t(b)] = Batch{};
    p.sent = now;
    for (uint32_t i = 0; i < multiget_;) {
        const uint16_t slot = key_slots_[slot_order_[i]];
        uint32_t end = i + 1;
        while (end < multiget_ && key_slots_[slot_order_[end]] == slot)
            ++end;
        Link& link = link_to(cluster_->node_of(slot));
        resp_encode_mget_begin(link.out(), end - i);
        for (uint32_t k = i; k < end; ++k)
            resp_encode_mget_key(link.out(), worker_.keys().format(keys[slot_order_[k]]));
        Pending part = p;
        part.slot = slot;
        part.keys = uint16_t(end - i);
        link.enqueue(part, now);
        ++batch.parts;
        ++inflight_;
        i = end;
    }
    return true;
}

// A Redis Cluster's answer that the op belongs elsewhere: MOVED (the slot has another master,
// which this thread's map learns), ASK (the slot is migrating: ASKING, then the op, on the
// node named; the map stays) or TRYAGAIN (a multi-key op met a slot half migrated: again, on
// the same node). The op goes on with its first send's time and counts once, when its answer
// comes. False when the error is none of these.
bool AsyncConnection::follow(const Link& from, const RespReply& r, const Pending& p,
                             Clock::time_point now, CacheStats& s) {
    size_t node = from.node_;
    bool ask = false;
    if (!r.text.starts_with("TRYAGAIN")) {
        const auto redirect = parse_cluster_redirect(r.text, from.server_);
        if (!redirect) return false;
        node = cluster_->node_index(redirect->node);
        ask = redirect->kind == ClusterRedirect::Kind::ask;
        if (!ask) cluster_->slot_node[redirect->slot] = uint16_t(node);
        if (!p.prefill()) {
            ++(ask ? s.asked : s.moved);
            CacheStats::Node& n = s.node(from.node_, from.name_);
            ++(ask ? n.asked : n.moved);
        }
    }
    Pending next = p;
    Link& link = link_to(node);
    const bool lost = link.state() == Link::State::down;
    if (lost || ++next.hops > kMaxHops) {
        if (!p.prefill() && fail_one(p, lost ? CacheError::connection : CacheError::server, now, s))
            worker_.op_ended(p.phase);
        return true;
    }
    if (ask) {
        Pending asking;
        asking.asking = true;
        resp_encode_command(link.out(), {"ASKING"});
        link.enqueue(asking, now);
        ++inflight_;
    }
    resend(link, next, now);
    return true;
}

// Writes an op again on `link`, as it was first written: with its own phase's key space,
// which the worker may have left since.
void AsyncConnection::resend(Link& link, const Pending& p, Clock::time_point now) {
    KeyChooser& keys = worker_.keys_of(p.phase);
    if (p.op == CacheOp::mget) {
        const uint64_t* numbers = cluster_keys_.data() + size_t(p.batch) * multiget_;
        resp_encode_mget_begin(link.out(), p.keys);
        for (uint32_t i = 0; i < multiget_; ++i) {
            const auto key = keys.format(numbers[i]);
            if (cluster_key_slot(key) == p.slot) resp_encode_mget_key(link.out(), key);
        }
    } else {
        const auto key = replay_ ? replay_->key(p.key) : keys.format(p.key);
        if (p.op == CacheOp::get)
            resp_encode_get(link.out(), key);
        else
            resp_encode_set(link.out(), key, worker_.values_of(p.phase).sized(p.value_bytes),
                            worker_.cache().ttl_s);
    }
    link.enqueue(p, now);
    ++inflight_;
}

}  // namespace perflab
