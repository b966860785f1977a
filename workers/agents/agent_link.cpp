// SPDX-License-Identifier: MIT
#include "agent_link.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "agent_protocol.h"

namespace perflab {

namespace {

SshTarget target_of(const AgentSpec& spec) {
    auto target = parse_ssh_target(spec.host);
    if (!target) throw std::runtime_error("agent " + spec.host + ": expected user@host[:port]");
    return *target;
}

SshOptions options_of(const AgentSpec& spec, std::shared_ptr<SshCancel> cancel) {
    SshOptions o;
    o.key_file = spec.key;
    o.cancel = std::move(cancel);
    return o;
}

int64_t ns_of(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

constexpr int kAnswerMs = 10'000;  // an agent that answers slower is refused
// Its program's start: the binary loads its libraries and reads the machine's profile, which
// on a loaded host took over 10 s (the suite beside stress-ng, two agents starting).
constexpr int kStartMs = 30'000;
// Getting ready reads a replay's file and prefills: an agent may take longer over that.
constexpr int kReadyMs = 120'000;
// The end of an agent's stderr kept, and the part of it a failure shows.
constexpr size_t kLogKept = 64 * 1024;
constexpr size_t kLogShown = 1024;
constexpr int kLogReads = 64;

// The start of a line that is no record, printable whatever it holds.
std::string excerpt(const std::string& line) {
    std::string out;
    for (const char c : line.substr(0, 80))
        out += (c >= 0x20 && c < 0x7f) ? c : '?';
    return "\"" + out + (line.size() > 80 ? "...\"" : "\"");
}

}  // namespace

AgentLink::AgentLink(const AgentSpec& spec, std::shared_ptr<SshCancel> cancel)
    : spec_(spec), session_(target_of(spec), options_of(spec, std::move(cancel))) {}

AgentLink::~AgentLink() {
    if (reader_.joinable()) {
        quit_.store(true);
        reader_.join();
    }
}

std::string AgentLink::fail(const std::string& why) {
    if (channel_) {
        try {
            read_log();
        } catch (const SshError&) {
            // What it logged before the session broke is all there is.
        }
    }
    return "agent " + host() + ": " + why + log_tail();
}

std::string AgentLink::log_tail() const {
    size_t end = log_.size();
    while (end > 0 && (log_[end - 1] == '\n' || log_[end - 1] == '\r'))
        --end;
    if (end == 0) return {};
    const size_t begin = end > kLogShown ? end - kLogShown : 0;
    std::string shown = log_.substr(begin, end - begin);
    for (char& c : shown)
        if (c == '\n') c = '|';
    return "; its log ends: " + shown;
}

// Its stderr, kept apart from the records: a library's message or a shell's "not found" is
// shown with a failure, never read as a record.
// What arrived, without waiting, and at most kLogReads pieces: an agent that floods its stderr
// does not keep its records from being read.
void AgentLink::read_log() {
    for (int i = 0; i < kLogReads; ++i) {
        const size_t before = log_.size();
        channel_->read_stderr(log_, 0);
        const bool none = log_.size() == before;
        if (log_.size() > 2 * kLogKept) log_.erase(0, log_.size() - kLogKept);
        if (none) return;
    }
}

std::string AgentLink::read_line(int timeout_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
        if (auto line = records_.next()) return *line;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) throw SshError(SshError::Kind::channel, "no answer from the agent");
        // libssh tells a command's output ended only once its stderr is read too.
        read_log();
        if (!channel_->read(records_.input(), int(std::min<int64_t>(left, kPollMs))))
            throw SshError(SshError::Kind::channel, "its program ended");
    }
}

void AgentLink::open() {
    const std::string command = shell_quote(spec_.program) + " agent";
    std::string first;
    try {
        session_.connect();
        channel_ = session_.exec(command);
        first = read_line(kStartMs);
    } catch (const SshError& e) {
        throw std::runtime_error(fail("`" + command + "`: " + e.what()));
    } catch (const LineTooLong& e) {
        throw std::runtime_error(fail("`" + command + "` did not start an agent: " + e.what()));
    }
    const auto hello = nlohmann::json::parse(first, nullptr, false);
    if (!hello.is_object() || hello.value("type", "") != "hello")
        throw std::runtime_error(
            fail("`" + command + "` did not start an agent: " + excerpt(first)));
    const std::string version = hello.value("version", "");
    if (hello.value("v", 0) != kAgentProtocol || version != agent_version())
        throw std::runtime_error(fail("runs PerfLab " + version + ", this controller " +
                                      agent_version() + ": install the same version there"));
    if (const auto p = hello.find("profile"); p != hello.end() && p->is_object())
        profile_ = profile_from_json(*p);
}

ClockOffset AgentLink::measure_clock(int rounds) {
    ClockOffset best{0, std::numeric_limits<int64_t>::max()};
    try {
        for (int i = 0; i < rounds; ++i) {
            const auto sent = Clock::now();
            channel_->write(record_line({{"type", "ping"}}));
            const auto pong = nlohmann::json::parse(read_line(kAnswerMs), nullptr, false);
            const auto back = Clock::now();
            if (!pong.is_object() || !pong.contains("t_ns"))
                throw std::runtime_error(fail("answered a clock ping with " + pong.dump()));
            const int64_t half = ns_of(back) / 2 - ns_of(sent) / 2;
            if (half < best.uncertainty_ns)
                best = {pong["t_ns"].get<int64_t>() - (ns_of(sent) + half), half};
        }
    } catch (const SshError& e) {
        throw std::runtime_error(fail(e.what()));
    } catch (const LineTooLong& e) {
        throw std::runtime_error(fail(e.what()));
    }
    return best;
}

void AgentLink::assign(const RunSpec& share, int k, int n) {
    try {
        channel_->write(
            record_line({{"type", "assign"}, {"spec", to_json(share)}, {"k", k}, {"n", n}}));
    } catch (const SshError& e) {
        throw std::runtime_error(fail(e.what()));
    }
}

void AgentLink::await_ready() {
    nlohmann::json answer;
    try {
        answer = nlohmann::json::parse(read_line(kReadyMs), nullptr, false);
    } catch (const SshError& e) {
        throw std::runtime_error(fail(std::string("while getting ready: ") + e.what()));
    } catch (const LineTooLong& e) {
        throw std::runtime_error(fail(e.what()));
    }
    const std::string type = answer.is_object() ? answer.value("type", "") : "";
    if (type == "ready") {
        state_.prefill_sets = answer.value("prefill_sets", uint64_t(0));
        return;
    }
    if (type == "end" && answer.value("error", nlohmann::json()).is_string())
        throw std::runtime_error(
            fail("cannot run its share: " + answer["error"].get<std::string>()));
    throw std::runtime_error(fail("protocol error: answered its share with " +
                                  excerpt(answer.is_discarded() ? "" : answer.dump())));
}

void AgentLink::start(Clock::time_point start, ClockOffset clock) {
    try {
        channel_->write(
            record_line({{"type", "start"}, {"start_ns", ns_of(start) + clock.offset_ns}}));
    } catch (const SshError& e) {
        throw std::runtime_error(fail(e.what()));
    }
    clock_ = clock;
    reader_ = std::thread([this] { read_records(); });
}

void AgentLink::request_stop() {
    stop_wanted_.store(true);
}

void AgentLink::order_step(int phase, double rate, double duration_s, Clock::time_point start) {
    std::lock_guard lock(mutex_);
    outbox_.push_back(record_line({{"type", "step"},
                                   {"phase", phase},
                                   {"rate", rate},
                                   {"duration_s", duration_s},
                                   {"start_ns", ns_of(start) + clock_.offset_ns}}));
}

void AgentLink::read_records() {
    bool stop_sent = false;
    try {
        while (!quit_.load()) {
            std::vector<std::string> out;
            {
                std::lock_guard lock(mutex_);
                out.swap(outbox_);
            }
            for (const auto& line : out)
                channel_->write(line);
            if (stop_wanted_.load() && !stop_sent) {
                channel_->write(record_line({{"type", "stop"}}));
                stop_sent = true;
            }
            const bool open = channel_->read(records_.input(), kPollMs);
            read_log();
            while (auto line = records_.next())
                handle(*line);
            if (!open) break;
        }
        if (!quit_.load()) mark_lost("its output ended before its run did");
    } catch (const SshError& e) {
        mark_lost(e.what());
    } catch (const std::exception& e) {
        mark_lost(std::string("protocol error: ") + e.what());
        // An agent whose records cannot be read is stopped: its stdin closes.
        channel_.reset();
    }
}

// Each line on its stdout is a record: its libraries' messages go to its stderr.
void AgentLink::handle(const std::string& line) {
    const auto record = nlohmann::json::parse(line, nullptr, false);
    if (!record.is_object()) throw std::runtime_error("not a record: " + excerpt(line));
    const std::string type = record.value("type", "");
    std::lock_guard lock(mutex_);
    if (type == "tick") {
        const IntervalSample s = sample_from_json(record.at("sample"));
        volume_.add(s);
        pending_[s.phase].push_back(s);
        state_.last_phase = std::max(state_.last_phase, s.phase);
        state_.last_t_ms = std::max(state_.last_t_ms, s.t_ms);
        state_.connections = s.connections;
        state_.cpu_last = record.value("cpu_pct", -1.0);
        state_.cpu_max = std::max(state_.cpu_max, state_.cpu_last);
        ++state_.ticks;
        state_.tick_bytes += line.size() + 1;
        if (const auto e = record.find("connection_error");
            e != record.end() && e->is_string() && state_.connection_error.empty())
            state_.connection_error = e->get<std::string>();
    } else if (type == "phase_end") {
        state_.phase_ended = std::max(state_.phase_ended, record.value("phase", -1));
    } else if (type == "step_end") {
        state_.step_ended = std::max(state_.step_ended, record.value("phase", -1));
    } else if (type == "late") {
        lates_.emplace_back(record.value("phase", -1), record.value("by_us", int64_t(0)));
    } else if (type == "end") {
        state_.ended = true;
        if (record.value("status", "") == "failed") {
            state_.lost = true;
            state_.why = "its run failed: " + record.value("error", "") + log_tail();
        }
    } else {
        throw std::runtime_error("a record of no known type: " + excerpt(line));
    }
    changed_.notify_all();
}

void AgentLink::mark_lost(const std::string& why) {
    std::lock_guard lock(mutex_);
    if (state_.ended) return;
    state_.lost = true;
    state_.why = why + log_tail();
    changed_.notify_all();
}

void AgentLink::take(IntervalSample& out, int phase, int64_t upto_ms) {
    std::lock_guard lock(mutex_);
    const auto it = pending_.find(phase);
    if (it == pending_.end()) return;
    auto& ticks = it->second;
    const auto later = std::stable_partition(ticks.begin(), ticks.end(),
                                             [&](const auto& t) { return t.t_ms <= upto_ms; });
    for (auto t = ticks.begin(); t != later; ++t)
        out.merge(*t);
    ticks.erase(ticks.begin(), later);
    if (ticks.empty()) pending_.erase(it);
}

std::vector<std::pair<int, int64_t>> AgentLink::take_lates() {
    std::lock_guard lock(mutex_);
    return std::exchange(lates_, {});
}

IntervalSample AgentLink::untaken() const {
    std::lock_guard lock(mutex_);
    IntervalSample all;
    for (const auto& [phase, ticks] : pending_)
        for (const auto& t : ticks)
            all.merge(t);
    return all;
}

AgentLink::State AgentLink::state() const {
    std::lock_guard lock(mutex_);
    return state_;
}

bool AgentLink::wait_tick(int phase, int64_t t_ms, int64_t slack_ms, Clock::time_point until) {
    std::unique_lock lock(mutex_);
    return changed_.wait_until(lock, until, [&] {
        const State& s = state_;
        return s.ended || s.lost || s.last_phase > phase || s.phase_ended >= phase ||
               s.step_ended >= phase || (s.last_phase == phase && s.last_t_ms >= t_ms - slack_ms);
    });
}

bool AgentLink::wait_end(Clock::time_point until) {
    std::unique_lock lock(mutex_);
    return changed_.wait_until(lock, until, [this] { return state_.ended || state_.lost; });
}

}  // namespace perflab
