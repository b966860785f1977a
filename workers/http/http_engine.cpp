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
    for (int i = 0; i < plan_.spec.threads; ++i)
        workers_.push_back(std::make_unique<HttpWorker>(plan_, board_, i));
    for (auto& w : workers_)
        w->launch();
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

void HttpEngine::collect(IntervalSample& out) {
    int open = 0;
    for (auto& w : workers_) {
        w->drain(out);
        open += w->open_connections();
    }
    out.connections = open;
}

void HttpEngine::stop() {
    if (stopped_) return;
    stopped_ = true;
    board_.close();
    for (auto& w : workers_)
        w->stop(cancel_.load());
    Clock::time_point last_send{}, last_reply{};
    for (auto& w : workers_) {
        w->join();
        last_send = std::max(last_send, w->last_send());
        last_reply = std::max(last_reply, w->last_reply());
    }
    if (last_reply > last_send)
        wait_s_ = std::chrono::duration<double>(last_reply - last_send).count();
}

}  // namespace perflab
