// SPDX-License-Identifier: MIT
#include "async_link.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "tls_filter.h"

namespace perflab {

using boost::asio::ip::tcp;

namespace {

constexpr auto kMaxBackoff = std::chrono::milliseconds(100);

}  // namespace

AsyncConnection::Link::Link(AsyncConnection& owner, size_t node, const tcp::endpoint& server,
                            size_t out_capacity)
    : owner_(owner),
      node_(node),
      server_(server),
      name_(owner.cluster_ ? node_name(server) : std::string()),
      retry_timer_(owner.worker_.reactor(), [this] { connect(); }),
      front_(out_capacity),
      back_(out_capacity),
      ring_(size_t(owner.pipeline_) + 1),
      redis_(owner.worker_.cache().protocol == CacheProtocol::redis),
      login_(owner.worker_.cache().redis),
      login_out_(kLoginCapacity),
      small_out_(owner.worker_.tls() ? kLoginCapacity : 0),
      wire_(owner.worker_.tls() ? out_capacity : 0) {}

AsyncConnection::Link::~Link() {
    close_socket();
}

void AsyncConnection::Link::connect() {
    ++generation_;
    state_ = State::connecting;
    since_ = Clock::now();
    close_socket();
    fd_ = ::socket(server_.protocol().family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return unreached(errno);
    const int one = 1;
    setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (::connect(fd_, server_.data(), socklen_t(server_.size())) != 0 && errno != EINPROGRESS)
        return unreached(errno);
    if (!owner_.worker_.reactor().add(fd_, *this, registration_)) return unreached(errno);
    registered_ = true;
    connecting_ = true;
}

void AsyncConnection::Link::on_ready(uint32_t events) {
    if (connecting_) {
        if (!(events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) return;
        int error = 0;
        socklen_t len = sizeof error;
        if (getsockopt(fd_, SOL_SOCKET, SO_ERROR, &error, &len) != 0) error = errno;
        if (error) return unreached(error);
        connecting_ = false;
        const uint64_t g = generation_;
        connected();
        // A server that speaks first: its bytes came with this edge, and bring no other.
        if (g == generation_ && (events & EPOLLIN)) read();
        return;
    }
    const uint64_t g = generation_;
    if ((events & EPOLLOUT) && writing_) {
        write_front(true);
        if (g != generation_) return;
    }
    if (events & (EPOLLIN | EPOLLRDHUP | EPOLLERR | EPOLLHUP)) read();
}

void AsyncConnection::Link::flush() {
    if (writing_ || (back_.empty() && wire_.empty()) || state_ != State::up) return;
    if (tls_ && !back_.empty()) {
        if (!tls_->seal({back_.data(), back_.size()}, wire_)) return down();
        back_.clear();
    }
    OutBuffer& out = tls_ ? wire_ : back_;
    const uint64_t g = generation_;
    write({out.data(), out.size()});
    if (g == generation_) out.clear();
}

void AsyncConnection::Link::expire_if_stalled(Clock::time_point now, Clock::duration timeout) {
    const bool waiting = state_ == State::connecting || (state_ == State::up && count_ > 0);
    if (!waiting || now - since_ <= timeout) return;
    // A port that speaks no TLS does not answer a handshake (Redis waits for the end of
    // a line): no retry will do better, the run cannot start.
    if (tls_handshaking())
        owner_.worker_.note_refused(
            server_,
            "TLS handshake: no answer within " +
                std::to_string(
                    std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count()) +
                " ms (is it a TLS port?)");
    down(CacheError::timeout);
}

void AsyncConnection::Link::shut() {
    ++generation_;
    retry_timer_.cancel();
    reset_socket();
    state_ = State::down;
}

void AsyncConnection::Link::up() {
    state_ = State::up;
    failures_ = 0;
    settle();
    since_ = Clock::now();
    owner_.on_link_up(*this, since_);
    owner_.pump();
}

void AsyncConnection::Link::begin_session() {
    login_out_.clear();
    if (!redis_) return up();
    login_.begin(login_out_);
    write_login();
}

void AsyncConnection::Link::write_login() {
    if (!tls_) return write_small(login_out_);
    small_out_.clear();
    if (!tls_->seal({login_out_.data(), login_out_.size()}, small_out_)) return down();
    write_small(small_out_);
}

void AsyncConnection::Link::write(std::string_view bytes) {
    if (writing_) return front_.append(bytes);
    const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return down();
    const size_t sent = n < 0 ? 0 : size_t(n);
    if (sent == bytes.size()) return;
    front_.clear();
    front_.append(bytes.substr(sent));
    front_sent_ = 0;
    writing_ = true;
    write_front(false);
}

void AsyncConnection::Link::write_front(bool then_flush) {
    while (front_sent_ < front_.size()) {
        const ssize_t n =
            ::send(fd_, front_.data() + front_sent_, front_.size() - front_sent_, MSG_NOSIGNAL);
        if (n >= 0) {
            front_sent_ += size_t(n);
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) return;
        if (errno != EINTR) return down();
    }
    writing_ = false;
    front_.clear();
    front_sent_ = 0;
    if (then_flush) flush();
}

std::string AsyncConnection::Link::host() const {
    const auto& servers = owner_.worker_.cache().servers;
    if (!owner_.cluster_ && node_ < servers.size()) return servers[node_].host;
    return server_.address().to_string();
}

bool AsyncConnection::Link::take_sealed(std::string_view received) {
    const uint64_t g = generation_;
    if (tls_handshaking()) {
        small_out_.clear();
        const auto step = tls_->handshake(received, small_out_);
        if (!small_out_.empty()) write_small(small_out_);
        if (g != generation_) return true;
        if (step == TlsFilter::Handshake::failed) {
            owner_.worker_.note_refused(server_, tls_->error());
            down(CacheError::connection);
            return false;
        }
        if (step == TlsFilter::Handshake::more) return true;
        handshaken_ = true;
        begin_session();
        if (g != generation_) return true;
    } else if (!tls_->feed(received)) {
        return false;
    }
    const auto plain = owner_.worker_.plain_scratch();
    for (;;) {
        const long got = tls_->open(plain.data(), plain.size());
        if (got < 0) return false;
        if (got == 0) break;
        if (!take_plain({plain.data(), size_t(got)})) return false;
        if (g != generation_) return true;
    }
    tls_->pending(wire_);
    if (!wire_.empty()) flush();
    return true;
}

bool AsyncConnection::Link::take_plain(std::string_view fresh) {
    std::string_view data = fresh;
    if (!carry_.empty()) {
        carry_.append(fresh);
        data = carry_;
    }
    const uint64_t g = generation_;
    const auto r =
        state_ == State::connecting ? on_login_replies(data) : owner_.on_replies(*this, data);
    if (g != generation_) return true;  // the link went down meanwhile, its bytes with it
    if (!r.ok) return false;
    if (carry_.empty())
        carry_.assign(data.substr(r.used));
    else
        carry_.erase(0, r.used);
    return carry_.size() <= kMaxCarry;
}

ReplyParser::Result AsyncConnection::Link::on_login_replies(std::string_view data) {
    auto outcome = RedisLogin::Outcome::next;
    bool extra = false;
    const auto r = resp_.feed(data, [&](const RespReply& reply) {
        if (outcome != RedisLogin::Outcome::next) {
            extra = true;
            return;
        }
        login_out_.clear();
        outcome = login_.on_reply(reply, login_out_);
        if (outcome == RedisLogin::Outcome::next) write_login();
    });
    if (outcome == RedisLogin::Outcome::refused) {
        owner_.worker_.note_refused(server_, login_.error());
        return {r.used, false};
    }
    if (!r.ok || extra) return {r.used, false};
    if (outcome == RedisLogin::Outcome::done) up();
    return {r.used, r.ok};
}

void AsyncConnection::Link::connected() {
    if (const TlsContext* tls = owner_.worker_.tls()) {
        tls_ = std::make_unique<TlsFilter>(*tls, host());
        take_sealed({});
        return;
    }
    begin_session();
}

void AsyncConnection::Link::unreached(int error) {
    owner_.worker_.note_unreached(server_, std::strerror(error));
    down(CacheError::connection);
}

void AsyncConnection::Link::read() {
    const uint64_t g = generation_;
    const auto scratch = owner_.worker_.read_scratch();
    for (;;) {
        char* to = scratch.data();
        const size_t space = scratch.size();
        const ssize_t n = ::recv(fd_, to, space, 0);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return down();
        if (tls_) {
            if (!take_sealed({to, size_t(n)})) {
                if (g == generation_) down();
                return;
            }
        } else if (!take_plain({to, size_t(n)})) {
            if (g == generation_) down();
            return;
        }
        if (g != generation_) return;
        if (size_t(n) < space) break;
    }
    owner_.pump();
}

void AsyncConnection::Link::down(CacheError kind) {
    ++generation_;
    state_ = State::down;
    settle();
    owner_.on_link_down(*this, kind);
    reset_socket();
    if (owner_.mode_ == Mode::closing) return;
    const auto pause = std::min<Clock::duration>(
        kMaxBackoff, std::chrono::milliseconds(int64_t{1} << std::min(failures_++, 7)));
    retry_timer_.arm_after(pause);
}

void AsyncConnection::Link::grow() {
    std::vector<Pending> bigger(ring_.size() * 2);
    for (size_t i = 0; i < count_; ++i)
        bigger[i] = ring_[(head_ + i) % ring_.size()];
    ring_.swap(bigger);
    head_ = 0;
}

void AsyncConnection::Link::settle() {
    if (settled_) return;
    settled_ = true;
    owner_.worker_.link_settled();
}

void AsyncConnection::Link::close_socket() {
    if (registered_) owner_.worker_.reactor().remove(registration_);
    registered_ = false;
    connecting_ = false;
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

void AsyncConnection::Link::reset_socket() {
    close_socket();
    head_ = count_ = 0;
    carry_.clear();
    parser_.reset();
    resp_.reset();
    front_.clear();
    front_sent_ = 0;
    back_.clear();
    writing_ = false;
    tls_.reset();
    handshaken_ = false;
    wire_.clear();
}

}  // namespace perflab
