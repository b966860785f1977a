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
#include <type_traits>

#include "first_error.h"
#include "h2_connection.h"
#include "http_connection.h"
#include "model/double_buffer.h"
#include "model/run_seed.h"
#include "request_template.h"
#include "target_picker.h"

namespace perflab {

namespace {

constexpr auto kLate = std::chrono::milliseconds(1);
constexpr auto kSweep = std::chrono::milliseconds(10);
constexpr size_t kScanPerSweep = 1000;
constexpr auto kMaxBackoff = std::chrono::milliseconds(100);
// Sends in one burst of the pacing handler before it looks at the clock again.
constexpr int kClockEvery = 64;
// Idle connections looked at for one of the right origin before any is reconnected.
constexpr size_t kOriginScan = 8;

// Sends that found every connection busy at the bound, oldest first. A ring that grows while
// a stall lasts and gives a large ring back once it is empty again.
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
    const Pending& front() const { return ring_[head_]; }
    Pending pop() {
        const Pending p = ring_[head_];
        head_ = (head_ + 1) & (ring_.size() - 1);
        --size_;
        if (size_ == 0) release();
        return p;
    }
    // Empties it; returns how many sends it held.
    size_t clear() {
        const size_t n = size_;
        size_ = head_ = 0;
        release();
        return n;
    }

  private:
    static constexpr size_t kKeep = 4096;
    void release() {
        if (ring_.size() <= kKeep) return;
        std::vector<Pending>().swap(ring_);
        head_ = 0;
    }
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
    if (plan.spec.http2) {
        static constexpr unsigned char kH2[] = {2, 'h', '2'};
        SSL_CTX_set_alpn_protos(ctx->native_handle(), kH2, sizeof kH2);
    }
    return ctx;
}

std::vector<int64_t> weights_of(const HttpPlan& plan) {
    std::vector<int64_t> weights;
    for (const auto& t : plan.spec.targets)
        weights.push_back(t.weight);
    return weights;
}

}  // namespace

// The worker's protocol-independent face, for HttpWorker to forward to.
class HttpWorker::Impl {
  public:
    virtual ~Impl() = default;
    virtual void launch() = 0;
    virtual void join() = 0;
    virtual void preconnect(int connections, std::function<void()> settled) = 0;
    virtual void begin_phase(int phase, int bound) = 0;
    virtual void stop(bool abandon) = 0;
    virtual void drain(IntervalSample& out, int phase, Clock::time_point origin) = 0;
    virtual int open_connections() const = 0;
};

namespace {

// One worker's loop over its channels, each carrying one request at a time: HTTP/1.1
// connections, or HTTP/2 stream slots on the connections of an H2Pool. A template rather than
// an interface, so the HTTP/1.1 path calls its connections directly, as it always did.
template <class Channel>
class WorkerCore final : public HttpWorker::Impl, public ChannelOwner<Channel> {
    static constexpr bool kH2 = std::is_same_v<Channel, H2Stream>;

  public:
    WorkerCore(const HttpPlan& plan, PhaseBoard& board, int index, FirstError& unreached)
        : plan_(plan),
          board_(board),
          index_(index),
          unreached_(unreached),
          names_(plan.names()),
          targets_(weights_of(plan)),
          render_(stream_seed(plan.seed,
                              uint64_t(plan.share) * uint64_t(plan.spec.threads) + uint64_t(index),
                              Stream::templates)),
          requests_(plan.targets.size(), 0),
          think_rng_(stream_seed(
              plan.seed, uint64_t(plan.share) * uint64_t(plan.spec.threads) + uint64_t(index),
              Stream::think)),
          tls_(tls_context(plan)),
          endpoints_(resolve(io_, plan)),
          slots_{Slot(names_.size()), Slot(names_.size())} {
        render_.rows.resize(plan.csv_sources);
        if constexpr (kH2)
            pool_ = std::make_unique<H2Pool>(H2Pool::Context{
                io_, tls_ ? &*tls_ : nullptr, plan_, endpoints_, open_count_, handler_memory_});
    }

    ~WorkerCore() override {
        join();
        conns_.clear();
        pool_.reset();
    }

    void launch() override {
        sweep();
        thread_ = std::thread([this] { io_.run(); });
    }
    void join() override {
        if (thread_.joinable()) thread_.join();
    }
    void preconnect(int connections, std::function<void()> settled) override {
        asio::post(io_, [this, connections, settled = std::move(settled)]() mutable {
            on_preconnect(connections, std::move(settled));
        });
    }
    void begin_phase(int phase, int bound) override {
        asio::post(io_, [this, phase, bound] { on_phase(phase, bound); });
    }
    void stop(bool abandon) override {
        asio::post(io_, [this, abandon] { on_stop(abandon); });
    }
    int open_connections() const override { return open_count_.load(std::memory_order_relaxed); }

    void on_preconnect(int n, std::function<void()> settled) {
        settled_ = std::move(settled);
        if constexpr (kH2) pool_->set_bound(streams_to_connections(n));
        for (int i = 0; i < n; ++i) {
            add_connection();
            ++preconnecting_;
            conns_.back()->preconnect(plan_.targets[first_target(size_t(i))].origin);
        }
        if (preconnecting_ == 0) settled_();
    }

    void on_ready(Channel&) override {
        if (--preconnecting_ == 0) settled_();
    }

    void on_phase(int phase, int bound) {
        if (phase_ >= 0) end_phase(Clock::now());
        phase_ = phase;
        reported_ = false;
        const PhasePlan& plan = board_.plan(phase);
        pacer_.reset(plan, index_, board_.cut(phase));
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
        // HTTP/2: a closed phase's connections are its concurrent streams, max_streams to a
        // connection; an open phase's bound is on connections, each with max_streams slots.
        if constexpr (kH2) {
            pool_->set_bound(open_model_ ? cap_ : streams_to_connections(users_));
            if (open_model_) cap_ *= plan_.spec.max_streams;
        }
        // A phase's bound holds for connections kept from an earlier, wider phase too: idle
        // ones beyond it close (busy ones once their request ends).
        for (auto& c : conns_)
            if (!c->busy()) {
                unidle(*c);
                make_idle(*c);
            }
        if (open_model_) {
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
        if (abandon) return abandon_in_flight();
        if (stopping_) return;
        if (phase_ >= 0) end_phase(Clock::now());
        stopping_ = true;
        pace_.cancel();
        check_done();
    }

    void on_complete(Channel& c, const HttpOutcome& outcome) override {
        const auto now = outcome.at;
        const int64_t us = micros(now - c.from());
        const int64_t service = c.paced ? micros(now - c.sent()) : -1;
        const size_t op = figures_of(c);
        unsigned failed = outcome.failed_checks;
        if constexpr (!kH2)  // sessions run over HTTP/1.1 (spec_parse refuses them with http2)
            if (session_) failed = end_step(c, outcome);
        Slot& slot = slot_of(c.phase);
        slot.stats.write([&](HttpStats& s) {
            if (outcome.error)
                s.failure(op, *outcome.error);
            else
                s.response(op, outcome.status, us, service, outcome.body_bytes, failed,
                           outcome.status_checked);
            s.times.replied(now);
        });
        if (outcome.error && outcome.unreached) note_unreached(c, outcome);
        --slot.inflight;
        if (c.phase == draining_ && slot.inflight == 0) finish_drain();
        if (outcome.error && !open_model_) {
            const auto pause = std::min<Clock::duration>(
                kMaxBackoff, std::chrono::milliseconds(int64_t{1} << std::min(c.failures, 7)));
            c.retry_at = now + pause;
        }
        next(c, now);
        check_done();
    }

    void drain(IntervalSample& out, int phase, Clock::time_point origin) override {
        slot_of(phase).stats.drain([&](const HttpStats& s) { s.add_to(out, names_, origin); });
    }

    // Declared before io_ so that it outlives it: operations still queued when a run is
    // abandoned are freed into it when io_ goes. A deque: growing it moves nothing.
    std::deque<HandlerMemory> handler_memory_;
    // Only this worker's thread touches its sockets and timers (other threads only post), so
    // the reactor's per-socket lock guards nothing: three lock/unlock pairs a request saved.
    asio::io_context io_{BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO};
    std::atomic<int> open_count_{0};

  private:
    // A session's virtual user, one per connection (by its id): where it is in the steps and
    // what it captured, in buffers reserved once so that capturing allocates nothing.
    struct Session {
        Session(asio::io_context& io, size_t vars) : think(io), values(vars) {
            for (auto& v : values)
                v.reserve(kMaxCaptureBytes);
        }
        asio::steady_timer think;
        std::vector<std::string> values;  // by HttpPlan::vars
        size_t step = 0;
        bool thinking = false;  // its think timer runs
        bool thought = false;   // the think time before `step` is over
    };

    // A phase's figures and its requests in flight. Two, by phase parity: the current phase
    // and the one before it, whose replies may still be coming in.
    struct Slot {
        explicit Slot(size_t targets) : stats(HttpStats(targets)) {}
        DoubleBuffer<HttpStats> stats;
        int inflight = 0;
    };
    Slot& slot_of(int phase) { return slots_[size_t(phase) & 1]; }

    // The phase is over for this worker: what was due by now goes out if a connection is
    // free, the rest is dropped, and its requests in flight are awaited apart.
    void end_phase(Clock::time_point now) {
        uint64_t dropped = 0;
        if (open_model_ && pacer_.active())
            while (!finished() && pacer_.due() <= now) {
                if (!dispatch_now(pacer_.due(), next_target())) ++dropped;
                pacer_.advance();
                ++open_sent_;
            }
        dropped += backlog_.clear();
        if (dropped) slot_of(phase_).stats.write([&](HttpStats& s) { s.dropped += dropped; });
        draining_ = phase_;
        if (slot_of(phase_).inflight == 0) finish_drain();
    }

    void finish_drain() {
        board_.mark_drained(draining_);
        draining_ = -1;
    }

    // A second stop: requests still in flight are counted as cancelled and nothing more runs.
    void abandon_in_flight() {
        const auto now = Clock::now();
        for (auto& c : conns_) {
            if (!c->in_request()) continue;
            slot_of(c->phase).stats.write([&](HttpStats& s) {
                s.failure(figures_of(*c), HttpError::cancelled);
                s.times.replied(now);
            });
        }
        io_.stop();
    }

    void note_unreached(const Channel& c, const HttpOutcome& outcome) {
        unreached_.note([&] {
            const Url& url = plan_.origins[c.origin()];
            return url.host + ":" + std::to_string(url.port) + ": " +
                   (outcome.detail ? outcome.detail : to_text(*outcome.error));
        });
    }

    int streams_to_connections(int streams) const {
        return (streams + plan_.spec.max_streams - 1) / plan_.spec.max_streams;
    }

    void add_connection() {
        if constexpr (kH2) {
            const H2Stream::Context ctx{*pool_, *this, plan_};
            conns_.push_back(std::make_unique<H2Stream>(ctx, int(conns_.size())));
        } else {
            const HttpConnection::Context ctx{
                io_,         tls_ ? &*tls_ : nullptr,       plan_, endpoints_, *this,
                open_count_, handler_memory_.emplace_back()};
            conns_.push_back(std::make_unique<HttpConnection>(ctx, int(conns_.size())));
        }
        if (session_) sessions_.emplace_back(io_, plan_.vars.size());
    }

    size_t next_target() { return targets_.next(); }

    // A connection opened ahead of the load goes where its first request will.
    size_t first_target(size_t connection) const {
        if (session_) return plan_.steps.front().target;
        return connection % plan_.targets.size();
    }

    // Where a request's figures go: its session step, or its target.
    size_t figures_of(const Channel& c) const {
        return session_ ? sessions_[size_t(c.id())].step : c.target();
    }

    // A session step's response: its capture taken, the user moved on to its next step, or
    // back to the first when the capture failed (a later step would lack the value). Returns
    // the response's failed checks, the capture's among them.
    unsigned end_step(Channel& c, const HttpOutcome& outcome) {
        Session& user = sessions_[size_t(c.id())];
        const PreparedStep& step = plan_.steps[user.step];
        unsigned failed = outcome.failed_checks;
        bool captured = true;
        if (step.capture) {
            captured = !outcome.error && step.capture->take(c.response_body(), c.response_header(),
                                                            user.values[step.capture->var()]);
            if (!captured && !outcome.error) failed |= 1u << unsigned(CheckKind::capture);
        }
        user.step = captured ? (user.step + 1) % plan_.steps.size() : 0;
        c.capture = nullptr;
        return failed;
    }

    // Before a step with a think time the user waits it out on its own timer; true while it
    // does. The timer's end sends the step, unless the phase has no place for the user then.
    bool thinking(Channel& c) {
        Session& user = sessions_[size_t(c.id())];
        if (user.thinking) return true;
        const PreparedStep& step = plan_.steps[user.step];
        if (step.think_max_ms == 0 || user.thought) {
            user.thought = false;
            return false;
        }
        const uint64_t span = uint64_t(step.think_max_ms - step.think_min_ms) + 1;
        const auto ms = step.think_min_ms + think_rng_.below(span);
        user.thinking = true;
        user.think.expires_after(std::chrono::milliseconds(ms));
        // The connection's handler memory is free: it has no request in flight.
        const auto woke = [this, &c, &user](const boost::system::error_code& ec) {
            if (ec) return;
            user.thinking = false;
            user.thought = true;
            if (c.id() < users_)
                issue_closed(c, Clock::now());
            else
                make_idle(c);
            check_done();
        };
        user.think.async_wait(InMemory(handler_memory_[size_t(c.id())], woke));
        return true;
    }

    // Session: sends the user's step, its capture armed.
    void start_step(Channel& c, Clock::time_point now) {
        const PreparedStep& step = plan_.steps[sessions_[size_t(c.id())].step];
        render_.values = sessions_[size_t(c.id())].values.data();
        c.capture = step.capture.get();
        start(c, step.target, now, now);
    }

    // A target's requests are numbered across the run without any shared counter: this
    // worker's k-th is k × (threads × shares) + its own place, so every number is used once
    // and, with one thread on one machine, they come in order.
    uint64_t next_request_number(size_t target) {
        const auto workers = uint64_t(plan_.spec.threads) * uint64_t(plan_.shares);
        const auto place = uint64_t(plan_.share) * uint64_t(plan_.spec.threads) + uint64_t(index_);
        return requests_[target]++ * workers + place;
    }

    // `now` is a recent clock reading, not necessarily a fresh one: a closed-model request
    // starts on the reading that ended the previous one, one clock read per request.
    void start(Channel& c, size_t target, Clock::time_point from, Clock::time_point now) {
        const bool late = open_model_ && now - from > kLate;
        const PreparedTarget& t = plan_.targets[target];
        const size_t body = t.program ? t.program->render(c.request_buffer(), c.body_buffer(),
                                                          render_, next_request_number(target))
                                      : t.body_size;
        Slot& slot = slot_of(phase_);
        slot.stats.write([&](HttpStats& s) {
            ++s.sent;
            s.late += late;
            s.bytes_out += body;
            s.times.sent(now);
        });
        ++slot.inflight;
        c.phase = phase_;
        c.paced = open_model_;
        c.send(target, from, now);
    }

    // Closed model: the connection sends its next request, unless the phase owes none or
    // the connection is waiting out a failed connect (the sweep retries it).
    void issue_closed(Channel& c, Clock::time_point now) {
        if (stopping_ || !pacer_.active() || pacer_.exhausted()) return make_idle(c);
        unidle(c);
        if (c.failures > 0 && now < c.retry_at) return;
        if constexpr (!kH2)
            if (session_ && thinking(c)) return;
        pacer_.advance();
        if constexpr (!kH2)
            if (session_) return start_step(c, now);
        start(c, next_target(), now, now);
    }

    void next(Channel& c, Clock::time_point now) {
        drop_stale_backlog(now);
        if (!backlog_.empty()) {
            const auto p = backlog_.pop();
            return start(c, p.target, p.due, now);
        }
        if (!open_model_ && c.id() < users_)
            issue_closed(c, now);
        else
            make_idle(c);
    }

    // An idle connection beyond the phase's bound is closed rather than kept for reuse.
    void make_idle(Channel& c) {
        if (c.idle_slot != SIZE_MAX) return;
        if (c.id() >= (open_model_ ? cap_ : users_)) return c.close();
        c.idle_slot = idle_.size();
        idle_.push_back(&c);
    }

    void unidle(Channel& c) {
        if (c.idle_slot == SIZE_MAX) return;
        Channel* last = idle_.back();
        idle_[c.idle_slot] = last;
        last->idle_slot = c.idle_slot;
        idle_.pop_back();
        c.idle_slot = SIZE_MAX;
    }

    Channel* take_idle(size_t origin) {
        if (idle_.empty()) return nullptr;
        Channel* pick = idle_.back();
        for (size_t i = 0; i < std::min(kOriginScan, idle_.size()); ++i) {
            Channel* c = idle_[idle_.size() - 1 - i];
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
            if (!ec && phase == phase_ && !stopping_) on_pace();
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

    // Sends on a free connection (or a new one, under the bound); false when there is none.
    bool dispatch_now(Clock::time_point due, size_t target) {
        Channel* c = take_idle(plan_.targets[target].origin);
        if (!c && int(conns_.size()) < cap_) {
            add_connection();
            c = conns_.back().get();
        }
        if (!c) return false;
        start(*c, target, due, Clock::now());
        return true;
    }

    void dispatch(Clock::time_point due) {
        const size_t target = next_target();
        if (!dispatch_now(due, target)) backlog_.push({due, target});
    }

    // A send that waited longer than a request may take is dropped: the backlog stays within
    // rate x timeout however long the server stalls.
    void drop_stale_backlog(Clock::time_point now) {
        const auto limit = std::chrono::milliseconds(plan_.spec.timeout_ms);
        uint64_t dropped = 0;
        while (!backlog_.empty() && now - backlog_.front().due > limit) {
            backlog_.pop();
            ++dropped;
        }
        if (dropped) slot_of(phase_).stats.write([&](HttpStats& s) { s.dropped += dropped; });
    }

    void check_done() {
        if (slots_[0].inflight + slots_[1].inflight == 0 && backlog_.empty() && stopping_)
            return shutdown();
        if (phase_ < 0 || stopping_ || reported_ || !pacer_.active() || !finished()) return;
        if (slot_of(phase_).inflight > 0 || !backlog_.empty()) return;
        board_.mark_done(phase_);
        reported_ = true;
    }

    void shutdown() {
        pace_.cancel();
        sweep_.cancel();
        for (auto& user : sessions_)
            user.think.cancel();
        for (auto& c : conns_)
            c->close();
        if constexpr (kH2) pool_->close_all();
        guard_.reset();
    }

    // Enforces connect and request timeouts, retries closed-model connections whose connect
    // failed once their pause is over, and drops sends that waited too long for a connection.
    // A sweep visits kScanPerSweep connections, the next ones in turn: with 10 000 each is seen
    // every 100 ms, a timeout that much late, where scanning all of them every sweep took 3%
    // of the client's CPU.
    void sweep() {
        const auto now = Clock::now();
        const size_t n = conns_.size();
        for (size_t i = 0; i < std::min(n, kScanPerSweep); ++i) {
            if (scan_ >= n) scan_ = 0;
            Channel& c = *conns_[scan_++];
            c.expire_if_due(now);
            if (!stopping_ && !open_model_ && c.id() < users_ && !c.busy() &&
                c.idle_slot == SIZE_MAX && now >= c.retry_at)
                issue_closed(c, now);
        }
        if constexpr (kH2) pool_->expire_if_due(now);
        if (phase_ >= 0) drop_stale_backlog(now);
        check_done();
        if (stopping_ && slots_[0].inflight + slots_[1].inflight == 0) return;
        sweep_.expires_after(kSweep);
        sweep_.async_wait([this](const boost::system::error_code& ec) {
            if (!ec) sweep();
        });
    }

    const HttpPlan& plan_;
    PhaseBoard& board_;
    const int index_;
    FirstError& unreached_;
    const std::vector<std::string> names_;
    TargetPicker targets_;
    RenderState render_;
    std::vector<uint64_t> requests_;  // per target: requests this worker rendered
    const bool session_ = !plan_.steps.empty();
    Rng think_rng_;
    asio::executor_work_guard<asio::io_context::executor_type> guard_{io_.get_executor()};
    std::optional<asio::ssl::context> tls_;
    std::vector<Tcp::resolver::results_type> endpoints_;
    asio::steady_timer pace_{io_};
    asio::steady_timer sweep_{io_};
    std::unique_ptr<H2Pool> pool_;  // HTTP/2 only
    std::vector<std::unique_ptr<Channel>> conns_;
    size_t scan_ = 0;  // the next connection a sweep visits
    // A deque: its timers stay where they are while users are added.
    std::deque<Session> sessions_;
    std::vector<Channel*> idle_;
    Backlog backlog_;
    OpPacer pacer_;
    Slot slots_[2];
    int preconnecting_ = 0;
    std::function<void()> settled_;
    int phase_ = -1;
    int draining_ = -1;  // the ended phase whose requests are still in flight
    bool open_model_ = false;
    uint64_t open_budget_ = 0;  // open model, count-limited phase: this worker's sends
    uint64_t open_sent_ = 0;
    int users_ = 0;
    int cap_ = 0;
    bool stopping_ = false;
    bool reported_ = false;
    std::thread thread_;
};

}  // namespace

HttpWorker::HttpWorker(const HttpPlan& plan, PhaseBoard& board, int index, FirstError& unreached) {
    if (plan.spec.http2)
        impl_ = std::make_unique<WorkerCore<H2Stream>>(plan, board, index, unreached);
    else
        impl_ = std::make_unique<WorkerCore<HttpConnection>>(plan, board, index, unreached);
}

HttpWorker::~HttpWorker() = default;

void HttpWorker::launch() {
    impl_->launch();
}

void HttpWorker::preconnect(int connections, std::function<void()> settled) {
    impl_->preconnect(connections, std::move(settled));
}

void HttpWorker::begin_phase(int phase, int bound) {
    impl_->begin_phase(phase, bound);
}

void HttpWorker::stop(bool abandon) {
    impl_->stop(abandon);
}

void HttpWorker::join() {
    impl_->join();
}

void HttpWorker::drain(IntervalSample& out, int phase, Clock::time_point origin) {
    impl_->drain(out, phase, origin);
}

int HttpWorker::open_connections() const {
    return impl_->open_connections();
}

}  // namespace perflab
