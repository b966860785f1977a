// SPDX-License-Identifier: MIT
#include "http_engine.h"

#include <algorithm>

#include "http_worker.h"

namespace perflab {

HttpEngine::HttpEngine(const RunSpec& spec)
    : spec_(spec), plan_(prepare_http(*spec.http)), board_(spec.phases.size()) {}

HttpEngine::~HttpEngine() {
    stop();
}

void HttpEngine::start() {
    std::lock_guard lock(workers_mutex_);
    for (int i = 0; i < plan_.spec.threads; ++i)
        workers_.push_back(std::make_unique<HttpWorker>(plan_, board_, i, unreached_));
    for (auto& w : workers_)
        w->launch();
    if (cancelled_)
        for (auto& w : workers_)
            w->stop(true);
}

bool HttpEngine::drained(int phase) const {
    return board_.drained(phase, int(workers_.size()));
}

void HttpEngine::cancel() {
    std::lock_guard lock(workers_mutex_);
    cancelled_ = true;
    for (auto& w : workers_)
        w->stop(true);
}

void HttpEngine::begin_phase(const PhasePlan& plan) {
    const Phase& phase = plan.phase;
    // Open model: a phase's concurrency bounds its connections, else http.max_connections.
    const int bound = phase.open()
                          ? (phase.concurrency > 0 ? phase.concurrency : plan_.spec.max_connections)
                          : plan.connections;
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
