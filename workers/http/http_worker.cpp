// SPDX-License-Identifier: MIT
#include "http_worker.h"

#include <algorithm>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <deque>
#include <functional>
#include <stdexcept>
#include <thread>

#include "http_connection.h"
#include "model/double_buffer.h"

namespace perflab {

namespace {

constexpr auto kLate = std::chrono::milliseconds(1);
constexpr auto kSweep = std::chrono::milliseconds(10);
constexpr auto kMaxBackoff = std::chrono::milliseconds(100);
// Sends in one burst of the pacing handler before it looks at the clock again.
constexpr int kClockEvery = 64;
// Idle connections looked at for one of the right origin before any is reconnected.
constexpr size_t kOriginScan = 8;

int64_t micros(Clock::duration d) {
    return std::chrono::duration_cast<std::chrono::microseconds>(d).count();
}

// Sends that found every connection busy at the bound, oldest first. A ring that only grows,
// so a long stall costs no allocation once it has been seen.
class Backlog {
  public:
    struct Pending {
        Clock::time_point due;
        size_t target;
    };
    bool empty() const { return size_ == 0; }
    void push(const Pending& p) {
        if (size_ == ring_.size()) grow();
        ring_[(head_ + size_) & (ring_.size() - 1)] = p;
        ++size_;
    }
    Pending pop() {
        const Pending p = ring_[head_];
        head_ = (head_ + 1) & (ring_.size() - 1);
        --size_;
        return p;
    }

  private:
    void grow() {
        std::vector<Pending> bigger(std::max<size_t>(64, ring_.size() * 2));
        for (size_t i = 0; i < size_; ++i)
            bigger[i] = ring_[(head_ + i) & (ring_.size() - 1)];
        ring_.swap(bigger);
        head_ = 0;
    }
    std::vector<Pending> ring_;
    size_t head_ = 0;
    size_t size_ = 0;
};

std::vector<Tcp::resolver::results_type> resolve(asio::io_context& io, const HttpPlan& plan) {
    Tcp::resolver resolver(io);
    std::vector<Tcp::resolver::results_type> out;
    for (const auto& url : plan.origins) {
        boost::system::error_code ec;
        out.push_back(resolver.resolve(url.host, std::to_string(url.port), ec));
        if (ec)
            throw std::runtime_error("http.targets: cannot resolve \"" + url.host +
                                     "\": " + ec.message());
    }
    return out;
}

std::optional<asio::ssl::context> tls_context(const HttpPlan& plan) {
    if (!plan.any_tls()) return std::nullopt;
    std::optional<asio::ssl::context> ctx(std::in_place, asio::ssl::context::tls_client);
    if (plan.spec.tls_verify) {
        ctx->set_default_verify_paths();
        ctx->set_verify_mode(asio::ssl::verify_peer);
    } else {
        ctx->set_verify_mode(asio::ssl::verify_none);
    }
    return ctx;
}

}  // namespace

class HttpWorker::Impl final : public HttpConnectionOwner {
  public:
    Impl(const HttpPlan& plan, PhaseBoard& board, int index)
        : plan_(plan),
          board_(board),
          index_(index),
          names_(plan.names()),
          tls_(tls_context(plan)),
          endpoints_(resolve(io_, plan)) {}

    ~Impl() {
        join();
        conns_.clear();
    }

    void launch() {
        sweep();
        thread_ = std::thread([this] { io_.run(); });
    }
    void join() {
        if (thread_.joinable()) thread_.join();
    }
    void post(std::function<void()> f) { asio::post(io_, std::move(f)); }

    void on_phase(int phase, int bound) {
        phase_ = phase;
        reported_ = false;
        const PhasePlan& plan = board_.plan(phase);
        pacer_.reset(plan, index_);
        open_model_ = plan.phase.open();
        const uint64_t ops = plan.phase.ops;
        const auto n = uint64_t(std::max(1, plan.connections));
        open_budget_ = ops / n + (uint64_t(index_) < ops % n ? 1 : 0);
        open_sent_ = 0;
        pace_.cancel();
        const int participants = std::max(1, plan.connections);
        const int share =
            pacer_.active() ? bound / participants + (index_ < bound % participants ? 1 : 0) : 0;
        users_ = open_model_ ? 0 : share;
        cap_ = open_model_ ? std::max(1, share) : 0;
        if (open_model_) {
            // Closed-model connections waiting out a failed connect join the pool.
            for (auto& c : conns_)
                if (!c->busy()) make_idle(*c);
            schedule_pace();
        } else {
            while (int(conns_.size()) < users_)
                add_connection();
            for (int k = 0; k < users_; ++k)
                if (!conns_[size_t(k)]->busy()) issue_closed(*conns_[size_t(k)], Clock::now());
        }
        check_done();
    }

    void on_stop(bool abandon) {
        if (abandon) return io_.stop();
        // Sends due before the stop still go, however late the timer is.
        if (open_model_ && phase_ >= 0) on_pace();
        stopping_ = true;
        pace_.cancel();
        check_done();
    }

    void on_complete(HttpConnection& c, const HttpOutcome& outcome) override {
        const auto now = outcome.at;
        const int64_t us = micros(now - c.from());
        const size_t n = names_.size();
        stats_.write([&](HttpStats& s) {
            if (outcome.error)
                s.failure(c.target(), n, *outcome.error, us);
            else
                s.response(c.target(), n, outcome.status, us, outcome.body_bytes);
        });
        --inflight_;
        last_reply_ = now;
        if (outcome.error && !open_model_) {
            const auto pause = std::min<Clock::duration>(
                kMaxBackoff, std::chrono::milliseconds(int64_t{1} << std::min(c.failures, 7)));
            c.retry_at = now + pause;
        }
        next(c, now);
        check_done();
    }

    void drain(IntervalSample& out) {
        stats_.drain([&](const HttpStats& s) { s.add_to(out, names_); });
    }

    // Declared before io_ so that it outlives it: operations still queued when a run is
    // abandoned are freed into it when io_ goes. A deque: growing it moves nothing.
    std::deque<HandlerMemory> handler_memory_;
    // Only this worker's thread touches its sockets and timers (other threads only post), so
    // the reactor's per-socket lock guards nothing: three lock/unlock pairs a request saved.
    asio::io_context io_{BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO};
    std::atomic<int> open_count_{0};
    Clock::time_point last_send_{};
    Clock::time_point last_reply_{};

  private:
    void add_connection() {
        const HttpConnection::Context ctx{
            io_,         tls_ ? &*tls_ : nullptr,       plan_, endpoints_, *this,
            open_count_, handler_memory_.emplace_back()};
        conns_.push_back(std::make_unique<HttpConnection>(ctx, int(conns_.size())));
    }

    size_t next_target() {
        const size_t t = next_target_;
        next_target_ = next_target_ + 1 == plan_.targets.size() ? 0 : next_target_ + 1;
        return t;
    }

    // `now` is a recent clock reading, not necessarily a fresh one: a closed-model request
    // starts on the reading that ended the previous one, one clock read per request.
    void start(HttpConnection& c, size_t target, Clock::time_point from, Clock::time_point now) {
        const bool late = open_model_ && now - from > kLate;
        const size_t body = plan_.targets[target].body_size;
        stats_.write([&](HttpStats& s) {
            ++s.sent;
            s.late += late;
            s.bytes_out += body;
        });
        ++inflight_;
        last_send_ = now;
        c.send(target, from, now);
    }

    // Closed model: the connection sends its next request, unless the phase owes none or
    // the connection is waiting out a failed connect (the sweep retries it).
    void issue_closed(HttpConnection& c, Clock::time_point now) {
        if (stopping_ || !pacer_.active() || pacer_.exhausted()) return make_idle(c);
        unidle(c);
        if (c.failures > 0 && now < c.retry_at) return;
        pacer_.advance();
        start(c, next_target(), now, now);
    }

    void next(HttpConnection& c, Clock::time_point now) {
        if (!backlog_.empty()) {
            const auto p = backlog_.pop();
            return start(c, p.target, p.due, now);
        }
        if (!open_model_ && c.id() < users_)
            issue_closed(c, now);
        else
            make_idle(c);
    }

    void make_idle(HttpConnection& c) {
        if (c.idle_slot != SIZE_MAX) return;
        c.idle_slot = idle_.size();
        idle_.push_back(&c);
    }

    void unidle(HttpConnection& c) {
        if (c.idle_slot == SIZE_MAX) return;
        HttpConnection* last = idle_.back();
        idle_[c.idle_slot] = last;
        last->idle_slot = c.idle_slot;
        idle_.pop_back();
        c.idle_slot = SIZE_MAX;
    }

    HttpConnection* take_idle(size_t origin) {
        if (idle_.empty()) return nullptr;
        HttpConnection* pick = idle_.back();
        for (size_t i = 0; i < std::min(kOriginScan, idle_.size()); ++i) {
            HttpConnection* c = idle_[idle_.size() - 1 - i];
            if (c->origin() == origin) {
                pick = c;
                break;
            }
        }
        unidle(*pick);
        return pick;
    }

    void schedule_pace() {
        if (stopping_ || !open_model_ || !pacer_.active() || finished()) return;
        pace_.expires_at(pacer_.due());
        pace_.async_wait([this, phase = phase_](const boost::system::error_code& ec) {
            if (!ec && phase == phase_) on_pace();
        });
    }

    // Open model: sends everything due by now, each at its own intended time.
    void on_pace() {
        auto now = Clock::now();
        int burst = 0;
        while (!stopping_ && !finished()) {
            const auto due = pacer_.due();
            if (due > now) break;
            dispatch(due);
            pacer_.advance();
            ++open_sent_;
            if (++burst % kClockEvery == 0) now = Clock::now();
        }
        schedule_pace();
        check_done();
    }

    // The worker's share of the phase is sent. In the open model a send due before the
    // phase's end still goes when the timer wakes a little after it.
    bool finished() const {
        if (!open_model_) return pacer_.exhausted();
        return pacer_.due() == Clock::time_point::max() ||
               (open_budget_ > 0 && open_sent_ >= open_budget_);
    }

    void dispatch(Clock::time_point due) {
        const size_t target = next_target();
        HttpConnection* c = take_idle(plan_.targets[target].origin);
        if (!c && int(conns_.size()) < cap_) {
            add_connection();
            c = conns_.back().get();
        }
        if (c)
            start(*c, target, due, Clock::now());
        else
            backlog_.push({due, target});
    }

    void check_done() {
        if (inflight_ > 0 || !backlog_.empty()) return;
        if (stopping_) return shutdown();
        if (phase_ >= 0 && !reported_ && pacer_.active() && finished()) {
            board_.mark_done(phase_);
            reported_ = true;
        }
    }

    void shutdown() {
        pace_.cancel();
        sweep_.cancel();
        for (auto& c : conns_)
            c->close();
        guard_.reset();
    }

    // Enforces connect and request timeouts, and retries closed-model connections whose
    // connect failed once their pause is over.
    void sweep() {
        const auto now = Clock::now();
        for (auto& c : conns_) {
            c->expire_if_due(now);
            if (!stopping_ && !open_model_ && c->id() < users_ && !c->busy() &&
                c->idle_slot == SIZE_MAX && now >= c->retry_at)
                issue_closed(*c, now);
        }
        check_done();
        if (stopping_ && inflight_ == 0 && backlog_.empty()) return;
        sweep_.expires_after(kSweep);
        sweep_.async_wait([this](const boost::system::error_code& ec) {
            if (!ec) sweep();
        });
    }

    const HttpPlan& plan_;
    PhaseBoard& board_;
    const int index_;
    const std::vector<std::string> names_;
    asio::executor_work_guard<asio::io_context::executor_type> guard_{io_.get_executor()};
    std::optional<asio::ssl::context> tls_;
    std::vector<Tcp::resolver::results_type> endpoints_;
    asio::steady_timer pace_{io_};
    asio::steady_timer sweep_{io_};
    std::vector<std::unique_ptr<HttpConnection>> conns_;
    std::vector<HttpConnection*> idle_;
    Backlog backlog_;
    OpPacer pacer_;
    DoubleBuffer<HttpStats> stats_;
    size_t next_target_ = 0;
    int phase_ = -1;
    bool open_model_ = false;
    uint64_t open_budget_ = 0;  // open model, count-limited phase: this worker's sends
    uint64_t open_sent_ = 0;
    int users_ = 0;
    int cap_ = 0;
    int inflight_ = 0;
    bool stopping_ = false;
    bool reported_ = false;
    std::thread thread_;
};

HttpWorker::HttpWorker(const HttpPlan& plan, PhaseBoard& board, int index)
    : impl_(std::make_unique<Impl>(plan, board, index)) {}

HttpWorker::~HttpWorker() = default;

void HttpWorker::launch() {
    impl_->launch();
}

void HttpWorker::begin_phase(int phase, int bound) {
    impl_->post([i = impl_.get(), phase, bound] { i->on_phase(phase, bound); });
}

void HttpWorker::stop(bool abandon) {
    impl_->post([i = impl_.get(), abandon] { i->on_stop(abandon); });
}

void HttpWorker::join() {
    impl_->join();
}

void HttpWorker::drain(IntervalSample& out) {
    impl_->drain(out);
}

int HttpWorker::open_connections() const {
    return impl_->open_count_.load(std::memory_order_relaxed);
}

Clock::time_point HttpWorker::last_send() const {
    return impl_->last_send_;
}

Clock::time_point HttpWorker::last_reply() const {
    return impl_->last_reply_;
}

}  // namespace perflab
