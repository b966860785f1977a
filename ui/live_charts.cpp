// SPDX-License-Identifier: MIT
#include "live_charts.h"

#include <qcustomplot.h>

#include "time_chart.h"

namespace perflab {

namespace {

const QColor kOpColors[] = {QColor(31, 119, 180),  QColor(255, 127, 14), QColor(44, 160, 44),
                            QColor(148, 103, 189), QColor(140, 86, 75),  QColor(227, 119, 194)};

double ms(int64_t us) {
    return std::max(double(us) / 1000.0, 1e-3);
}

double number(const nlohmann::json& values, const char* key, bool* ok) {
    const auto it = values.find(key);
    *ok = it != values.end() && it->is_number();
    return *ok ? it->get<double>() : 0.0;
}

}  // namespace

// The live view and a stored run's view show the same panels: one choice serves both.
LiveCharts::LiveCharts(TimeChart* chart) : chart_(chart) {
    chart_->rememberPanelChoices(QStringLiteral("charts/hiddenPanels"));
}

void LiveCharts::begin(const RunSpec& spec) {
    chart_->clear();
    ops_.clear();
    hosts_.clear();
    ticks_ = 0;
    chart_->setPlannedSeconds(spec.planned_duration_s());
    setupRunPanels(spec.kind == RunKind::cache);
    chart_->refresh();
}

void LiveCharts::setupRunPanels(bool cache) {
    throughput_ =
        chart_->addPanel(QObject::tr("ops/s"), TimeChart::Scale::linear, QObject::tr("Throughput"));
    planned_ = chart_->addSeries(throughput_, QObject::tr("planned"), Qt::gray, Qt::DashLine);
    planned_->setLineStyle(QCPGraph::lsStepRight);
    hitRate_ = cache ? chart_->addPanel(QObject::tr("hit %"), TimeChart::Scale::linear,
                                        QObject::tr("Hit rate"))
                     : -1;
    hits_ =
        cache ? chart_->addSeries(hitRate_, QObject::tr("hit rate"), QColor(44, 160, 44)) : nullptr;
    latency_ = chart_->addPanel(QObject::tr("latency"), TimeChart::Scale::log,
                                QObject::tr("Latency"), AxisUnit::milliseconds);
    p50_ = chart_->addSeries(latency_, QStringLiteral("p50"), QColor(44, 160, 44));
    p90_ = chart_->addSeries(latency_, QStringLiteral("p90"), QColor(31, 119, 180));
    p99_ = chart_->addSeries(latency_, QStringLiteral("p99"), QColor(255, 127, 14));
    max_ = chart_->addSeries(latency_, QStringLiteral("max"), QColor(214, 39, 40));
    errors_ =
        chart_->addPanel(QObject::tr("errors/s"), TimeChart::Scale::linear, QObject::tr("Errors"));
    errorRate_ = chart_->addSeries(errors_, QObject::tr("errors/s"), QColor(214, 39, 40));
}

QCPGraph* LiveCharts::opGraph(const std::string& op) {
    auto it = ops_.find(op);
    if (it != ops_.end()) return it->second;
    const QColor color = kOpColors[ops_.size() % std::size(kOpColors)];
    auto* g = chart_->addSeries(throughput_, QString::fromStdString(op), color);
    return ops_.emplace(op, g).first->second;
}

void LiveCharts::addSample(const IntervalSample& s) {
    if (throughput_ < 0 || s.interval_ms <= 0) return;
    ++ticks_;
    const double t = double(s.t_ms) / 1000.0;
    const double secs = s.seconds();
    for (const auto& [name, op] : s.ops)
        chart_->append(opGraph(name), t, double(op.count) / secs);
    if (s.planned_rate > 0) chart_->append(planned_, t, s.planned_rate);
    if (hits_ && s.hits + s.misses > 0) chart_->append(hits_, t, 100.0 * s.hit_rate());
    const Histogram h = s.latency();
    if (!h.empty()) {
        chart_->append(p50_, t, ms(h.percentile(50)));
        chart_->append(p90_, t, ms(h.percentile(90)));
        chart_->append(p99_, t, ms(h.percentile(99)));
        chart_->append(max_, t, ms(h.max()));
    }
    chart_->append(errorRate_, t, double(s.total_errors()) / secs);
}

void LiveCharts::addEvent(const RunEvent& e) {
    const double t = double(e.t_ms) / 1000.0;
    const QString text = QString::fromStdString(e.text);
    if (e.kind == "phase")
        chart_->addMarker(t, text, QColor(31, 119, 180));
    else if (e.kind == "gc")
        chart_->addMarker(t, QObject::tr("GC"), QColor(214, 39, 40));
    else if (e.kind == "stop")
        chart_->addMarker(t, QObject::tr("stop"), Qt::darkGray);
}

LiveCharts::HostGraphs& LiveCharts::hostGraphs(const QString& source) {
    auto it = hosts_.find(source);
    if (it != hosts_.end()) return *it;
    HostGraphs g;
    const int cpu = chart_->addPanel(QObject::tr("CPU %\n%1").arg(source), TimeChart::Scale::linear,
                                     QObject::tr("Host CPU"));
    // Stacked: each series carries the sum of itself and those below it, and the tallest is
    // drawn first so that each one below covers its own share.
    g.iowait = chart_->addArea(cpu, QObject::tr("+iowait"), QColor(255, 187, 120));
    g.system = chart_->addArea(cpu, QObject::tr("+system"), QColor(214, 39, 40));
    g.user = chart_->addArea(cpu, QObject::tr("user"), QColor(31, 119, 180));
    const int load = chart_->addPanel(QObject::tr("load\n%1").arg(source), TimeChart::Scale::linear,
                                      QObject::tr("Host load"));
    g.load = chart_->addSeries(load, QObject::tr("load1"), QColor(148, 103, 189));
    const int mem = chart_->addPanel(QObject::tr("memory MiB\n%1").arg(source),
                                     TimeChart::Scale::linear, QObject::tr("Host memory"));
    g.mem = chart_->addSeries(mem, QObject::tr("used"), QColor(140, 86, 75));
    const int net = chart_->addPanel(QObject::tr("net KiB/s\n%1").arg(source),
                                     TimeChart::Scale::linear, QObject::tr("Host network"));
    g.rx = chart_->addSeries(net, QObject::tr("rx"), QColor(44, 160, 44));
    g.tx = chart_->addSeries(net, QObject::tr("tx"), QColor(255, 127, 14));
    return *hosts_.insert(source, g);
}

void LiveCharts::addProbeSample(const ProbeSample& s) {
    if (s.kind == "host" && !s.gap) addHostSample(s);
}

void LiveCharts::addHostSample(const ProbeSample& s) {
    HostGraphs& g = hostGraphs(QString::fromStdString(s.source));
    const double t = double(s.t_ms) / 1000.0;
    bool ok_user = false, ok_sys = false, ok_io = false, ok = false;
    const double user = number(s.values, "cpu_user", &ok_user);
    const double sys = number(s.values, "cpu_system", &ok_sys);
    const double io = number(s.values, "cpu_iowait", &ok_io);
    if (ok_user) chart_->append(g.user, t, user);
    if (ok_user && ok_sys) chart_->append(g.system, t, user + sys);
    if (ok_user && ok_sys && ok_io) chart_->append(g.iowait, t, user + sys + io);
    if (const double v = number(s.values, "load1", &ok); ok) chart_->append(g.load, t, v);
    if (const double v = number(s.values, "mem_used", &ok); ok)
        chart_->append(g.mem, t, v / (1024.0 * 1024.0));
    if (const double v = number(s.values, "net_rx_Bps", &ok); ok)
        chart_->append(g.rx, t, v / 1024.0);
    if (const double v = number(s.values, "net_tx_Bps", &ok); ok)
        chart_->append(g.tx, t, v / 1024.0);
}

void LiveCharts::refresh() {
    chart_->refresh();
}

}  // namespace perflab
