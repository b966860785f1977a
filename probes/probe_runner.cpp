// SPDX-License-Identifier: MIT
#include "probe_runner.h"

#include "jvm_probe.h"
#include "local_probe.h"
#include "memcached_probe.h"
#include "model/secrets.h"
#include "process_probe.h"
#include "prometheus_probe.h"
#include "redis_probe.h"
#include "ssh_probe.h"

namespace perflab {

namespace {

SshTarget ssh_target(const std::string& text) {
    auto t = parse_ssh_target(text);
    if (!t) throw ProbeError("bad ssh target \"" + text + "\": expected user@host[:port]");
    return *t;
}

SshOptions ssh_options(const ProbeSpec& spec, const ProbeOptions& options) {
    SshOptions o;
    o.key_file = spec.key;
    const auto own = options.key_passphrases.find(spec.key);
    o.passphrase = own != options.key_passphrases.end() ? own->second : options.passphrase;
    o.known_hosts = options.known_hosts;
    o.cancel = options.cancel;
    return o;
}

std::unique_ptr<Probe> make_memcached_probe(const std::string& target) {
    const auto endpoint = parse_endpoint(target);
    if (!endpoint) throw ProbeError("bad memcached target \"" + target + "\": expected host:port");
    return std::make_unique<MemcachedProbe>(endpoint->host, endpoint->port);
}

std::unique_ptr<Probe> make_prometheus_probe(const ProbeSpec& spec, const ProbeOptions& options,
                                             int tick_ms) {
    PrometheusTarget t;
    t.url = spec.url;
    for (const auto& text : spec.metrics) {
        auto selector = parse_prom_selector(text);
        if (selector.index() == 1)
            throw ProbeError("bad selector \"" + text + "\": " + std::get<1>(selector));
        t.selectors.push_back(std::get<0>(std::move(selector)));
    }
    if (!spec.target.empty()) t.via = ssh_target(spec.target);
    t.ssh_options = ssh_options(spec, options);
    t.interval_ms = spec.interval_ms;
    return std::make_unique<PrometheusProbe>(std::move(t), tick_ms);
}

std::unique_ptr<Probe> make_redis_probe(const ProbeSpec& spec, const ProbeOptions& options) {
    const auto endpoint = parse_endpoint(spec.server);
    if (!endpoint) throw ProbeError("bad redis server \"" + spec.server + "\": expected host:port");
    RedisTarget t;
    t.host = endpoint->host;
    t.port = endpoint->port;
    // Its ${NAME} references resolved here, so their values live only in the probe.
    if (!spec.password.empty()) {
        std::vector<SpecError> errors;
        t.password = resolve_redis_password(spec.password, "redis " + spec.server + ": password",
                                            process_environment, errors);
        if (!errors.empty()) throw ProbeError(errors.front().text());
    }
    if (!spec.target.empty()) t.via = ssh_target(spec.target);
    t.ssh_options = ssh_options(spec, options);
    return std::make_unique<RedisProbe>(std::move(t));
}

}  // namespace

std::unique_ptr<Probe> make_probe(const ProbeSpec& spec, const ProbeOptions& options, int tick_ms) {
    switch (spec.type) {
        case ProbeSpec::Type::local:
            return std::make_unique<LocalProbe>(spec.per_core);
        case ProbeSpec::Type::ssh:
            return std::make_unique<SshProbe>(ssh_target(spec.target), ssh_options(spec, options),
                                              spec.per_core);
        case ProbeSpec::Type::memcached:
            return make_memcached_probe(spec.target);
        case ProbeSpec::Type::jvm: {
            JvmTarget t;
            if (!spec.target.empty()) t.ssh = ssh_target(spec.target);
            t.ssh_options = ssh_options(spec, options);
            t.pid = long(spec.pid);
            t.match = spec.match;
            return std::make_unique<JvmProbe>(std::move(t), tick_ms);
        }
        case ProbeSpec::Type::prometheus:
            return make_prometheus_probe(spec, options, tick_ms);
        case ProbeSpec::Type::process: {
            ProcessTarget t;
            if (!spec.target.empty()) t.ssh = ssh_target(spec.target);
            t.ssh_options = ssh_options(spec, options);
            t.pid = long(spec.pid);
            t.match = spec.match;
            t.top = spec.top;
            return std::make_unique<ProcessProbe>(std::move(t), tick_ms);
        }
        case ProbeSpec::Type::redis:
            return make_redis_probe(spec, options);
    }
    throw ProbeError("unknown probe type");
}

ProbeRunner::ProbeRunner(std::vector<std::unique_ptr<Probe>> probes, int tick_ms)
    : probes_(std::move(probes)), tick_(tick_ms) {}

ProbeRunner::ProbeRunner(const std::vector<ProbeSpec>& specs, int tick_ms,
                         const ProbeOptions& options)
    : tick_(tick_ms) {
    for (const auto& spec : specs)
        probes_.push_back(make_probe(spec, options, tick_ms));
}

ProbeRunner::~ProbeRunner() {
    stop();
}

void ProbeRunner::add_observer(RunObserver* observer) {
    observers_.push_back(observer);
}

void ProbeRunner::open() {
    for (auto& p : probes_)
        p->open();
}

std::map<std::string, HardwareProfile> ProbeRunner::profiles() const {
    std::map<std::string, HardwareProfile> out;
    for (const auto& p : probes_)
        if (const auto* profile = p->hardware_profile()) out[p->source()] = *profile;
    return out;
}

void ProbeRunner::start(Clock::time_point origin) {
    origin_ = origin;
    for (auto& p : probes_)
        threads_.emplace_back([this, probe = p.get()] { poll_loop(*probe); });
}

void ProbeRunner::stop() {
    halt();
    for (auto& p : probes_)
        p->close();
}

void ProbeRunner::finish() {
    // A last sample up to the run's end: a full GC or an eviction in its last, partial tick
    // is the run's too.
    if (halt())
        for (auto& p : probes_)
            poll_once(*p);
    stop();
}

bool ProbeRunner::halt() {
    {
        std::lock_guard lock(stop_mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    const bool polling = !threads_.empty();
    for (auto& t : threads_)
        t.join();
    threads_.clear();
    return polling;
}

bool ProbeRunner::wait_until(Clock::time_point deadline) {
    std::unique_lock lock(stop_mutex_);
    return wake_.wait_until(lock, deadline, [this] { return stop_; });
}

void ProbeRunner::baseline() {
    for (auto& p : probes_) {
        try {
            p->poll();
        } catch (const std::exception&) {
            // The first tick's poll says what is wrong, on the run's time axis.
        }
    }
}

void ProbeRunner::poll_loop(Probe& probe) {
    auto next = origin_ + tick_;
    while (!wait_until(next)) {
        poll_once(probe);
        const auto done = Clock::now();
        while (next <= done)
            next += tick_;
    }
}

void ProbeRunner::poll_once(Probe& probe) {
    const auto polled_at = Clock::now();
    ProbeReading reading;
    try {
        reading = probe.poll();
    } catch (const std::exception& e) {
        // A probe's own bug or an unforeseen reply costs its tick, not the run.
        reading = {};
        reading.ready = reading.gap = true;
        reading.events.push_back({0, "error", probe.source() + ": " + e.what()});
    }
    const auto t_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          reading.taken_at.value_or(polled_at) - origin_)
                          .count();
    deliver(probe, std::move(reading), t_ms);
}

void ProbeRunner::deliver(Probe& probe, ProbeReading reading, int64_t t_ms) {
    std::lock_guard lock(deliver_mutex_);
    for (auto& e : reading.events) {
        e.t_ms = t_ms;
        for (auto* o : observers_)
            o->on_event(e);
    }
    if (!reading.ready) return;
    ProbeSample sample{t_ms, probe.source(), probe.kind(), std::move(reading.values), reading.gap};
    for (auto* o : observers_)
        o->on_probe_sample(sample);
}

}  // namespace perflab
