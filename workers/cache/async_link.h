// SPDX-License-Identifier: MIT
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "async_connection.h"
#include "async_worker.h"
#include "io/reactor.h"
#include "memcache_codec.h"
#include "redis_login.h"
#include "resp_codec.h"

namespace perflab {

class TlsFilter;

// One socket to one server, with its own requests in flight (replies come back in order).
// Registered with the worker's reactor once per connect, edge-triggered.
class AsyncConnection::Link final : public Reactor::Handler {
  public:
    enum class State { down, connecting, up };

    Link(AsyncConnection& owner, size_t node, const boost::asio::ip::tcp::endpoint& server,
         size_t out_capacity);
    Link(const Link&) = delete;
    Link& operator=(const Link&) = delete;
    ~Link();

    State state() const noexcept { return state_; }
    size_t in_flight() const noexcept { return count_; }

    void connect();
    void on_ready(uint32_t events) override;

    // Queues a request; it goes out with the next write, or once a connecting link is up.
    void send(const Pending& p, std::string_view key, std::string_view value,
              Clock::time_point now) {
        if (redis_ && p.op == CacheOp::get)
            resp_encode_get(back_, key);
        else if (redis_)
            resp_encode_set(back_, key, value, owner_.worker_.cache().ttl_s);
        else if (p.op == CacheOp::get)
            encode_get(back_, owner_.worker_.cache().protocol, key);
        else
            encode_set(back_, owner_.worker_.cache().protocol, key, value,
                       owner_.worker_.cache().ttl_s);
        enqueue(p, now);
    }

    // Queues a request already encoded into out().
    void enqueue(const Pending& p, Clock::time_point now) {
        if (count_ == 0 && state_ == State::up) since_ = now;
        if (count_ == ring_.size()) grow();
        ring_[(head_ + count_) % ring_.size()] = p;
        ++count_;
    }
    OutBuffer& out() noexcept { return back_; }

    // Writes what was queued, unless a write is already under way (its end calls this again).
    // Over TLS what goes out is back_ sealed into wire_, after anything TLS itself had to say.
    void flush();

    template <class F>
    void for_each_pending(F&& f) const {
        for (size_t i = 0; i < count_; ++i)
            f(ring_[(head_ + i) % ring_.size()]);
    }
    Pending* front() noexcept { return count_ ? &ring_[head_] : nullptr; }
    bool pop(Pending& out, Clock::time_point now) noexcept {
        if (count_ == 0) return false;
        since_ = now;
        out = ring_[head_];
        head_ = (head_ + 1) % ring_.size();
        --count_;
        return true;
    }
    ReplyParser& parser() noexcept { return parser_; }
    RespParser& resp() noexcept { return resp_; }

    // No reply (or no connection) for longer than the spec's timeout: the link is dropped
    // and its requests fail as timeouts.
    void expire_if_stalled(Clock::time_point now, Clock::duration timeout);

    // Closes for good: no retry.
    void shut();

  private:
    // An unfinished reply no longer than this waits for its rest; a longer one is no cache's.
    static constexpr size_t kMaxCarry = 64 << 20;
    static constexpr size_t kLoginCapacity = 256;

    void up();

    // Redis: the link stays connecting until the login's last reply is in.
    void begin_session();
    void write_login();

    // A login command or a handshake's flight: its answer comes once it was written whole,
    // so the next one may reuse the buffer.
    void write_small(const OutBuffer& bytes) { write({bytes.data(), bytes.size()}); }

    // The socket is non-blocking: most batches go out in one send. What it does not take at
    // once waits in front_ (after a write already waiting there) for the socket's edge.
    void write(std::string_view bytes);

    // Writes front_ until the socket refuses more: only a refusal (EAGAIN) promises the edge
    // that resumes it. Once front_ is out, what was queued meanwhile follows if `then_flush`
    // (not from write(): its caller still holds the bytes it passed, and clears them).
    void write_front(bool then_flush);

    // The server's name for its certificate: as the spec gave it, or a cluster node's address.
    std::string host() const;

    // Ciphertext read: the handshake's until it is done (a certificate refused fails the run
    // as a refused login does), then the replies' plaintext.
    // True also when the link went down meanwhile (a write failed): that is handled.
    bool take_sealed(std::string_view received);
    bool tls_handshaking() const noexcept { return tls_ && !handshaken_; }

    // Hands the replies just read on, after what an unfinished one left; keeps what is still
    // unfinished. Bytes are read into the worker's buffer, so an idle link holds none, and a
    // link copies only the tail of a reply that a read cut.
    bool take_plain(std::string_view fresh);

    // The login's replies; none may follow its last one, as no op went out before it.
    ReplyParser::Result on_login_replies(std::string_view data);

    // TCP is up: a TLS handshake or a Redis login first, where the spec asks for one.
    void connected();

    // The connect failed (at once, or when the socket said so).
    void unreached(int error);

    // Reads until a read comes back short: the socket is then empty, and the next bytes bring
    // a new edge. A recv that would find nothing is never made.
    void read();

    // The server went away (or never came): its requests fail; a retry follows, backing off.
    void down(CacheError kind = CacheError::connection);

    // Only a cluster's link outgrows the pipeline: the parts of a multi-get split by slot, an
    // ASK's ASKING, and ops redirected to it. It doubles, rarely and never again once large.
    void grow();
    void settle();
    void close_socket();
    void reset_socket();

    AsyncConnection& owner_;
    const size_t node_;  // its index in the connection's links
    boost::asio::ip::tcp::endpoint server_;
    const std::string name_;  // a cluster node's host:port, its figures' name
    int fd_ = -1;
    uint32_t registration_ = 0;  // with the worker's reactor, while registered_
    bool registered_ = false;
    bool connecting_ = false;  // the TCP connect is under way
    Reactor::Timer retry_timer_;
    OutBuffer front_;        // being written
    size_t front_sent_ = 0;  // of front_
    OutBuffer back_;         // filling up meanwhile
    bool writing_ = false;
    std::string carry_;  // an unfinished reply's bytes
    ReplyParser parser_;
    RespParser resp_;
    std::vector<Pending> ring_;
    size_t head_ = 0;
    size_t count_ = 0;
    State state_ = State::down;
    uint64_t generation_ = 0;
    int failures_ = 0;
    bool settled_ = false;       // its first connect ended
    uint32_t batch_keys_ = 0;    // keys of the batch being spread over the links
    Clock::time_point since_{};  // last progress: connect started, first send, last reply
    const bool redis_;
    RedisLogin login_;
    OutBuffer login_out_;
    // TLS ("redis": {"tls": ...}): a session per connect, its handshake's flights and the
    // sealed bytes to write.
    std::unique_ptr<TlsFilter> tls_;
    bool handshaken_ = false;
    OutBuffer small_out_;
    OutBuffer wire_;

    friend class AsyncConnection;
};

}  // namespace perflab
