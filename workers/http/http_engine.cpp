// SPDX-License-Identifier: MIT
#include "http_engine.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "http_worker.h"

namespace perflab {

HttpEngine::HttpEngine(const RunSpec& spec)
    : spec_(spec), plan_(prepare_http(*spec.http)), board_(spec.phases.size()) {
    plan_.seed = spec.seed.value_or(0);
    plan_.share = spec.share;
    plan_.shares = std::max(1, spec.shares);
}

HttpEngine::~HttpEngine() {
    stop();
}

namespace {

// How many connections the first phase needs at once: its connections in the closed model;
// in the open model what its rate keeps busy at 10 ms a request (Little's law), within its
// bound. More open on demand.
int first_connections(const RunSpec& spec, int bound) {
    const Phase& first = spec.phases.front();
    if (!first.open()) return bound;
    return std::clamp(int(std::ceil(first.rate * 0.01)), 1, bound);
}

}  // namespace

int HttpEngine::bound(const Phase& phase, int connections) const {
    // Open model: a phase's concurrency bounds its connections, else http.max_connections.
    return phase.open() ? (phase.concurrency > 0 ? phase.concurrency : plan_.spec.max_connections)
                        : connections;
}

// The connections the first phase starts with are opened before its clock starts, so its
// first requests are not charged a connect (the controller reports how long it took).
void HttpEngine::start() {
    {
        std::lock_guard lock(workers_mutex_);
        for (int i = 0; i < plan_.spec.threads; ++i)
            workers_.push_back(std::make_unique<HttpWorker>(plan_, board_, i, unreached_));
        for (auto& w : workers_)
            w->launch();
        if (cancelled_) {
            for (auto& w : workers_)
                w->stop(true);
            return;
        }
        const Phase& first = spec_.phases.front();
        const int limit = bound(first, phase_connections(spec_, first));
        const int total = first_connections(spec_, limit);
        const int participants = std::max(1, std::min(int(workers_.size()), limit));
        connecting_.store(int(workers_.size()));
        for (int i = 0; i < int(workers_.size()); ++i) {
            const int share =
                i < participants ? total / participants + (i < total % participants ? 1 : 0) : 0;
            workers_[size_t(i)]->preconnect(share, [this] { connecting_.fetch_sub(1); });
        }
    }
    while (connecting_.load() > 0 && !cancel_requested_.load())
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

bool HttpEngine::drained(int phase) const {
    return board_.drained(phase, int(workers_.size()));
}

void HttpEngine::cancel() {
    cancel_requested_.store(true);
    std::lock_guard lock(workers_mutex_);
    cancelled_ = true;
    for (auto& w : workers_)
        w->stop(true);
}

void HttpEngine::begin_phase(const PhasePlan& plan) {
    const int bound = this->bound(plan.phase, plan.connections);
    // On the board, a phase's "connections" are the workers taking part, so OpPacer splits
    // its sends (or its op count) between them and phase_done waits for each of them.
    PhasePlan shared = plan;
    shared.connections = std::max(1, std::min(int(workers_.size()), bound));
    board_.publish(shared);
    for (auto& w : workers_)
        w->begin_phase(plan.index, bound);
}

void HttpEngine::collect(IntervalSample& out, int phase, Clock::time_point origin) {
    int open = 0;
    for (auto& w : workers_) {
        w->drain(out, phase, origin);
        open += w->open_connections();
    }
    out.connections = open;
}

void HttpEngine::stop() {
    if (stopped_) return;
    stopped_ = true;
    board_.close();
    {
        std::lock_guard lock(workers_mutex_);
        for (auto& w : workers_)
            w->stop(false);
    }
    for (auto& w : workers_)
        w->join();
}

}  // namespace perflab
