// SPDX-License-Identifier: MIT
#include "time_chart.h"

#include <qcustomplot.h>

#include <QMenu>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <numeric>
#include <vector>

#include "chart_export.h"
#include "chart_plots.h"

namespace perflab {

namespace {

constexpr int kMaxMarkers = 300;   // full GCs can come every second; keep the plot light
constexpr int kLegendColumns = 5;  // then the legend takes another line

QColor opaqueTint(const QColor& color) {
    constexpr double kShare = 0.45;  // of the colour, the rest white
    const auto mix = [](int c) { return int(kShare * c + (1 - kShare) * 255); };
    return QColor(mix(color.red()), mix(color.green()), mix(color.blue()));
}

}  // namespace

TimeChart::TimeChart(QWidget* parent)
    : QWidget(parent),
      scroll_(new QScrollArea(this)),
      plot_(new StackPlot(this)),
      margins_(new QCPMarginGroup(plot_)) {
    setupPlot();
}

TimeChart::~TimeChart() = default;

void TimeChart::setupPlot() {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll_->setWidget(plot_);
    layout->addWidget(scroll_);
    plot_->plotLayout()->clear();
    plot_->plotLayout()->setRowSpacing(0);
    // Each panel has its own legend; the plot-wide one went with the layout.
    plot_->setAutoAddPlottableToLegend(false);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setNoAntialiasingOnDrag(true);
    // One paint buffer, not two: the overlay's own (for a selection rectangle, unused here)
    // was a second stack-sized pixmap cleared and composed at every replot.
    plot_->layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);
    plot_->addLayer(kPointerLayer, plot_->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    // The plot paints all of itself (a white background under its buffer), so nothing under it
    // is painted first: the tab page's frame was filled anew under every replot.
    plot_->setAttribute(Qt::WA_OpaquePaintEvent);
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mouseMove, this, &TimeChart::showTooltip);
    // Only a press on a plot area pans; one on a legend toggles a series and keeps following.
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (plot_->axisRectAt(event->pos())) follow_ = false;
    });
    connect(plot_, &QCustomPlot::legendClick, this,
            [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent* event) {
                if (event->button() == Qt::LeftButton) toggleSeries(item);
            });
    connect(plot_, &QCustomPlot::afterLayout, this, &TimeChart::fitTicks);
    connect(plot_, &QCustomPlot::afterLayout, this, &TimeChart::declutterMarkerLabels);
    // Only a replot's layout skips panels out of view: an export lays out and draws the
    // whole stack with no replot around it.
    connect(plot_, &QCustomPlot::beforeReplot, this, [this] { replotting_ = true; });
    connect(plot_, &QCustomPlot::afterLayout, this, [this] {
        if (replotting_) skipPanelsOutOfView();
    });
    connect(plot_, &QCustomPlot::afterReplot, this, [this] {
        replotting_ = false;
        restoreSkippedPanels();
    });
    // What scrolls into view was not drawn: draw it before the scrolled stack is painted.
    connect(scroll_->verticalScrollBar(), &QScrollBar::valueChanged, this,
            [this] { plot_->replot(QCustomPlot::rpQueuedRefresh); });
    connect(plot_, &QCustomPlot::mouseWheel, this, [this] { follow_ = false; });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] {
        follow_ = true;
        refresh();
    });
    plot_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        std::optional<double> at_s;
        if (!panels_.empty())
            at_s = panels_.front().rect->axis(QCPAxis::atBottom)->pixelToCoord(at.x());
        QMenu* menu = createMenu(this, at_s);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(plot_->mapToGlobal(at));
    });
}

QMenu* TimeChart::createMenu(QWidget* parent, std::optional<double> at_s) {
    auto* menu = new QMenu(parent);
    if (notesOffered_ && at_s) {
        const double t = std::max(0.0, *at_s);
        menu->addAction(tr("Add a note at %1 s…").arg(t, 0, 'f', 1), this,
                        [this, t] { emit noteRequested(t); });
        menu->addSeparator();
    }
    QStringList kinds;
    for (const auto& p : panels_)
        if (!p.kind.isEmpty() && !kinds.contains(p.kind)) kinds << p.kind;
    for (const QString& kind : kinds) {
        QAction* action = menu->addAction(kind);
        action->setCheckable(true);
        action->setChecked(!hidden_.contains(kind));
        // The last visible kind stays: a chart with no panel would look broken, not chosen.
        action->setEnabled(hidden_.contains(kind) || visiblePanelCount() > 1);
        connect(action, &QAction::toggled, this,
                [this, kind](bool shown) { setKindHidden(kind, !shown); });
    }
    if (!kinds.isEmpty()) menu->addSeparator();
    for (size_t i = 0; i < panels_.size(); ++i) {
        if (!panels_[i].logOffered || hidden_.contains(panels_[i].kind)) continue;
        QAction* action = menu->addAction(tr("%1: log scale").arg(panels_[i].kind));
        action->setCheckable(true);
        action->setChecked(panels_[i].scale == Scale::log);
        connect(action, &QAction::toggled, this, [this, i](bool log) { setLogScale(int(i), log); });
    }
    menu->addAction(tr("Fit to the run"), this, [this] {
        follow_ = true;
        refresh();
    });
    menu->addAction(tr("Export chart…"), this,
                    [this] { export_chart_dialog(this, plot_, title_); });
    return menu;
}

void TimeChart::rememberPanelChoices(const QString& settingsKey) {
    settingsKey_ = settingsKey;
    const QStringList hidden = QSettings().value(settingsKey).toStringList();
    hidden_ = QSet<QString>(hidden.begin(), hidden.end());
    layoutPanels();
}

void TimeChart::setKindHidden(const QString& kind, bool hidden) {
    if (hidden == hidden_.contains(kind)) return;
    if (hidden)
        hidden_.insert(kind);
    else
        hidden_.remove(kind);
    if (!settingsKey_.isEmpty()) {
        QStringList list(hidden_.begin(), hidden_.end());
        list.sort();
        QSettings().setValue(settingsKey_, list);
    }
    layoutPanels();
    refresh();
}

int TimeChart::visiblePanelCount() const {
    return int(std::count_if(panels_.begin(), panels_.end(),
                             [this](const Panel& p) { return !hidden_.contains(p.kind); }));
}

int TimeChart::addPanel(const QString& title, Scale scale, const QString& kind, AxisUnit unit) {
    auto* rect = new QCPAxisRect(plot_);
    rect->setRangeDrag(Qt::Horizontal);
    rect->setRangeZoom(Qt::Horizontal);
    rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins_);
    QCPAxis* values = rect->axis(QCPAxis::atLeft);
    values->setLabel(title);
    if (scale == Scale::log) values->setScaleType(QCPAxis::stLogarithmic);
    values->setTicker(compact_ticker(unit, scale == Scale::log));
    auto time = QSharedPointer<QCPAxisTickerTime>::create();
    time->setTimeFormat(QStringLiteral("%h:%m:%s"));
    rect->axis(QCPAxis::atBottom)->setTicker(time);
    // The row joins the plot's layout first: only then do the elements put in it know the plot.
    auto* header = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(plot_->plotLayout()->rowCount(), 0, header);
    QCPLegend* legend = addLegendRow(header);
    panels_.push_back({rect, header, legend, scale, kind, unit});
    reserved_.removeOne(kind);
    linkTimeAxes(rect);
    layoutPanels();
    return int(panels_.size()) - 1;
}

// The legend on one line, as wide as its entries, over the left edge of the plot area (the
// margin group aligns the row's margins with the panels').
QCPLegend* TimeChart::addLegendRow(QCPLayoutGrid* header) {
    auto* legend = new QCPLegend;
    header->addElement(0, 0, legend);
    header->addElement(0, 1, new QCPLayoutElement(plot_));
    header->setColumnStretchFactor(0, 0.001);
    header->setMarginGroup(QCP::msLeft | QCP::msRight, margins_);
    // Whatever its legend's width, the row does not widen the panels: a line of long names
    // made the plot wider than the view, whose right part, time axis and all, was cut off.
    header->setMinimumSize(1, 0);
    legend->setLayer(QStringLiteral("legend"));
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setFont(QFont(font().family(), 8));
    legend->setIconSize(16, 8);
    legend->setIconTextPadding(4);
    legend->setColumnSpacing(12);
    legend->setWrap(kLegendColumns);
    legend->setMargins(QMargins(0, 4, 0, 0));
    return legend;
}

void TimeChart::offerLogScale(int panel) {
    panels_.at(size_t(panel)).logOffered = true;
}

void TimeChart::setLogScale(int panel, bool log) {
    Panel& p = panels_.at(size_t(panel));
    p.scale = log ? Scale::log : Scale::linear;
    QCPAxis* values = p.rect->axis(QCPAxis::atLeft);
    values->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    values->setTicker(compact_ticker(p.unit, log));
    refresh();
}

void TimeChart::setCaption(int panel, const QString& text) {
    panels_.at(size_t(panel)).caption = text;
    QCPLayoutGrid* header = panels_.at(size_t(panel)).header;
    auto* caption = new QCPTextElement(plot_, text, QFont(font().family(), 8, QFont::Bold));
    caption->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    caption->setTextColor(plot_->palette().color(QPalette::WindowText));
    caption->setMargins(QMargins(0, 4, 10, 0));
    header->insertColumn(0);
    header->addElement(0, 0, caption);
    header->setColumnStretchFactor(0, 0.001);
}

void TimeChart::setPanelOrder(int panel, const QString& key) {
    panels_.at(size_t(panel)).order = key;
    layoutPanels();
}

std::vector<int> TimeChart::panelsInOrder() const {
    std::vector<int> order(panels_.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [this](int a, int b) {
        return panels_[size_t(a)].order < panels_[size_t(b)].order;
    });
    return order;
}

void TimeChart::toggleSeries(QCPAbstractLegendItem* item) {
    auto* entry = qobject_cast<QCPPlottableLegendItem*>(item);
    if (!entry) return;
    QCPAbstractPlottable* series = entry->plottable();
    series->setVisible(!series->visible());
    entry->setTextColor(legend_text_color(plot_->palette(), series->visible()));
    refresh();
}

namespace {

// The legend's entries in order. A legend that wraps keeps empty cells at the end of its
// last line, which count in itemCount() and are null for item().
std::vector<QCPAbstractLegendItem*> legend_entries(QCPLegend* legend) {
    std::vector<QCPAbstractLegendItem*> entries;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* entry = legend->item(i)) entries.push_back(entry);
    return entries;
}

// The most legend entries per line (up to kLegendColumns) whose columns fit `width`: long
// names (a compare of runs named in full) go one to a line rather than off the plot's edge.
int legend_columns(const std::vector<QCPAbstractLegendItem*>& entries, int spacing, int width) {
    const int count = int(entries.size());
    for (int columns = std::min(count, kLegendColumns); columns > 1; --columns) {
        std::vector<int> widths(size_t(columns), 0);
        for (int i = 0; i < count; ++i)
            widths[size_t(i % columns)] = std::max(
                widths[size_t(i % columns)], entries[size_t(i)]->minimumOuterSizeHint().width());
        int total = spacing * (columns - 1);
        for (const int w : widths)
            total += w;
        if (total <= width) return columns;
    }
    return 1;
}

}  // namespace

// Called after each layout of the plot, when the panels' sizes are known: a panel whose tick
// count or legend's line width changed gets them again; a legend that wraps anew takes another
// layout, so the plot is laid out again.
void TimeChart::fitTicks() {
    bool relayout = false;
    for (auto& p : panels_) {
        if (!p.rect->visible()) continue;
        if (fit_tick_count(p.rect->axis(QCPAxis::atLeft)))
            p.rect->update(QCPLayoutElement::upPreparation);
        // The row's room right of a caption, at the size laid out now (an export's own).
        const int width = p.header->rect().right() + 1 - p.legend->outerRect().left();
        const auto entries = legend_entries(p.legend);
        const int columns = legend_columns(entries, p.legend->columnSpacing(), width);
        const int count = int(entries.size());
        if (count > 0 && columns != std::min(p.legend->wrap(), count)) {
            p.legend->setWrap(columns);
            p.legend->setFillOrder(p.legend->fillOrder(), true);  // setWrap alone moves none
            relayout = true;
        }
    }
    if (!relayout) return;
    QMetaObject::invokeMethod(this, &TimeChart::redraw, Qt::QueuedConnection);
}

// Hidden panels leave the layout and their lines, legends and markers go invisible with them.
// Every panel labels its time axis (in a tall stack the bottom one is scrolled out of view);
// the top one labels the markers.
void TimeChart::layoutPanels() {
    QCPLayoutGrid* grid = plot_->plotLayout();
    for (auto& p : panels_)
        for (QCPLayoutElement* e :
             {static_cast<QCPLayoutElement*>(p.header), static_cast<QCPLayoutElement*>(p.rect)})
            if (e->layout()) grid->take(e);
    if (spacer_ && spacer_->layout()) grid->take(spacer_);
    grid->simplify();
    int shownCount = 0;
    for (const int index : panelsInOrder()) {
        const auto i = size_t(index);
        Panel& p = panels_[i];
        const bool shown = laidOut(i);
        p.rect->setVisible(shown);
        p.header->setVisible(shown);
        p.rect->axis(QCPAxis::atBottom)->setTickLabels(shown);
        if (!shown) continue;
        const int row = grid->rowCount();
        grid->addElement(row, 0, p.header);
        grid->addElement(row + 1, 0, p.rect);
        grid->setRowStretchFactor(row, 0.001);
        ++shownCount;
    }
    const auto spare =
        solo_ ? 0 : int(std::count_if(reserved_.begin(), reserved_.end(), [this](const QString& k) {
            return !hidden_.contains(k);
        }));
    if (spare > 0) {
        if (!spacer_) spacer_ = new QCPLayoutElement(plot_);
        const int row = grid->rowCount();
        grid->addElement(row, 0, spacer_);
        grid->setRowStretchFactor(row, spare);
    }
    plotHeight_ = (shownCount + spare) * kMinPanelHeight;
    static_cast<StackPlot*>(plot_)->followPalette();  // the new panel's in the theme's colours
    scheduleRedraw();
    QCPAxisRect* top = topVisiblePanel();
    for (int i = 0; i < plot_->itemCount(); ++i)
        placeMarkerItem(plot_->item(i), top);
}

// A marker's line shows with its panel (a hidden panel keeps its last geometry, so a line
// left visible there would be drawn over another panel); its label goes to `top`.
void TimeChart::placeMarkerItem(QCPAbstractItem* item, QCPAxisRect* top) {
    auto* label = qobject_cast<QCPItemText*>(item);
    if (label && top && label->clipAxisRect() != top) {
        label->setClipAxisRect(top);
        label->position->setAxes(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
        label->position->setAxisRect(top);
    }
    if (item->clipAxisRect()) item->setVisible(item->clipAxisRect()->visible());
}

QCPAxisRect* TimeChart::topVisiblePanel() const {
    for (const int i : panelsInOrder())
        if (laidOut(size_t(i))) return panels_[size_t(i)].rect;
    return nullptr;
}

bool TimeChart::laidOut(size_t panel) const {
    return solo_ ? int(panel) == *solo_ : !hidden_.contains(panels_[panel].kind);
}

void TimeChart::soloPanel(std::optional<int> panel) {
    solo_ = panel;
    layoutPanels();
}

// "memcached (evictions/s): 127.0.0.1:11211": a probe's panels share their kind and caption,
// only the axis tells them apart.
QString TimeChart::panelTitle(int panel) const {
    const Panel& p = panels_.at(size_t(panel));
    const QString axis = p.rect->axis(QCPAxis::atLeft)->label();
    QString title = QStringLiteral("%1 (%2)").arg(p.kind, axis);
    if (p.kind.contains(axis, Qt::CaseInsensitive))
        title = p.kind;
    else if (axis.contains(p.kind, Qt::CaseInsensitive))
        title = axis;
    return p.caption.isEmpty() ? title : title + QStringLiteral(": ") + p.caption;
}

void TimeChart::linkTimeAxes(QCPAxisRect* rect) {
    QCPAxis* axis = rect->axis(QCPAxis::atBottom);
    if (panels_.size() > 1) axis->setRange(panels_.front().rect->axis(QCPAxis::atBottom)->range());
    connect(axis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this, axis](const QCPRange& range) {
                for (auto& p : panels_) {
                    QCPAxis* other = p.rect->axis(QCPAxis::atBottom);
                    if (other != axis && other->range() != range) other->setRange(range);
                }
            });
}

QCPGraph* TimeChart::addSeries(int panel, const QString& name, const QColor& color,
                               Qt::PenStyle style) {
    QCPAxisRect* rect = panels_.at(size_t(panel)).rect;
    auto* graph = plot_->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    setupSeries(panels_.at(size_t(panel)).legend, graph, name, color, style);
    return graph;
}

QCPGraph* TimeChart::addBoldSeries(int panel, const QString& name, const QColor& color) {
    QCPAxisRect* rect = panels_.at(size_t(panel)).rect;
    auto* graph = new BoldLineGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    setupSeries(panels_.at(size_t(panel)).legend, graph, name, color, Qt::SolidLine);
    return graph;
}

QCPGraph* TimeChart::addArea(int panel, const QString& name, const QColor& color) {
    QCPAxisRect* rect = panels_.at(size_t(panel)).rect;
    auto* graph = new AreaGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    setupSeries(panels_.at(size_t(panel)).legend, graph, name, color, Qt::SolidLine);
    graph->setBrush(opaqueTint(color));
    graph->setAntialiasedFill(false);
    panels_.at(size_t(panel)).stack.push_back(graph);
    return graph;
}

void TimeChart::setupSeries(QCPLegend* legend, QCPGraph* graph, const QString& name,
                            const QColor& color, Qt::PenStyle style) {
    graph->setName(name);
    // A wider pen is stroked as a polygon, as slow as the fills above; 1 px takes Qt's fast
    // cosmetic path (an hour of ticks took 1.06 s to redraw at 1.5 px, 0.15 s at 1 px with
    // the fills still whole).
    graph->setPen(QPen(color, 1, style));
    graph->setAdaptiveSampling(true);
    legend->addItem(new LegendEntry(legend, graph));
}

void TimeChart::append(QCPGraph* graph, double t_s, double value) {
    graph->addData(t_s, value);
    latest_s_ = std::max(latest_s_, t_s);
    if (graph->dataCount() > kMaxPoints) thin(graph);
}

// Of every four points the lowest and the highest stay, in their order: a spike in the max
// latency or a dip in throughput survives any number of halvings, where keeping every other
// point would drop half of them.
void TimeChart::thin(QCPGraph* graph) {
    const auto data = graph->data();
    QVector<double> keys, values;
    keys.reserve(data->size() / 2 + 4);
    values.reserve(data->size() / 2 + 4);
    auto it = data->constBegin();
    const auto keep = [&](decltype(it) point) {
        keys.push_back(point->key);
        values.push_back(point->value);
    };
    const auto last = data->constEnd() - 1;  // the newest point stays whatever its value
    for (; last - it >= 4; it += 4) {
        auto low = it, high = it;
        for (auto p = it + 1; p != it + 4; ++p) {
            if (p->value < low->value) low = p;
            if (p->value > high->value) high = p;
        }
        if (low == high) high = it + 3;  // a flat group: its ends
        keep(std::min(low, high));
        keep(std::max(low, high));
    }
    for (; it != data->constEnd(); ++it)
        keep(it);
    graph->setData(keys, values, true);
}

void TimeChart::addMarker(double t_s, const QString& label, const QColor& color, int line) {
    if (markers_ >= kMaxMarkers || panels_.empty()) return;
    ++markers_;
    for (auto& p : panels_) {
        auto* line = new QCPItemStraightLine(plot_);
        line->setClipAxisRect(p.rect);
        line->setPen(QPen(color, 1, Qt::DashLine));
        for (auto* pos : {line->point1, line->point2}) {
            pos->setAxes(p.rect->axis(QCPAxis::atBottom), p.rect->axis(QCPAxis::atLeft));
            pos->setTypeY(QCPItemPosition::ptAxisRectRatio);
            pos->setAxisRect(p.rect);
        }
        line->point1->setCoords(t_s, 0);
        line->point2->setCoords(t_s, 1);
        placeMarkerItem(line, nullptr);
    }
    auto* text = new QCPItemText(plot_);
    QCPAxisRect* top = panels_.front().rect;
    text->setClipAxisRect(top);
    text->position->setAxes(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
    text->position->setAxisRect(top);
    text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(t_s, 0);
    text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    text->setText(label);
    text->setColor(color);
    text->setFont(QFont(font().family(), 8));
    text->setPadding(QMargins(0, line * QFontMetrics(text->font()).height(), 0, 0));
    placeMarkerItem(text, topVisiblePanel());
}

void TimeChart::reservePanels(const QStringList& kinds) {
    if (kinds.isEmpty()) return;
    reserved_ += kinds;
    layoutPanels();
}

void TimeChart::releaseReservedPanels() {
    if (reserved_.isEmpty()) return;
    reserved_.clear();
    layoutPanels();
}

void TimeChart::clear() {
    skipped_.clear();
    plot_->clearGraphs();
    plot_->clearItems();
    plot_->plotLayout()->clear();  // deletes the spacer too when it is in the layout
    if (spacer_ && !spacer_->layout()) delete spacer_;
    spacer_ = nullptr;
    reserved_.clear();
    panels_.clear();
    solo_.reset();
    plotHeight_ = 0;
    margins_ = new QCPMarginGroup(plot_);
    latest_s_ = 0;
    planned_s_ = 0;
    markers_ = 0;
    follow_ = true;
    refresh();
}

void TimeChart::rescalePanels() {
    for (auto& p : panels_) {
        QCPAxis* y = p.rect->axis(QCPAxis::atLeft);
        bool found = false;
        QCPRange range;
        for (QCPGraph* g : p.rect->graphs()) {
            if (!g->visible()) continue;
            bool ok = false;
            const QCPRange r =
                g->getValueRange(ok, QCP::sdBoth, p.rect->axis(QCPAxis::atBottom)->range());
            if (!ok) continue;
            range = found ? QCPRange(std::min(range.lower, r.lower), std::max(range.upper, r.upper))
                          : r;
            found = true;
        }
        if (!found) continue;
        if (p.scale == Scale::log)
            y->setRange(std::max(range.lower / 1.5, 1e-3), std::max(range.upper * 1.5, 1e-2));
        else
            y->setRange(std::min(0.0, range.lower), std::max(range.upper * 1.1, 1.0));
    }
}

void TimeChart::refresh() {
    // The ranges are set now, as an export or a test reads them before any repaint.
    if (follow_ && !panels_.empty())
        panels_.front()
            .rect->axis(QCPAxis::atBottom)
            ->setRange(0, std::max({planned_s_, latest_s_, 1.0}));
    rescalePanels();
    scheduleRedraw();
}

void TimeChart::scheduleRedraw() {
    if (stale_) return;
    stale_ = true;
    QMetaObject::invokeMethod(this, &TimeChart::redraw, Qt::QueuedConnection);
}

// A resized plot reallocates its paint buffers and replots the whole stack at once, so the
// probe panels that come with a first sample (eight for a host and a memcached) grow it once
// here, not once each: that was 8 full replots, a 170 ms stall of the first tick.
void TimeChart::redraw() {
    auto* stack = static_cast<StackPlot*>(plot_);
    const bool grows = plotHeight_ > stack->height() && plotHeight_ != stack->stackHeight();
    stack->setStackHeight(plotHeight_);
    if (!isVisible()) return;  // stays stale until shown
    stale_ = false;
    if (grows) return;  // the scroll area's resize replots it
    plot_->replot(QCustomPlot::rpQueuedRefresh);
}

void TimeChart::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (stale_) redraw();
}

// Called once the replot's layout has placed the panels and before anything is drawn: a panel
// outside the scroll area's view is not drawn, neither its series nor its axes, grid and legend
// (hiding the axis rect hides the axes and grid drawn as its children, the legend row its
// legend; series are not children of the rect).
void TimeChart::skipPanelsOutOfView() {
    const QRect view = plot_->visibleRegion().boundingRect();
    // Not shown (a hidden tab being resized): its next showing paints this replot's buffer.
    if (view.isEmpty()) return;
    const auto skip = [this](QCPLayerable* l) {
        if (!l->visible()) return;
        l->setVisible(false);
        skipped_.push_back(l);
    };
    for (const auto& p : panels_) {
        if (!p.rect->visible()) continue;
        if (!p.header->outerRect().intersects(view)) skip(p.header);
        if (p.rect->outerRect().intersects(view)) continue;
        skip(p.rect);
        for (QCPGraph* g : p.rect->graphs())
            skip(g);
    }
}

// Short phases (a search's 2-s steps) put their labels closer together than they are long:
// a label that would run into the one before it on its line is left out at this zoom (its
// dashed line stays, the events list has its text), and comes back when zoomed in.
void TimeChart::declutterMarkerLabels() {
    std::vector<std::pair<double, QCPItemText*>> labels;
    for (int i = 0; i < plot_->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot_->item(i));
            text && text->clipAxisRect() && text->clipAxisRect()->visible())
            labels.emplace_back(text->position->pixelPosition().x(), text);
    std::sort(labels.begin(), labels.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::map<int, double> ends;  // per line (the label's top padding): the last label's end
    for (const auto& [x, text] : labels) {
        const int line = text->padding().top();
        const auto end = ends.find(line);
        const bool fits = end == ends.end() || x >= end->second;
        text->setVisible(fits);
        if (fits) ends[line] = x + QFontMetrics(text->font()).horizontalAdvance(text->text()) + 6;
    }
}

void TimeChart::restoreSkippedPanels() {
    for (QCPLayerable* l : skipped_)
        l->setVisible(true);
    skipped_.clear();
}

}  // namespace perflab
