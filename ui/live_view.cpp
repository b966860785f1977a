// SPDX-License-Identifier: MIT
#include "live_view.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <chrono>

#include "agent_tiles.h"
#include "live_charts.h"
#include "model/figures.h"
#include "model/format.h"
#include "model/generator_watch.h"
#include "model/run_plan.h"
#include "run_answer.h"
#include "slo_watch.h"
#include "stat_tile.h"
#include "tick_text.h"
#include "time_chart.h"

namespace perflab {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString rateText(double v) {
    return QLocale().toString(v, 'f', v < 100 ? 1 : 0);
}

}  // namespace

LiveView::LiveView(QWidget* parent)
    : QWidget(parent), chart_(new TimeChart(this)), charts_(std::make_unique<LiveCharts>(chart_)) {
    auto* layout = new QVBoxLayout(this);
    setupBanner();
    setupNotices();
    setupProgress();
    setupVerdicts();
    setupTiles();
    layout->addWidget(chart_, 1);
}

LiveView::~LiveView() = default;

void LiveView::setupBanner() {
    banner_ = new TickText(this, TickText::Overflow::wrap);
    banner_->setObjectName(QStringLiteral("generatorBanner"));
    banner_->setStyleSheet(QStringLiteral(
        "background: #fff3cd; color: #664d03; border: 1px solid #ffe69c; padding: 6px;"));
    banner_->hide();
    layout()->addWidget(banner_);
}

// Errors the run met beside its ticks: a probe left out or lost, a run not stored.
void LiveView::setupNotices() {
    notices_ = new QLabel(this);
    notices_->setObjectName(QStringLiteral("runNotices"));
    notices_->setWordWrap(true);
    notices_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    notices_->setStyleSheet(QStringLiteral(
        "background: #f8d7da; color: #58151c; border: 1px solid #f1aeb5; padding: 6px;"));
    notices_->hide();
    layout()->addWidget(notices_);
}

void LiveView::setupProgress() {
    auto* row = new QHBoxLayout;
    // A long run name is elided (whole in its tooltip), never a reason to widen the window.
    title_ = new TickText(this, TickText::Overflow::elide);
    title_->setObjectName(QStringLiteral("runTitle"));
    title_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    title_->setStyleSheet(QStringLiteral("font-weight: 600;"));
    phase_ = new TickText(this, TickText::Overflow::grow);
    progress_ = new QProgressBar(this);
    progress_->setTextVisible(true);
    stop_ = new QPushButton(tr("Stop"), this);
    stop_->setObjectName(QStringLiteral("stopButton"));
    stop_->setEnabled(false);
    // The first press stops sending and waits for the replies in flight; the second stops
    // waiting for them (they count as cancelled).
    connect(stop_, &QPushButton::clicked, this, [this] {
        if (stop_->text() == tr("Stop")) {
            stop_->setText(tr("Stop now"));
            stop_->setToolTip(
                tr("Stop waiting for the requests in flight: they count as cancelled"));
            phase_->setText(tr("stopping: waiting for the requests in flight…"));
        } else {
            stop_->setEnabled(false);
        }
        emit stopRequested();
    });
    row->addWidget(title_);
    row->addWidget(phase_);
    row->addWidget(progress_, 1);
    setupRateControl(row);
    // A note on the time axis as it happens ("heap dump here"), as the field notes wished.
    note_ = new QPushButton(tr("Note…"), this);
    note_->setObjectName(QStringLiteral("noteButton"));
    note_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    note_->setToolTip(tr("A note at this moment on the run's time axis (Ctrl+M)"));
    note_->setEnabled(false);
    connect(note_, &QPushButton::clicked, this, [this] { askNote(-1); });
    chart_->setNotesOffered(true);
    connect(chart_, &TimeChart::noteRequested, this,
            [this](double t_s) { askNote(qint64(t_s * 1000)); });
    row->addWidget(note_);
    row->addWidget(stop_);
    static_cast<QVBoxLayout*>(layout())->addLayout(row);
}

// Live rate control (vegeta #689): from now on, the open-model phase sends at the rate set
// here, or at ±10% of its plan (a ramp keeps ramping); the run marks the change on the time
// axis and the planned line follows it.
void LiveView::setupRateControl(QBoxLayout* row) {
    rateControl_ = new QWidget(this);
    auto* box = new QHBoxLayout(rateControl_);
    box->setContentsMargins(0, 0, 0, 0);
    rateBox_ = new QDoubleSpinBox(rateControl_);
    rateBox_->setObjectName(QStringLiteral("rateBox"));
    rateBox_->setRange(0.01, 1e7);
    rateBox_->setDecimals(0);
    rateBox_->setSuffix(tr(" /s"));
    rateBox_->setKeyboardTracking(false);
    rateBox_->setToolTip(tr("The phase's rate from now on (Enter to apply)"));
    auto* down = new QPushButton(tr("−10%"), rateControl_);
    down->setObjectName(QStringLiteral("rateDown"));
    auto* up = new QPushButton(tr("+10%"), rateControl_);
    up->setObjectName(QStringLiteral("rateUp"));
    for (auto* b : {down, up})
        b->setMaximumWidth(b->fontMetrics().horizontalAdvance(b->text()) + 24);
    box->addWidget(rateBox_);
    box->addWidget(down);
    box->addWidget(up);
    connect(rateBox_, &QDoubleSpinBox::editingFinished, this,
            [this] { emit rateChangeRequested(rateBox_->value()); });
    connect(down, &QPushButton::clicked, this, [this] { emit rateScaleRequested(0.9); });
    connect(up, &QPushButton::clicked, this, [this] { emit rateScaleRequested(1.1); });
    rateControl_->setEnabled(false);
    row->addWidget(rateControl_);
}

// Enabled in a timed open-model phase; the box follows the plan unless it is being edited.
void LiveView::updateRateControl(const IntervalSample& s) {
    const bool open = !spec_.search && s.planned_rate > 0 && stop_->text() == tr("Stop");
    rateControl_->setEnabled(open);
    if (open && !rateBox_->hasFocus()) rateBox_->setValue(s.planned_rate);
}

void LiveView::askNote(qint64 t_ms) {
    if (!note_->isEnabled()) return;
    // The moment asked for, not the one the text was typed by (22 s became 31 s).
    const qint64 asked = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now().time_since_epoch())
                             .count();
    bool ok = false;
    const QString text = QInputDialog::getText(this, tr("Note"), tr("Note on the time axis:"),
                                               QLineEdit::Normal, {}, &ok);
    if (ok && !text.trimmed().isEmpty()) emit noteRequested(text.trimmed(), t_ms, asked);
}

// One line of checks under the progress: green while the window meets a check, red while
// it does not.
void LiveView::setupVerdicts() {
    verdicts_ = new QLabel(this);
    verdicts_->setObjectName(QStringLiteral("sloStrip"));
    verdicts_->setWordWrap(true);
    verdicts_->setTextFormat(Qt::RichText);
    verdicts_->hide();
    layout()->addWidget(verdicts_);
    answer_ = new QLabel(this);
    answer_->setObjectName(QStringLiteral("runAnswer"));
    answer_->setWordWrap(true);
    answer_->setTextFormat(Qt::RichText);
    answer_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    answer_->setStyleSheet(QStringLiteral(
        "background: #e7f1ff; color: #052c65; border: 1px solid #9ec5fe; padding: 6px;"));
    answer_->hide();
    layout()->addWidget(answer_);
}

void LiveView::updateVerdicts() {
    verdictChecks_.clear();
    verdictFailing_ = false;
    QStringList cells;
    for (const SloCheck& c : slo_->window_checks()) {
        const QString text = qs(c.name + ": " + c.measured_text());
        verdictChecks_ << text;
        verdictFailing_ = verdictFailing_ || !c.passed;
        cells << QStringLiteral(
                     "<span style=\"background:%1;color:white;padding:2px\">&nbsp;%2&nbsp;"
                     "</span>")
                     .arg(c.passed ? QStringLiteral("#198754") : QStringLiteral("#b02a37"),
                          text.toHtmlEscaped());
    }
    verdicts_->setText(tr("SLO over the last %1 s: ").arg(spec_.slo->window_s) +
                       cells.join(QLatin1Char(' ')));
}

void LiveView::setupTiles() {
    auto* row = new QHBoxLayout;
    rate_ = new StatTile(tr("ops/s"), this);
    hitRate_ = new StatTile(tr("hit rate"), this);
    p50_ = new StatTile(tr("p50 latency"), this);
    p99_ = new StatTile(tr("p99 latency"), this);
    errors_ = new StatTile(tr("errors/s"), this);
    connections_ = new StatTile(tr("connections"), this);
    for (auto* t : {rate_, hitRate_, p50_, p99_, errors_, connections_})
        row->addWidget(t);
    static_cast<QVBoxLayout*>(layout())->addLayout(row);
    agents_ = new AgentTiles(this);
    layout()->addWidget(agents_);
}

void LiveView::clockStarted(qint64 wallMs) {
    if (generator_) generator_->on_clock(wallMs);
}

void LiveView::begin(const RunSpec& spec) {
    spec_ = spec;
    title_->setText(qs(spec.name));
    title_->setToolTip(qs(spec.name));
    title_->updateGeometry();
    chart_->setTitle(qs(spec.name));
    phase_->setText(tr("starting…"));
    banner_->hide();
    generator_ = std::make_unique<GeneratorWatch>(generator_cores(spec));
    notices_->clear();
    notices_->hide();
    noticeLines_.clear();
    // A search's length depends on where its knee is: the bar only shows it is busy.
    progress_->setRange(0, spec.search ? 0 : std::max(1, int(spec.planned_duration_s())));
    progress_->setValue(0);
    progress_->setFormat(QStringLiteral("%v / %m s"));
    stop_->setText(tr("Stop"));
    stop_->setToolTip({});
    stop_->setEnabled(true);
    note_->setEnabled(true);
    rateControl_->setEnabled(false);
    for (auto* t : {rate_, hitRate_, p50_, p99_, errors_, connections_})
        t->setValue(QStringLiteral("–"));
    hitRate_->setVisible(spec.kind == RunKind::cache);
    agents_->begin();
    slo_.reset();
    verdictChecks_.clear();
    verdictFailing_ = false;
    verdicts_->setVisible(spec.slo.has_value());
    answer_->hide();
    verdicts_->clear();
    if (spec.slo) {
        plan_ = run_plan(spec);
        slo_ = std::make_unique<SloWatch>(
            plan_, [](const RunEvent&) {}, [] {});
    }
    charts_->begin(spec);
}

void LiveView::addSample(const IntervalSample& s) {
    // The window counts a phase's drain: its replies came in it.
    if (slo_) {
        slo_->on_sample(s);
        updateVerdicts();
    }
    // A phase's drain would show as a dip of the new phase in the tiles as in the charts.
    if (!charts_->addSample(s)) return charts_->refresh();
    updateTiles(s);
    if (generator_) generator_->on_sample(s);
    if (const QString limit = agents_->update(s.agents, s.seconds()); !limit.isEmpty())
        warnGenerator(limit);
    else if (generator_ && generator_->limited())
        warnGenerator(qs(generator_->reason()) + QLatin1Char('.'));
    else
        banner_->hide();
    updateProgress(s);
    updateRateControl(s);
    charts_->refresh();
}

void LiveView::updateTiles(const IntervalSample& s) {
    const double secs = s.seconds();
    if (secs <= 0) return;
    const Histogram h = s.latency();
    // Throughput is what the server did: failed ops are in the errors tile.
    rate_->setValue(rateText(double(s.total_ops() - s.total_errors()) / secs));
    // Only gets hit or miss: ticks without (a set-only run's, cache.commands without a GET)
    // leave the tile unknown, not 0.
    if (s.hits + s.misses > 0)
        hitRate_->setValue(QStringLiteral("%1 %").arg(100.0 * s.hit_rate(), 0, 'f', 2));
    p50_->setValue(qs(format_latency_us(h.percentile(50))));
    p99_->setValue(qs(format_latency_us(h.percentile(99))));
    QString errors = rateText(double(s.total_errors()) / secs);
    if (s.late > 0) errors += tr(" · %1 late").arg(s.late);
    if (s.dropped > 0) errors += tr(" · %1 dropped").arg(s.dropped);
    errors_->setValue(errors);
    connections_->setValue(QString::number(s.connections));
}

void LiveView::updateProgress(const IntervalSample& s) {
    // QProgressBar::setValue repaints at once, and a repaint flushes the window: a tenth of
    // the GUI thread's time during a run. With updates off it only schedules a paint, which
    // joins the tick's one paint of the window.
    progress_->setUpdatesEnabled(false);
    progress_->setValue(std::min(progress_->maximum(), int(s.t_ms / 1000)));
    progress_->setUpdatesEnabled(true);
    const int phases = int(spec_.phases.size());
    QString text = spec_.search ? tr("search step %1").arg(s.phase + 1)
                                : tr("phase %1/%2").arg(s.phase + 1).arg(phases);
    if (s.planned_rate > 0) text += tr(" · %1/s planned").arg(rateText(s.planned_rate));
    phase_->setText(text);
}

void LiveView::addEvent(const RunEvent& e) {
    if (e.kind == "error") addNotice(qs(e.text));
    charts_->addEvent(e);
    charts_->refresh();
}

void LiveView::addProbeSample(const ProbeSample& s) {
    charts_->addProbeSample(s);
    if (slo_) slo_->on_probe_sample(s);
}

void LiveView::addNotice(const QString& text) {
    constexpr int kShown = 3;  // the newest; a flapping probe must not push the charts away
    noticeLines_ << QStringLiteral("⚠ ") + text;
    while (noticeLines_.size() > kShown)
        noticeLines_.removeFirst();
    notices_->setText(noticeLines_.join(QLatin1Char('\n')));
    notices_->show();
}

QString LiveView::noticeText() const {
    return notices_->isHidden() ? QString() : notices_->text();
}

void LiveView::warnGenerator(const QString& why) {
    banner_->setText(tr("⚠ Load generator limit — ") + why);
    banner_->show();
}

void LiveView::finish(const RunSummary& summary) {
    stop_->setEnabled(false);
    note_->setEnabled(false);
    rateControl_->setEnabled(false);
    QString text = tr("%1 · %2").arg(qs(to_string(summary.status)), phase_->text());
    if (summary.status == RunStatus::failed) text = tr("failed: %1").arg(qs(summary.error));
    phase_->setText(text);
    // The run's answer, not its last tick's (a drain's few replies): the tiles show the whole
    // run, and a line above them its figures, verdict and search result.
    const Figures f = figures(summary.kind, summary.overall);
    if (f.duration_s > 0) {
        rate_->setValue(rateText(f.throughput));
        if (f.hit_rate)
            hitRate_->setValue(QStringLiteral("%1 %").arg(100.0 * *f.hit_rate, 0, 'f', 2));
        p50_->setValue(qs(format_latency_us(f.latency.percentile(50))));
        p99_->setValue(qs(format_latency_us(f.latency.percentile(99))));
        errors_->setValue(tr("%1 %").arg(100.0 * f.error_rate, 0, 'f', 2));
    }
    answer_->setText(run_answer_html(summary));
    answer_->show();
    charts_->refresh();
}

int LiveView::ticks() const {
    return charts_->ticks();
}

bool LiveView::generatorLimited() const {
    return !banner_->isHidden();
}

}  // namespace perflab
