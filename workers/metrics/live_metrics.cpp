// SPDX-License-Identifier: MIT
#include "live_metrics.h"

#include <charconv>
#include <cmath>

#include "model/spec.h"
#include "model/summary.h"

namespace perflab {

namespace {

// Shortest text that reads back as the same double, whatever the locale; `fixed` for a
// bucket's bound, which dashboards match as text ("0.0001", not "1e-04").
std::string number(double v, std::chars_format format = std::chars_format::general) {
    if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
    if (std::isnan(v)) return "NaN";
    char buf[64];
    const auto end = std::to_chars(buf, buf + sizeof buf, v, format).ptr;
    return std::string(buf, end);
}

std::string number(uint64_t v) {
    return std::to_string(v);
}

// A label value as the format escapes it: backslash, double quote and line feed.
std::string label(const std::string& value) {
    std::string out;
    out.reserve(value.size());
    for (const char c : value) {
        if (c == '\\' || c == '"')
            out += {'\\', c};
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

class Writer {
  public:
    void family(const char* name, const char* type, const char* help) {
        out_ += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
    }
    // `labels`: already `k="v",...`, or empty.
    void sample(const std::string& name, const std::string& labels, const std::string& value) {
        out_ += name;
        if (!labels.empty()) out_ += "{" + labels + "}";
        out_ += " " + value + "\n";
    }
    std::string take() { return std::move(out_); }

  private:
    std::string out_;
};

std::string op_phase(const std::string& op, int phase) {
    return "op=\"" + label(op) + "\",phase=\"" + std::to_string(phase) + "\"";
}

std::string phase_label(int phase) {
    return "phase=\"" + std::to_string(phase) + "\"";
}

}  // namespace

LiveMetrics::LiveMetrics(std::function<std::vector<SloCheck>()> slo_checks)
    : slo_checks_(std::move(slo_checks)) {}

const std::vector<double>& LiveMetrics::latency_bounds_s() {
    static const std::vector<double> kBounds = {0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005,
                                                0.01,   0.02,   0.05,   0.1,   0.2,   0.5,
                                                1,      2,      5,      10,    30};
    return kBounds;
}

const std::vector<std::string>& LiveMetrics::metric_names() {
    static const std::vector<std::string> kNames = {"perflab_run_info",
                                                    "perflab_running",
                                                    "perflab_phase",
                                                    "perflab_planned_rate",
                                                    "perflab_connections",
                                                    "perflab_requests_total",
                                                    "perflab_errors_total",
                                                    "perflab_sent_total",
                                                    "perflab_late_sends_total",
                                                    "perflab_dropped_total",
                                                    "perflab_hits_total",
                                                    "perflab_misses_total",
                                                    "perflab_bytes_in_total",
                                                    "perflab_bytes_out_total",
                                                    "perflab_latency_seconds",
                                                    "perflab_slo_check_passed",
                                                    "perflab_agent_up",
                                                    "perflab_agent_behind",
                                                    "perflab_agent_requests_total"};
    return kNames;
}

void LiveMetrics::on_start(const RunSpec& spec) {
    std::lock_guard lock(mutex_);
    name_ = spec.name;
    kind_ = to_string(spec.kind);
    running_ = true;
}

void LiveMetrics::on_sample(const IntervalSample& sample) {
    auto checks = slo_checks_ ? slo_checks_() : std::vector<SloCheck>{};
    std::lock_guard lock(mutex_);
    checks_ = std::move(checks);
    for (const auto& [op, s] : sample.ops) {
        OpTotals& t = ops_[{op, sample.phase}];
        t.requests += s.count;
        t.errors += s.errors;
        latency_[op].merge(s.latency);
    }
    PhaseCounts& p = phases_[sample.phase];
    p.sent += sample.sent;
    p.late += sample.late;
    p.dropped += sample.dropped;
    p.hits += sample.hits;
    p.misses += sample.misses;
    p.bytes_in += sample.bytes_in;
    p.bytes_out += sample.bytes_out;
    for (const auto& a : sample.agents) {
        AgentState& state = agents_[a.host];
        state.ops += a.ops;
        state.lost = a.lost;
        state.behind = a.behind;
    }
    // A drain belongs to a phase that ended: the gauges are the running phase's.
    if (sample.drain) return;
    phase_ = sample.phase;
    planned_rate_ = sample.planned_rate;
    connections_ = sample.connections;
}

void LiveMetrics::on_end(const RunSummary& /*summary*/) {
    std::lock_guard lock(mutex_);
    running_ = false;
    planned_rate_ = 0;
    connections_ = 0;
}

std::string LiveMetrics::exposition() const {
    std::lock_guard lock(mutex_);
    Writer w;
    w.family("perflab_run_info", "gauge", "The run being measured: its spec's name and kind.");
    w.sample("perflab_run_info", "name=\"" + label(name_) + "\",kind=\"" + label(kind_) + "\"",
             "1");
    w.family("perflab_running", "gauge", "1 while the run goes, 0 once it ended.");
    w.sample("perflab_running", "", running_ ? "1" : "0");
    w.family("perflab_phase", "gauge", "The running phase's index, from 0.");
    w.sample("perflab_phase", "", std::to_string(phase_));
    w.family("perflab_planned_rate", "gauge",
             "Open model: the operations per second planned now; 0 in the closed model.");
    w.sample("perflab_planned_rate", "", number(planned_rate_));
    w.family("perflab_connections", "gauge", "Connections in use at the last tick.");
    w.sample("perflab_connections", "", std::to_string(connections_));

    w.family("perflab_requests_total", "counter",
             "Operations completed, failed ones included, per op and phase.");
    for (const auto& [key, t] : ops_)
        w.sample("perflab_requests_total", op_phase(key.first, key.second), number(t.requests));
    w.family("perflab_errors_total", "counter", "Operations that failed, per op and phase.");
    for (const auto& [key, t] : ops_)
        w.sample("perflab_errors_total", op_phase(key.first, key.second), number(t.errors));

    const auto per_phase = [&](const char* name, const char* help, uint64_t PhaseCounts::*field) {
        w.family(name, "counter", help);
        for (const auto& [phase, p] : phases_)
            w.sample(name, phase_label(phase), number(p.*field));
    };
    per_phase("perflab_sent_total", "Operations started, per phase.", &PhaseCounts::sent);
    per_phase("perflab_late_sends_total",
              "Open model: operations started over 1 ms after their due time.", &PhaseCounts::late);
    per_phase("perflab_dropped_total",
              "Open model: operations due in a phase that its end found unsent.",
              &PhaseCounts::dropped);
    per_phase("perflab_hits_total", "Cache: gets that found their key.", &PhaseCounts::hits);
    per_phase("perflab_misses_total", "Cache: gets that did not.", &PhaseCounts::misses);
    per_phase("perflab_bytes_in_total", "Value (cache) or response (HTTP) bytes received.",
              &PhaseCounts::bytes_in);
    per_phase("perflab_bytes_out_total", "Value (cache) or request (HTTP) bytes sent.",
              &PhaseCounts::bytes_out);

    // Open model: from the due time, as the run's own latencies are.
    w.family("perflab_latency_seconds", "histogram", "Latency per op over the run so far.");
    const auto& bounds = latency_bounds_s();
    for (const auto& [op, h] : latency_) {
        std::vector<uint64_t> below(bounds.size(), 0);
        // A bucket of the run's histogram counts under the first bound its highest value is
        // within: its values are all at most that.
        h.for_each_bucket([&](int64_t /*lowest*/, int64_t highest, uint64_t count) {
            for (size_t i = 0; i < bounds.size(); ++i)
                if (double(highest) <= bounds[i] * 1e6) {
                    below[i] += count;
                    break;
                }
        });
        const std::string op_label = "op=\"" + label(op) + "\"";
        uint64_t cumulative = 0;
        for (size_t i = 0; i < bounds.size(); ++i) {
            cumulative += below[i];
            w.sample("perflab_latency_seconds_bucket",
                     op_label + ",le=\"" + number(bounds[i], std::chars_format::fixed) + "\"",
                     number(cumulative));
        }
        w.sample("perflab_latency_seconds_bucket", op_label + ",le=\"+Inf\"", number(h.count()));
        w.sample("perflab_latency_seconds_sum", op_label, number(double(h.sum()) / 1e6));
        w.sample("perflab_latency_seconds_count", op_label, number(h.count()));
    }

    w.family("perflab_slo_check_passed", "gauge",
             "The SLO's checks over its window as they stand: 1 passing, 0 breached.");
    for (const auto& c : checks_)
        w.sample("perflab_slo_check_passed",
                 "key=\"" + label(c.key) + "\",check=\"" + label(c.name) + "\"",
                 c.passed ? "1" : "0");

    w.family("perflab_agent_up", "gauge", "Agents: 1 while the agent reports, 0 once lost.");
    for (const auto& [host, a] : agents_)
        w.sample("perflab_agent_up", "host=\"" + label(host) + "\"", a.lost ? "0" : "1");
    w.family("perflab_agent_behind", "gauge",
             "Agents: 1 when the agent's last tick came after the grace period.");
    for (const auto& [host, a] : agents_)
        w.sample("perflab_agent_behind", "host=\"" + label(host) + "\"", a.behind ? "1" : "0");
    w.family("perflab_agent_requests_total", "counter", "Agents: operations each one completed.");
    for (const auto& [host, a] : agents_)
        w.sample("perflab_agent_requests_total", "host=\"" + label(host) + "\"", number(a.ops));
    return w.take();
}

}  // namespace perflab
