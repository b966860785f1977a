// SPDX-License-Identifier: MIT
#include "compact_ticks.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace perflab {

namespace {

// Three significant digits, and no "1e+03": a tick value is a round number, so that is
// exact for every tick a ticker makes.
QString digits(double v) {
    return QString::number(v, 'g', 3);
}

template <class Base>
class CompactTicker : public Base {
  public:
    explicit CompactTicker(AxisUnit unit) : unit_(unit) {}

  protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return unit_ == AxisUnit::milliseconds ? compact_ms(tick) : compact_count(tick);
    }

  private:
    AxisUnit unit_;
};

// Powers of ten while the axis spans enough of them, every k-th decade when they outnumber
// the ticks asked for (QCP rounds its step down to whole decades: a short panel over three
// decades asked for two ticks got four, labels over each other). Under 1.6 decades QCP falls
// back to linear steps (250, 500, 750µs), crowded at a log axis' top: 1-2-5 steps of each
// decade instead, none closer to the one before than the count asked for leaves room.
class CompactLogTicker : public CompactTicker<QCPAxisTickerLog> {
  public:
    using CompactTicker::CompactTicker;

  protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
        QVector<double> ticks = QCPAxisTickerLog::createTickVector(tickStep, range);
        if (range.lower <= 0) return ticks;
        const int count = std::max(tickCount(), 1);
        const double decades = std::log10(range.upper / range.lower);
        if (decades >= 1.6) {
            const auto inside = std::count_if(ticks.begin(), ticks.end(),
                                              [&](double t) { return range.contains(t); });
            if (inside <= count + 1) return ticks;
            const auto k = int(std::ceil(double(inside) / count));
            QVector<double> thinned;
            for (double t : ticks)
                if (int(std::lround(std::log10(t))) % k == 0) thinned.push_back(t);
            return thinned;
        }
        const double gap = decades / count - 1e-9;
        QVector<double> steps;
        double last = -std::numeric_limits<double>::infinity();
        for (double d = std::pow(10.0, std::floor(std::log10(range.lower))); d <= range.upper;
             d *= 10)
            for (double m : {1.0, 2.0, 5.0}) {
                const double t = d * m;
                if (!range.contains(t) || std::log10(t) - last < gap) continue;
                steps.push_back(t);
                last = std::log10(t);
            }
        return steps;
    }
};

}  // namespace

QString compact_count(double value) {
    static const char* const kSuffixes[] = {"", "k", "M", "G", "T"};
    const double size = std::abs(value);
    // 1e-9 absorbs the rounding of a tick computed as a sum of steps (0.30000000000000004).
    if (size < 1e-9) return QStringLiteral("0");
    size_t i = 0;
    double scaled = value;
    while (std::abs(scaled) >= 999.5 && i + 1 < std::size(kSuffixes)) {
        scaled /= 1000;
        ++i;
    }
    return digits(scaled) + QLatin1String(kSuffixes[i]);
}

QString compact_ms(double ms) {
    const double size = std::abs(ms);
    if (size < 1e-9) return QStringLiteral("0");
    if (size < 0.9995) return digits(ms * 1000) + QStringLiteral("µs");
    if (size < 999.5) return digits(ms) + QStringLiteral("ms");
    return digits(ms / 1000) + QStringLiteral("s");
}

QString binary_bytes(double bytes) {
    static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    size_t i = 0;
    double scaled = bytes;
    while (std::abs(scaled) >= 1023.5 && i + 1 < std::size(kUnits)) {
        scaled /= 1024;
        ++i;
    }
    return (i == 0 ? QString::number(scaled, 'f', 0) : digits(scaled)) + QLatin1Char(' ') +
           QLatin1String(kUnits[i]);
}

QSharedPointer<QCPAxisTicker> compact_ticker(AxisUnit unit, bool log) {
    if (log) return QSharedPointer<CompactLogTicker>::create(unit);
    return QSharedPointer<CompactTicker<QCPAxisTicker>>::create(unit);
}

bool fit_tick_count(QCPAxis* axis) {
    // A ticker keeps readable steps (1, 2, 2.5, 5 × 10^n) and so may make up to about half
    // again the count asked for: two label heights per tick still leave a gap between labels.
    // Two at least, or a short panel would show its 0 alone.
    const int label = std::max(1, QFontMetrics(axis->tickLabelFont()).height());
    const int count = std::max(2, axis->axisRect()->height() / (2 * label));
    if (axis->ticker()->tickCount() == count) return false;
    axis->ticker()->setTickCount(count);
    return true;
}

}  // namespace perflab
