// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <memory>
#include <optional>

#include "http_get.h"
#include "probe.h"
#include "prom_series.h"
#include "remote/ssh_session.h"

namespace perflab {

// Any Prometheus exporter on the run's time axis: its /metrics page read each tick (or every
// interval_ms, never more often than the tick), the series the selectors pick turned into a
// "prometheus" ProbeSample (keys: see PromSeries). With `via` the page is fetched on that
// host over SSH (`curl`, else `wget`, run there), so an exporter bound to the host's loopback
// is reached; host keys are checked as every SSH probe does.
//
// A target that is down or answers no exposition text costs a gap and one event per outage;
// the first good scrape after it is a new baseline. Series over the cap are told once as an
// event, "N more series not shown", and counted in each sample's "hidden_series" (absent
// when none is), which the charts write on the probe's panels.
struct PrometheusTarget {
    std::string url;
    std::vector<PromSelector> selectors;
    std::optional<SshTarget> via;
    SshOptions ssh_options;
    int interval_ms = 0;
    size_t max_series = 50;
};

class PrometheusProbe : public Probe {
  public:
    PrometheusProbe(PrometheusTarget target, int tick_ms);
    ~PrometheusProbe() override;
    std::string source() const override;
    std::string kind() const override { return "prometheus"; }
    void open() override;  // throws ProbeError when the first scrape fails
    ProbeReading poll() override;
    void close() override;

  private:
    using Clock = std::chrono::steady_clock;
    std::string fetch();  // throws ProbeError
    PromScrape scrape();  // throws ProbeError

    PrometheusTarget target_;
    std::optional<HttpUrl> url_;
    std::chrono::milliseconds tick_;
    std::unique_ptr<SshSession> ssh_;
    PromSeries series_;
    Clock::time_point last_time_{};
    bool failing_ = false;
    bool told_hidden_ = false;
};

}  // namespace perflab
