// SPDX-License-Identifier: MIT
#include "live_charts.h"

#include <qcustomplot.h>

#include <algorithm>

#include "time_chart.h"

namespace perflab {

namespace {

const QColor kOpColors[] = {QColor(31, 119, 180),  QColor(255, 127, 14), QColor(44, 160, 44),
                            QColor(148, 103, 189), QColor(140, 86, 75),  QColor(227, 119, 194)};

double ms(int64_t us) {
    return std::max(double(us) / 1000.0, 1e-3);
}

}  // namespace

// The live view and a stored run's view show the same panels: one choice serves both.
LiveCharts::LiveCharts(TimeChart* chart) : chart_(chart), agents_(chart), probes_(chart) {
    chart_->rememberPanelChoices(QStringLiteral("charts/hiddenPanels"));
}

void LiveCharts::begin(const RunSpec& spec) {
    chart_->clear();
    ops_.clear();
    codes_.clear();
    transactions_.clear();
    transactionRate_ = transactionLatency_ = -1;
    drawnTicks_.clear();
    serviceP99_ = nullptr;
    probes_.begin(spec);
    agents_.begin(spec);
    ticks_ = 0;
    phase_ = 0;
    chart_->setPlannedSeconds(spec.planned_duration_s());
    setupRunPanels(spec.kind == RunKind::cache);
    limits_.clear();
    if (spec.slo) setupLimits(*spec.slo);
    chart_->refresh();
}

void LiveCharts::setupRunPanels(bool cache) {
    throughput_ =
        chart_->addPanel(QObject::tr("ops/s"), TimeChart::Scale::linear, QObject::tr("Throughput"));
    // A 60k closed phase beside 5k open ones: a log scale shows both.
    chart_->offerLogScale(throughput_);
    // The plan is for all operations together: the total is what keeps it or not, each
    // operation's own line is only its share.
    planned_ = chart_->addSeries(throughput_, QObject::tr("planned"), Qt::gray, Qt::DashLine);
    planned_->setLineStyle(QCPGraph::lsStepRight);
    total_ = chart_->addBoldSeries(throughput_, QObject::tr("total"), QColor(33, 37, 41));
    sent_ = chart_->addSeries(throughput_, QObject::tr("sent"), QColor(120, 120, 120), Qt::DotLine);
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
    errors_ = chart_->addPanel(QObject::tr("per second"), TimeChart::Scale::linear,
                               QObject::tr("Errors"));
    errorRate_ = chart_->addSeries(errors_, QObject::tr("errors/s"), QColor(214, 39, 40));
    lateRate_ = chart_->addSeries(errors_, QObject::tr("late/s"), QColor(255, 127, 14));
    droppedRate_ = chart_->addSeries(errors_, QObject::tr("dropped/s"), QColor(148, 103, 189));
    statusCodes_ = cache ? -1
                         : chart_->addPanel(QObject::tr("responses/s"), TimeChart::Scale::linear,
                                            QObject::tr("Status codes"));
}

// Drawn as series, so the latency axis always reaches the limits.
void LiveCharts::setupLimits(const SloSpec& slo) {
    static const std::map<std::string, std::pair<const char*, QColor>> kStyles = {
        {"p50", {"p50", QColor(44, 160, 44)}},      {"p90", {"p90", QColor(31, 119, 180)}},
        {"p95", {"p95", QColor(140, 86, 75)}},      {"p99", {"p99", QColor(255, 127, 14)}},
        {"p999", {"p99.9", QColor(148, 103, 189)}}, {"max", {"max", QColor(214, 39, 40)}}};
    for (const auto& [key, limit] : slo.latency_ms) {
        const auto style = kStyles.find(key);
        if (style == kStyles.end()) continue;
        const QString name = QObject::tr("%1 limit").arg(QLatin1String(style->second.first));
        limits_.emplace_back(chart_->addSeries(latency_, name, style->second.second, Qt::DashLine),
                             limit);
    }
}

QCPGraph* LiveCharts::opGraph(const std::string& op) {
    auto it = ops_.find(op);
    if (it != ops_.end()) return it->second;
    QColor color = kOpColors[ops_.size() % std::size(kOpColors)];
    color.setAlpha(170);  // beneath the total, which is what the plan is for
    auto* g = chart_->addSeries(throughput_, QString::fromStdString(op), color);
    return ops_.emplace(op, g).first->second;
}

// A line per status code as it first comes, coloured by its class: 2xx green, 3xx blue,
// 4xx orange, 5xx red, each class's later codes darker.
QCPGraph* LiveCharts::codeGraph(int code) {
    auto it = codes_.find(code);
    if (it != codes_.end()) return it->second;
    static const std::map<int, QColor> kClasses = {{2, QColor(44, 160, 44)},
                                                   {3, QColor(31, 119, 180)},
                                                   {4, QColor(255, 127, 14)},
                                                   {5, QColor(214, 39, 40)}};
    const auto cls = kClasses.find(code / 100);
    QColor color = cls == kClasses.end() ? QColor(127, 127, 127) : cls->second;
    const auto same_class = std::count_if(codes_.begin(), codes_.end(), [code](const auto& c) {
        return c.first / 100 == code / 100;
    });
    color = color.darker(100 + 25 * int(same_class));
    auto* g = chart_->addSeries(statusCodes_, QString::number(code), color);
    // None of it in the ticks before: 0 there, as for a code that stops coming.
    for (const double t : drawnTicks_)
        chart_->append(g, t, 0);
    return codes_.emplace(code, g).first->second;
}

std::pair<QCPGraph*, QCPGraph*> LiveCharts::transactionGraphs(const std::string& label) {
    auto it = transactions_.find(label);
    if (it != transactions_.end()) return it->second;
    if (transactionRate_ < 0) {
        transactionRate_ = chart_->addPanel(QObject::tr("per second"), TimeChart::Scale::linear,
                                            QObject::tr("Transactions"));
        transactionLatency_ =
            chart_->addPanel(QObject::tr("latency"), TimeChart::Scale::log,
                             QObject::tr("Transaction latency"), AxisUnit::milliseconds);
    }
    const QColor color = kOpColors[transactions_.size() % std::size(kOpColors)];
    const QString name = QString::fromStdString(label);
    auto* rate = chart_->addSeries(transactionRate_, name, color);
    auto* p99 = chart_->addSeries(transactionLatency_, QObject::tr("%1 p99").arg(name), color);
    for (const double t : drawnTicks_)
        chart_->append(rate, t, 0);
    return transactions_.emplace(label, std::pair{rate, p99}).first->second;
}

// Successes and failures alike: a transaction that failed is still one the tool completed, and
// its errors are in the report's table.
void LiveCharts::addTransactions(double t, double secs, const std::map<std::string, OpSample>& tx) {
    for (const auto& [label, x] : tx) {
        const auto [rate, p99] = transactionGraphs(label);
        if (!x.latency.empty()) chart_->append(p99, t, ms(x.latency.percentile(99)));
    }
    for (const auto& [label, graphs] : transactions_) {
        const auto x = tx.find(label);
        chart_->append(graphs.first, t, x == tx.end() ? 0.0 : double(x->second.count) / secs);
    }
}

// Runs stored before drains were marked: a sample of an earlier phase than the last drawn.
bool LiveCharts::isDrain(const IntervalSample& s) const {
    return s.drain || s.phase < phase_;
}

bool LiveCharts::addSample(const IntervalSample& s) {
    if (throughput_ < 0 || s.interval_ms <= 0) return false;
    // A phase's drain (its replies that came after the next phase began) spans time the next
    // phase's ticks already cover: drawn there, its rates would be a dip in the new phase. Its
    // counts are in the phase's and the run's figures.
    if (isDrain(s)) return false;
    phase_ = s.phase;
    // The probes' first samples came with the first tick: a panel still missing is a probe's
    // that failed, and its room goes.
    if (++ticks_ == 2) chart_->releaseReservedPanels();
    const double t = double(s.t_ms) / 1000.0;
    const double secs = s.seconds();
    // Successes: a cache collapsing to a few answers a second is not drawn at the rate it was
    // asked for; what was sent has its own line, what failed is on the errors panel.
    for (const auto& [name, op] : s.ops)
        chart_->append(opGraph(name), t, double(op.count - op.errors) / secs);
    chart_->append(total_, t, double(s.total_ops() - s.total_errors()) / secs);
    chart_->append(sent_, t, double(s.sent) / secs);
    if (s.planned_rate > 0) chart_->append(planned_, t, s.planned_rate);
    if (hits_ && s.hits + s.misses > 0) chart_->append(hits_, t, 100.0 * s.hit_rate());
    const Histogram h = s.latency();
    if (!h.empty()) {
        chart_->append(p50_, t, ms(h.percentile(50)));
        chart_->append(p90_, t, ms(h.percentile(90)));
        chart_->append(p99_, t, ms(h.percentile(99)));
        chart_->append(max_, t, ms(h.max()));
    }
    // Open model: beside the p99 from the intended send, the p99 from the actual send; the
    // gap between them is the generator's own queueing. A closed run has no such line.
    if (const Histogram served = s.service(); !served.empty()) {
        if (!serviceP99_)
            serviceP99_ = chart_->addSeries(latency_, QObject::tr("p99 service"),
                                            QColor(255, 127, 14), Qt::DotLine);
        chart_->append(serviceP99_, t, ms(served.percentile(99)));
    }
    for (const auto& [graph, limit] : limits_)
        chart_->append(graph, t, limit);
    chart_->append(errorRate_, t, double(s.total_errors()) / secs);
    chart_->append(lateRate_, t, double(s.late) / secs);
    chart_->append(droppedRate_, t, double(s.dropped) / secs);
    if (!s.agents.empty()) agents_.addSample(t, secs, s.agents);
    if (statusCodes_ >= 0) {
        for (const auto& [code, n] : s.status_codes)
            codeGraph(code);
        // A code seen before and not in this tick had none here: 0, not a line across.
        for (const auto& [code, graph] : codes_) {
            const auto n = s.status_codes.find(code);
            chart_->append(graph, t, n == s.status_codes.end() ? 0.0 : double(n->second) / secs);
        }
    }
    if (!s.transactions.empty() || !transactions_.empty()) addTransactions(t, secs, s.transactions);
    drawnTicks_.push_back(t);
    return true;
}

void LiveCharts::addEvent(const RunEvent& e) {
    const double t = double(e.t_ms) / 1000.0;
    const QString text = QString::fromStdString(e.text);
    // Full GCs come every second in a collapse, on the top line; a phase's start, a rate's
    // change or the stop on the next, the user's notes and breaches on the third: at any one
    // time each label stays legible.
    if (e.kind == "phase")
        chart_->addMarker(t, text, QColor(31, 119, 180), 1);
    else if (e.kind == "gc")
        chart_->addMarker(t, QObject::tr("GC"), QColor(214, 39, 40), 0);
    else if (e.kind == "stop")
        chart_->addMarker(t, QObject::tr("stop"), Qt::darkGray, 1);
    else if (e.kind == "slo")
        chart_->addMarker(t, QObject::tr("SLO breach"), QColor(176, 42, 55), 2);
    else if (e.kind == "note")
        chart_->addMarker(t, text, QColor(214, 120, 0), 2);
    else if (e.kind == "rate")
        chart_->addMarker(t, text, QColor(148, 103, 189), 1);
}

void LiveCharts::addProbeSample(const ProbeSample& s) {
    probes_.add(s);
}

void LiveCharts::refresh() {
    chart_->refresh();
}

}  // namespace perflab
