// SPDX-License-Identifier: MIT
#include <termios.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <mutex>

#include "commands.h"
#include "model/format.h"
#include "probe_line.h"
#include "probe_runner.h"
#include "remote/ssh_session.h"
#include "signal_watch.h"

namespace perflab {

namespace {

// Prints each tick and event; wakes the command once `count` samples were printed.
class ProbePrinter : public RunObserver {
  public:
    ProbePrinter(bool json, int count) : json_(json), count_(count) {}

    void on_probe_sample(const ProbeSample& s) override {
        if (json_)
            std::printf("%s\n", nlohmann::json{{"t_ms", s.t_ms},
                                               {"source", s.source},
                                               {"kind", s.kind},
                                               {"gap", s.gap},
                                               {"values", s.values}}
                                    .dump()
                                    .c_str());
        else
            std::printf("%s\n", probe_line(s).c_str());
        std::fflush(stdout);
        std::lock_guard lock(mutex_);
        if (count_ > 0 && ++printed_ >= count_) done_ = true;
        if (done_) wake_.notify_all();
    }

    void on_event(const RunEvent& e) override {
        if (json_)
            std::printf("%s\n",
                        nlohmann::json{{"t_ms", e.t_ms}, {"event", e.kind}, {"text", e.text}}
                            .dump()
                            .c_str());
        else
            std::printf("%s [%s] %s\n", format_clock(e.t_ms).c_str(), e.kind.c_str(),
                        e.text.c_str());
        std::fflush(stdout);
    }

    void stop() {
        std::lock_guard lock(mutex_);
        done_ = true;
        wake_.notify_all();
    }

    void wait() {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return done_; });
    }

  private:
    bool json_;
    int count_;
    int printed_ = 0;
    bool done_ = false;
    std::mutex mutex_;
    std::condition_variable wake_;
};

// local | user@host[:port] | memcached:host:port | redis:host:port | jvm:PID | jvm:PATTERN
std::optional<ProbeSpec> probe_target(const ProbeCommandOptions& o) {
    ProbeSpec spec;
    spec.per_core = o.per_core;
    spec.key = o.key;
    const std::string& t = o.target;
    if (t == "local") {
        spec.type = ProbeSpec::Type::local;
    } else if (t.starts_with("memcached:")) {
        spec.type = ProbeSpec::Type::memcached;
        spec.target = t.substr(10);
    } else if (t.starts_with("redis:")) {
        spec.type = ProbeSpec::Type::redis;
        spec.server = t.substr(6);
        spec.target = o.via;
    } else if (t.starts_with("jvm:") && t.size() > 4) {
        spec.type = ProbeSpec::Type::jvm;
        spec.target = o.via;
        const std::string what = t.substr(4);
        if (what.find_first_not_of("0123456789") == std::string::npos)
            spec.pid = std::stoll(what.substr(0, 9));
        else
            spec.match = what;
    } else if (t.find('@') != std::string::npos) {
        spec.type = ProbeSpec::Type::ssh;
        spec.target = t;
    } else {
        return std::nullopt;
    }
    return spec;
}

// Asks on the terminal, echo off; the answer stays in memory only.
std::string ask_passphrase(const std::string& key) {
    if (!isatty(STDIN_FILENO)) return {};
    std::fprintf(stderr, "Passphrase for %s: ", key.c_str());
    termios saved{};
    tcgetattr(STDIN_FILENO, &saved);
    termios quiet = saved;
    quiet.c_lflag &= ~tcflag_t(ECHO);
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
    std::string answer;
    std::getline(std::cin, answer);
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    std::fprintf(stderr, "\n");
    return answer;
}

std::unique_ptr<Probe> open_probe(const ProbeSpec& spec, const ProbeCommandOptions& o,
                                  std::shared_ptr<SshCancel> cancel) {
    ProbeOptions options;
    options.known_hosts = o.known_hosts;
    options.cancel = std::move(cancel);
    for (;;) {
        auto probe = make_probe(spec, options, o.interval_ms);
        try {
            probe->open();
            return probe;
        } catch (const SshError& e) {
            // A key that needs a passphrase reads as unreadable: ask once, then give up.
            const bool unreadable_key =
                e.kind() == SshError::Kind::key && options.passphrase.empty();
            if (!unreadable_key) throw;
            options.passphrase = ask_passphrase(spec.key);
            if (options.passphrase.empty()) throw;
        }
    }
}

}  // namespace

int probe_command(const ProbeCommandOptions& o) {
    const auto spec = probe_target(o);
    if (!spec) {
        std::fprintf(stderr,
                     "perflab probe: bad target \"%s\": expected local, user@host[:port], "
                     "memcached:host:port, redis:host:port, jvm:PID or jvm:PATTERN\n",
                     o.target.c_str());
        return kExitBadInput;
    }
    ProbePrinter printer(o.json, o.count);
    const auto cancel = std::make_shared<SshCancel>();
    SignalWatch signals([&printer, &cancel] {
        cancel->cancel();
        printer.stop();
    });
    std::vector<std::unique_ptr<Probe>> probes;
    try {
        probes.push_back(open_probe(*spec, o, cancel));
    } catch (const ProbeError& e) {
        if (cancel->cancelled()) return kExitOk;  // Ctrl-C while connecting: nothing to report
        std::fprintf(stderr, "perflab probe: %s\n", e.what());
        return kExitBadInput;
    }
    ProbeRunner runner(std::move(probes), o.interval_ms);
    runner.add_observer(&printer);
    runner.start(ProbeRunner::Clock::now());
    printer.wait();
    runner.stop();
    return kExitOk;
}

}  // namespace perflab
