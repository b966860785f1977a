// SPDX-License-Identifier: MIT
#include "prometheus_probe.h"

namespace perflab {

namespace {

constexpr auto kTimeout = std::chrono::milliseconds(5000);

}  // namespace

PrometheusProbe::PrometheusProbe(PrometheusTarget target, int tick_ms)
    : target_(std::move(target)),
      url_(parse_http_url(target_.url)),
      tick_(tick_ms),
      series_(target_.selectors, target_.max_series) {
    if (!url_) throw ProbeError("bad prometheus address \"" + target_.url + "\"");
}

PrometheusProbe::~PrometheusProbe() {
    close();
}

std::string PrometheusProbe::source() const {
    return "prometheus " + target_.url + (target_.via ? " via " + target_.via->text() : "");
}

std::string PrometheusProbe::fetch() {
    if (!target_.via) {
        try {
            return http_get(*url_, kTimeout);
        } catch (const std::runtime_error& e) {
            throw ProbeError(source() + ": " + e.what());
        }
    }
    if (!ssh_) {
        auto session = std::make_unique<SshSession>(*target_.via, target_.ssh_options);
        session->connect();
        ssh_ = std::move(session);
    }
    const std::string url = shell_quote(target_.url);
    const std::string seconds = std::to_string(kTimeout.count() / 1000);
    try {
        // The marker tells an exporter's empty page from a fetch that failed on the host.
        std::string out = ssh_->run("{ curl -sSf --max-time " + seconds + " " + url +
                                    " 2>&1 || wget -q -T " + seconds + " -O - " + url +
                                    " 2>&1; } && echo; echo \"perflab-fetch-status $?\"");
        const size_t marker = out.rfind("perflab-fetch-status ");
        if (marker == std::string::npos) throw ProbeError(source() + ": no answer over SSH");
        if (out.compare(marker, 23, "perflab-fetch-status 0\n") != 0 &&
            out.compare(marker, 22, "perflab-fetch-status 0") != 0)
            throw ProbeError(source() + ": fetch on the host failed: " +
                             out.substr(0, std::min<size_t>(marker, 200)));
        out.resize(marker);
        return out;
    } catch (const SshError& e) {
        ssh_.reset();
        throw ProbeError(source() + ": " + e.what());
    }
}

PromScrape PrometheusProbe::scrape() {
    auto parsed = parse_prom_text(fetch());
    if (parsed.error) throw ProbeError(source() + ": not the exposition format: " + *parsed.error);
    if (parsed.scrape.samples.empty()) throw ProbeError(source() + ": no samples in the reply");
    return std::move(parsed.scrape);
}

void PrometheusProbe::open() {
    const auto started = Clock::now();
    auto first = scrape();
    series_.values(first, 0);
    series_.remember(std::move(first));
    last_time_ = round_trip_middle(started);
}

ProbeReading PrometheusProbe::poll() {
    ProbeReading r;
    const auto started = Clock::now();
    if (target_.interval_ms > 0 &&
        started - last_time_ < std::chrono::milliseconds(target_.interval_ms) - tick_ / 2)
        return r;
    r.ready = true;
    try {
        auto now = scrape();
        // The exporter read its counters somewhere between request and reply: the middle is
        // within half the scrape of it, on both ends of every rate's interval.
        const auto t = round_trip_middle(started);
        r.taken_at = t;
        if (failing_) {
            // Back after an outage: this tick is still the gap's, and a new baseline.
            r.gap = true;
            failing_ = false;
            series_.forget();
        } else {
            r.values = series_.values(now, std::chrono::duration<double>(t - last_time_).count());
        }
        series_.remember(std::move(now));
        last_time_ = t;
        if (!r.gap && series_.hidden() > 0) r.values["hidden_series"] = series_.hidden();
        if (series_.hidden() > 0 && !told_hidden_) {
            told_hidden_ = true;
            r.events.push_back({0, "warning",
                                source() + ": " + std::to_string(series_.hidden()) +
                                    " more series not shown (the first " +
                                    std::to_string(target_.max_series) + " are)"});
        }
    } catch (const ProbeError& e) {
        r.gap = true;
        r.values = nlohmann::json::object();
        if (!failing_) r.events.push_back({0, "error", "probe " + prom_utf8(e.what())});
        failing_ = true;
    }
    return r;
}

void PrometheusProbe::close() {
    ssh_.reset();
}

}  // namespace perflab
