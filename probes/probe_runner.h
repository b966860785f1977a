// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "model/observer.h"
#include "probe.h"
#include "remote/hardware_profile.h"
#include "remote/ssh_session.h"

namespace perflab {

struct ProbeOptions {
    std::string known_hosts;  // empty: default_known_hosts_path()
    std::string passphrase;   // for every key file given; memory only
    // By key file, before `passphrase`: what the desktop app was told for each saved host.
    std::map<std::string, std::string> key_passphrases;
    // Ends the probes' SSH connects and commands at once when cancelled (Stop while they
    // connect); may be null.
    std::shared_ptr<SshCancel> cancel;
};

// The probe a spec entry asks for. Throws ProbeError on a malformed target.
std::unique_ptr<Probe> make_probe(const ProbeSpec& spec, const ProbeOptions& options, int tick_ms);

// Runs probes beside a run, each on its own thread, on the run's clock. A probe is polled once
// per tick; the next poll is scheduled only when the previous one finished (a slow host skips
// ticks instead of piling up requests). Observers get on_probe_sample and, for full GCs and
// lost connections, on_event — both on the runner's threads, one call at a time.
class ProbeRunner {
  public:
    using Clock = std::chrono::steady_clock;

    ProbeRunner(std::vector<std::unique_ptr<Probe>> probes, int tick_ms);
    ProbeRunner(const std::vector<ProbeSpec>& specs, int tick_ms, const ProbeOptions& options);
    ~ProbeRunner();

    void add_observer(RunObserver* observer);
    // Connects every probe; throws ProbeError naming the first that cannot start.
    void open();
    // Polls every probe and forgets what it read: the counts of the samples that follow
    // start from here. Called once the run is ready to start (RunObserver::on_ready): what
    // changed since open() (a prefill, a JVM's start-up GCs) is not the run's.
    void baseline();
    // Starts polling; t_ms counts from `origin` (the run's start).
    void start(Clock::time_point origin);
    // Stops polling and closes every probe (remote loops end). Idempotent.
    void stop();
    // As stop, with a last sample of every probe first (to the end of a partial tick) if
    // polling had started: a run's end.
    void finish();

    // The hardware profiles the probes read (remote hosts; a JVM's flags as server notes),
    // keyed by probe source; available after open().
    std::map<std::string, HardwareProfile> profiles() const;
    size_t size() const { return probes_.size(); }

  private:
    void poll_loop(Probe& probe);
    void poll_once(Probe& probe);
    bool halt();  // stops polling; true if it was polling
    void deliver(Probe& probe, ProbeReading reading, int64_t t_ms);
    bool wait_until(Clock::time_point deadline);

    std::vector<std::unique_ptr<Probe>> probes_;
    std::chrono::milliseconds tick_;
    std::vector<RunObserver*> observers_;
    std::vector<std::thread> threads_;
    Clock::time_point origin_{};
    std::mutex deliver_mutex_;
    std::mutex stop_mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
};

}  // namespace perflab
