// SPDX-License-Identifier: MIT
// What one redraw of the live charts costs as a run grows to an hour (not a test: no
// assertion, not in ctest). The charts get a cache run's series and one probed host's, fed
// with synthetic ticks; at each checkpoint the window is repainted a few times and the
// median is printed. gui_stall_bench measures the whole window over a real run; this one
// isolates the chart so a change to it is measured in seconds.
// Usage: chart_replot_bench [WIDTH] [HEIGHT] [PNG]   (defaults 1400 x 900; QT_QPA_PLATFORM=
// offscreen or xvfb-run; PNG saves the hour's chart for a look by eye).
#include <qcustomplot.h>

#include <QApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "live_charts.h"
#include "model/spec.h"
#include "time_chart.h"

using namespace perflab;

namespace {

RunSpec hour_spec() {
    const nlohmann::json j = {
        {"name", "chart replot bench"},
        {"kind", "cache"},
        {"phases", {{{"duration_s", 3600}, {"concurrency", 50}}}},
        {"cache", {{"servers", {"127.0.0.1:11211"}}, {"workload", "cache-aside"}}}};
    return *parse_spec(j).spec;
}

IntervalSample tick(int64_t t_ms, std::mt19937& rng) {
    std::lognormal_distribution<double> latency(6.0, 0.6);  // µs, median ~400
    IntervalSample s;
    s.t_ms = t_ms;
    s.interval_ms = 1000;
    s.connections = 50;
    for (const char* op : {"get", "set"}) {
        OpSample& o = s.ops[op];
        for (int i = 0; i < 200; ++i)
            o.latency.record(int64_t(latency(rng)));
        o.count = 20000 + rng() % 2000;
    }
    s.hits = 15000 + rng() % 1000;
    s.misses = 5000;
    return s;
}

ProbeSample host_tick(int64_t t_ms, std::mt19937& rng) {
    std::uniform_real_distribution<double> jitter(0.8, 1.2);
    ProbeSample p;
    p.t_ms = t_ms;
    p.source = "local";
    p.kind = "host";
    p.values = {{"cpu_user", 40 * jitter(rng)},   {"cpu_system", 25 * jitter(rng)},
                {"cpu_iowait", 2 * jitter(rng)},  {"load1", 2.1 * jitter(rng)},
                {"mem_used", 3e9 * jitter(rng)},  {"net_rx_Bps", 5e6 * jitter(rng)},
                {"net_tx_Bps", 4e6 * jitter(rng)}};
    return p;
}

double median_repaint_ms(TimeChart& chart) {
    std::vector<double> ms;
    for (int i = 0; i < 7; ++i) {
        QElapsedTimer timer;
        timer.start();
        chart.refresh();
        chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
        ms.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const int width = argc > 1 ? std::atoi(argv[1]) : 1400;
    const int height = argc > 2 ? std::atoi(argv[2]) : 900;
    TimeChart chart;
    chart.resize(width, height);
    chart.show();
    LiveCharts charts(&chart);
    charts.begin(hour_spec());
    QApplication::processEvents();

    std::mt19937 rng(42);
    int ticks = 0;
    std::printf("live charts %d x %d px, cache run + one host (%d series)\n", width, height,
                chart.plot()->graphCount());
    for (const int checkpoint : {60, 300, 900, 1800, 3600}) {
        for (; ticks < checkpoint; ++ticks) {
            const int64_t t_ms = int64_t(ticks + 1) * 1000;
            charts.addSample(tick(t_ms, rng));
            charts.addProbeSample(host_tick(t_ms, rng));
        }
        std::printf("%5d ticks: %7.2f ms per repaint\n", ticks, median_repaint_ms(chart));
    }
    if (argc > 3 && !chart.plot()->savePng(QString::fromLocal8Bit(argv[3]))) {
        std::fprintf(stderr, "cannot write %s\n", argv[3]);
        return 1;
    }
    return 0;
}
