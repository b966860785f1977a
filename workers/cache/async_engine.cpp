// SPDX-License-Identifier: MIT
#include "async_engine.h"

#include <sched.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <stdexcept>
#include <thread>

#include "async_worker.h"
#include "cluster_discovery.h"
#include "model/run_seed.h"

namespace perflab {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

// Cores this process may run on (taskset, cgroups), not merely the cores the machine has.
int usable_cores() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
    return int(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace

AsyncEngine::AsyncEngine(const RunSpec& spec)
    : spec_(with_seed(spec)),
      board_(spec.phases.size()),
      loads_(spec_),
      slot_loads_(spec.phases.size(), 0) {
    if (!spec_.cache->commands.empty()) commands_.emplace(spec_.cache->commands);
}

AsyncEngine::~AsyncEngine() {
    stop();
}

void AsyncEngine::resolve() {
    asio::io_context io;
    tcp::resolver resolver(io);
    for (const auto& s : spec_.cache->servers) {
        boost::system::error_code ec;
        const auto found = resolver.resolve(s.host, std::to_string(s.port), ec);
        if (ec || found.empty())
            throw std::runtime_error("cache.servers: cannot resolve " + s.text() + ": " +
                                     ec.message());
        servers_.push_back(found.begin()->endpoint());
    }
}

void AsyncEngine::start() {
    resolve();
    if (const auto& tls = spec_.cache->redis.tls) tls_.emplace(*tls);
    // A cluster's servers are seeds: the connections go to the masters its slot map names.
    if (spec_.cache->redis.cluster) {
        std::vector<std::string> hosts;
        for (const auto& s : spec_.cache->servers)
            hosts.push_back(s.host);
        cluster_ = discover_cluster(servers_, hosts, spec_.cache->redis, tls_ ? &*tls_ : nullptr,
                                    spec_.cache->timeout_ms);
        servers_ = cluster_->nodes;
    }
    int connections = 1;
    for (const auto& p : spec_.phases)
        connections = std::max(connections, phase_connections(spec_, p));
    int threads = spec_.cache->threads;
    if (threads <= 0) threads = usable_cores();
    threads = std::min(threads, connections);
    std::lock_guard lock(workers_mutex_);
    // Connection i runs on thread i % threads, so a phase using fewer connections than the
    // widest still spreads over every thread.
    for (int t = 0; t < threads; ++t) {
        std::vector<int> mine;
        for (int i = t; i < connections; i += threads)
            mine.push_back(i);
        workers_.push_back(std::make_unique<AsyncWorker>(
            *spec_.cache, servers_, board_, cancel_, *spec_.seed, t, mine, unreached_, refused_,
            cluster_ ? &*cluster_ : nullptr, tls_ ? &*tls_ : nullptr));
    }
    for (int t = 0; t < threads; ++t) {
        workers_[size_t(t)]->prepare_loads(loads_, slot_loads_, *spec_.seed, t);
        if (commands_) workers_[size_t(t)]->prepare_commands(*commands_, *spec_.seed, t, threads);
    }
    connecting_.store(connections * int(servers_.size()));
    const auto connected = [this] { connecting_.fetch_sub(1); };
    if (!spec_.cache->prefill) {
        for (auto& w : workers_)
            w->launch({}, nullptr, connected);
        await_connections();
        return throw_if_refused();
    }
    prefilling_.store(threads);
    for (auto& w : workers_)
        w->launch(
            {uint64_t(spec_.share), uint64_t(spec_.shares), uint64_t(connections)},
            [this](uint64_t stored) {
                prefill_sets_.fetch_add(stored);
                if (prefilling_.fetch_sub(1) == 1) prefilling_.notify_all();
            },
            connected);
    for (int left = prefilling_.load(); left > 0; left = prefilling_.load())
        prefilling_.wait(left);
    throw_if_refused();
}

// Credentials or a database the server refuses are no load to measure: the run fails at once.
void AsyncEngine::throw_if_refused() const {
    if (std::string error = refused_.text(); !error.empty())
        throw std::runtime_error("cache.redis: " + error);
}

// The first phase's clock starts once every connection is open (or failed), so its first
// ops are not charged a connect: a failed or silent server ends the wait within its timeout.
void AsyncEngine::await_connections() {
    while (connecting_.load() > 0 && !cancel_.load())
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

bool AsyncEngine::drained(int phase) const {
    return board_.drained(phase, int(workers_.size()));
}

void AsyncEngine::cancel() {
    cancel_.store(true);
    std::lock_guard lock(workers_mutex_);
    for (auto& w : workers_)
        w->abandon();
}

void AsyncEngine::begin_phase(const PhasePlan& plan) {
    // Written before the plan is published: a worker that sees the plan sees its load.
    slot_loads_[size_t(plan.index)] = loads_.index_of(plan.phase);
    board_.publish(plan);
    for (auto& w : workers_)
        w->notify();
}

void AsyncEngine::collect(IntervalSample& out, int phase, Clock::time_point origin) {
    for (auto& w : workers_)
        w->drain(out, phase, origin);
    out.connections = board_.current() >= 0 ? board_.plan(board_.current()).connections : 0;
}

void AsyncEngine::stop() {
    board_.close();
    for (auto& w : workers_)
        w->notify();
    for (auto& w : workers_)
        w->join();
}

}  // namespace perflab
