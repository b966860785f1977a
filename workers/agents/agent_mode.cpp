// SPDX-License-Identifier: MIT
#include "agent_mode.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "agent_protocol.h"
#include "line_reader.h"
#include "remote/hardware_profile.h"
#include "run_controller.h"
#include "start_at_engine.h"

namespace perflab {

namespace {

// Records to the controller, whole lines from any thread.
class RecordWriter {
  public:
    explicit RecordWriter(int fd) : fd_(fd) {}
    void send(nlohmann::json record) {
        const std::string line = record_line(std::move(record));
        std::lock_guard lock(mutex_);
        for (size_t done = 0; done < line.size();) {
            const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
            if (n <= 0) return;  // the controller is gone; stdin closing stops the run
            done += size_t(n);
        }
    }

  private:
    int fd_;
    std::mutex mutex_;
};

// The process's CPU time, user and system.
std::chrono::microseconds cpu_time() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const auto us = [](const timeval& t) { return int64_t(t.tv_sec) * 1'000'000 + t.tv_usec; };
    return std::chrono::microseconds(us(u.ru_utime) + us(u.ru_stime));
}

// Each tick with the agent's own health: the CPU it used over the tick, in % of the host's
// cores, so a controller can tell a saturated load generator from a slow server.
// Its first failure to reach a server goes with the tick that follows it, so the controller
// can tell a run no agent's operation reached.
class TickSender : public RunObserver {
  public:
    TickSender(RecordWriter& out, const LoadEngine& engine) : out_(out), engine_(engine) {}
    void on_sample(const IntervalSample& s) override {
        const auto now = Clock::now();
        const auto cpu = cpu_time();
        const double wall_us =
            double(std::chrono::duration_cast<std::chrono::microseconds>(now - last_).count());
        const double cores = std::max(1u, std::thread::hardware_concurrency());
        const double cpu_pct =
            wall_us > 0 ? 100.0 * double((cpu - last_cpu_).count()) / wall_us / cores : 0.0;
        last_ = now;
        last_cpu_ = cpu;
        nlohmann::json tick{{"type", "tick"}, {"sample", sample_json(s)}, {"cpu_pct", cpu_pct}};
        if (!error_told_) {
            if (std::string error = engine_.first_connection_error(); !error.empty()) {
                tick["connection_error"] = std::move(error);
                error_told_ = true;
            }
        }
        out_.send(std::move(tick));
    }
    void on_phase_end(const PhaseTotals& p) override {
        out_.send({{"type", "phase_end"}, {"phase", p.phase}});
    }

  private:
    RecordWriter& out_;
    const LoadEngine& engine_;
    bool error_told_ = false;
    Clock::time_point last_ = Clock::now();
    std::chrono::microseconds last_cpu_ = cpu_time();
};

// The search steps the controller orders, for the run's thread to take in turn.
class StepOrders {
  public:
    void add(int phase, RunController::StepOrder order) {
        {
            std::lock_guard lock(mutex_);
            orders_[phase] = order;
        }
        changed_.notify_all();
    }
    void close() {
        {
            std::lock_guard lock(mutex_);
            closed_ = true;
        }
        changed_.notify_all();
    }
    // Nullopt once the controller stopped the run: the search is over.
    std::optional<RunController::StepOrder> next(int phase) {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return closed_ || orders_.count(phase) > 0; });
        if (closed_) return std::nullopt;
        return orders_[phase];
    }

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::map<int, RunController::StepOrder> orders_;
    bool closed_ = false;
};

int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
        .count();
}

// Answers pings until a record of `wanted` type comes; nullopt when the input ends first or
// the controller stops the run.
std::optional<nlohmann::json> await_record(LineReader& in, RecordWriter& out,
                                           const std::string& wanted) {
    while (!in.closed()) {
        const auto line = in.next(1000);
        if (!line) continue;
        const auto record = nlohmann::json::parse(*line, nullptr, false);
        const std::string type = record.is_object() ? record.value("type", "") : "";
        if (type == "ping")
            out.send({{"type", "pong"}, {"t_ns", now_ns()}});
        else if (type == wanted)
            return record;
        else if (type == "stop")
            return std::nullopt;
    }
    return std::nullopt;
}

// An agent past its start time begins at once; the controller learns by how much, as its
// ticks of that phase lack what it could not send.
void tell_if_late(RecordWriter& out, int phase, Clock::time_point start) {
    const auto past = Clock::now() - start;
    if (past > std::chrono::milliseconds(1))
        out.send({{"type", "late"},
                  {"phase", phase},
                  {"by_us", std::chrono::duration_cast<std::chrono::microseconds>(past).count()}});
}

}  // namespace

int run_agent(int in_fd, int out_fd) {
    RecordWriter out(out_fd);
    LineReader in(in_fd);
    // Its machine with its hello, so the controller stores it with the run (role "agent").
    out.send({{"type", "hello"},
              {"version", agent_version()},
              {"profile", to_json(local_hardware_profile())}});
    const auto assignment = await_record(in, out, "assign");
    if (!assignment) return 1;
    const SpecResult parsed = parse_spec(assignment->value("spec", nlohmann::json()));
    if (!parsed) {
        out.send({{"type", "end"}, {"status", "failed"}, {"error", parsed.error_text()}});
        return 2;
    }
    RunSpec spec = *parsed.spec;
    spec.share = assignment->value("k", 0);
    spec.shares = assignment->value("n", 1);
    // The controller resolved the spec's secrets: the values come escaped, so resolving here
    // reads no variable of this host (agent_secrets.h).
    std::unique_ptr<LoadEngine> built;
    try {
        built = make_engine(spec);
    } catch (const std::exception& e) {
        out.send({{"type", "end"}, {"status", "failed"}, {"error", e.what()}});
        return 2;
    }
    // Connected and prefilled before the controller sets the start: however long that takes
    // here, it is not taken from the common lead.
    try {
        built->start();
    } catch (const std::exception& e) {
        out.send({{"type", "end"}, {"status", "failed"}, {"error", e.what()}});
        return 1;
    }
    out.send({{"type", "ready"}, {"prefill_sets", built->prefill_sets()}});
    const auto start = await_record(in, out, "start");
    if (!start) return 1;
    const Clock::time_point at{std::chrono::nanoseconds(start->value("start_ns", int64_t(0)))};
    tell_if_late(out, 0, at);
    auto engine = std::make_unique<StartAtEngine>(std::move(built), at);
    const LoadEngine& engine_ref = *engine;
    RunController controller(spec, std::move(engine));
    TickSender ticks(out, engine_ref);
    controller.add_observer(&ticks);
    StepOrders steps;
    // The controller begins a phase or a step when every agent is done with the one before:
    // told here, then the agent waits for its order.
    controller.follow([&](int phase) {
        out.send({{"type", "step_end"}, {"phase", phase - 1}});
        auto order = steps.next(phase);
        if (order) tell_if_late(out, phase, order->start);
        return order;
    });
    std::atomic<bool> done{false};
    // A stop record stops the run as Ctrl-C would; the input ending stops it at once.
    std::thread watch([&] {
        while (!done.load()) {
            const auto line = in.next(100);
            if (in.closed()) {
                steps.close();
                controller.request_stop();
                controller.request_stop();
                return;
            }
            if (!line) continue;
            const auto record = nlohmann::json::parse(*line, nullptr, false);
            const std::string type = record.is_object() ? record.value("type", "") : "";
            if (type == "stop") {
                steps.close();
                controller.request_stop();
            } else if (type == "step") {
                const Clock::time_point start{
                    std::chrono::nanoseconds(record.value("start_ns", int64_t(0)))};
                steps.add(record.value("phase", -1),
                          {record.value("rate", 0.0), start, record.value("duration_s", 0.0)});
            }
        }
    });
    const RunSummary summary = controller.run();
    done.store(true);
    watch.join();
    out.send({{"type", "end"}, {"status", to_string(summary.status)}, {"error", summary.error}});
    return summary.status == RunStatus::failed ? 1 : 0;
}

}  // namespace perflab
