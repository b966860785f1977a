// SPDX-License-Identifier: MIT
#include "compact_ticks.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
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

// Powers of ten while the axis spans enough of them; a short span (latencies within one or
// two decades) would otherwise show a single label, so it gets 1-2-5 or 1-3 steps as the
// panel's height (the tick count asked for) allows.
class CompactLogTicker : public CompactTicker<QCPAxisTickerLog> {
  public:
    using CompactTicker::CompactTicker;

  protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
        QVector<double> ticks = QCPAxisTickerLog::createTickVector(tickStep, range);
        const auto inside =
            std::count_if(ticks.begin(), ticks.end(), [&](double t) { return range.contains(t); });
        if (inside >= 2 || range.lower <= 0) return ticks;
        const double decades = std::log10(range.upper / range.lower);
        const double perDecade = double(tickCount()) / std::max(decades, 0.1);
        if (perDecade < 2) return ticks;
        const std::vector<double> steps =
            perDecade >= 3 ? std::vector<double>{1, 2, 5} : std::vector<double>{1, 3};
        ticks.clear();
        for (double d = std::pow(10.0, std::floor(std::log10(range.lower))); d <= range.upper;
             d *= 10)
            for (double m : steps)
                ticks.push_back(d * m);
        return ticks;
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
