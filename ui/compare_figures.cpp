// SPDX-License-Identifier: MIT
#include "compare_figures.h"

#include <cmath>
#include <map>

#include "model/format.h"
#include "prometheus_figures.h"

namespace perflab {

namespace {

bool ends_with(const std::string& s, const char* suffix) {
    const std::string end(suffix);
    return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

}  // namespace

QColor change_color(Change change) {
    switch (change) {
        case Change::better:
            return QColor(198, 239, 206);
        case Change::worse:
            return QColor(255, 199, 206);
        case Change::differs:
            return QColor(255, 242, 168);
        case Change::neutral:
            break;
    }
    return QColor();
}

QString figure_label(const std::string& figure) {
    static const std::map<std::string, QString> labels = {
        {"duration_s", QStringLiteral("duration")},
        {"ops", QStringLiteral("operations")},
        {"rate", QStringLiteral("rate (sent)")},
        {"error_rate", QStringLiteral("error rate")},
        {"throughput", QStringLiteral("throughput")},
        {"mean_us", QStringLiteral("mean latency")},
        {"p50_us", QStringLiteral("p50 latency")},
        {"p90_us", QStringLiteral("p90 latency")},
        {"p99_us", QStringLiteral("p99 latency")},
        {"p999_us", QStringLiteral("p99.9 latency")},
        {"max_us", QStringLiteral("max latency")},
        {"errors", QStringLiteral("errors")},
        {"hit_rate", QStringLiteral("hit rate")},
        {"success", QStringLiteral("success")},
        {"bytes_in", QStringLiteral("bytes in")},
        {"bytes_out", QStringLiteral("bytes out")},
        {"service_p50_us", QStringLiteral("p50 service time")},
        {"service_p99_us", QStringLiteral("p99 service time")},
        {"redis_moved", QStringLiteral("Redis Cluster MOVED")},
        {"redis_ask", QStringLiteral("Redis Cluster ASK")},
        {"redis_hottest_node_pct", QStringLiteral("Redis Cluster hottest node's share %")},
    };
    const auto it = labels.find(figure);
    if (it != labels.end()) return it->second;
    // "p2.throughput": a figure of phase 2.
    const auto dot = figure.find('.');
    if (figure.size() > 1 && figure[0] == 'p' && dot != std::string::npos &&
        figure.find_first_not_of("0123456789", 1) == dot)
        return QStringLiteral("phase %1 %2")
            .arg(QString::fromStdString(figure.substr(1, dot - 1)),
                 figure_label(figure.substr(dot + 1)));
    return QString::fromStdString(figure);
}

QString figure_value(const std::string& figure, double v) {
    if (std::isnan(v)) return QStringLiteral("-");
    std::string text;
    if (is_prometheus_figure(figure))
        text = format_fixed(v, 3);
    else if (figure == "hit_rate" || figure == "success" || figure == "error_rate")
        text = format_fixed(v * 100, 2) + "%";
    else if (ends_with(figure, "_pct"))
        text = format_fixed(v, 1) + "%";
    else if (ends_with(figure, "_bytes_max"))
        text = format_bytes(uint64_t(v));
    else if (ends_with(figure, "_us"))
        text = format_latency_us(int64_t(std::llround(v)));
    else if (figure == "bytes_in" || figure == "bytes_out")
        text = format_bytes(uint64_t(v));
    else if (figure == "duration_s")
        text = format_fixed(v, 1) + " s";
    else if (figure == "throughput" || figure == "rate")
        text = format_fixed(v, 1) + "/s";
    else
        text = format_fixed(v, 0);
    return QString::fromStdString(text);
}

QString cell_text(const Comparison::Figure& f, size_t i) {
    QString text = figure_value(f.name, f.values[i]);
    if (i == 0 || std::isnan(f.delta_pct[i])) return text;
    if (!f.judged())
        return text + QStringLiteral(" (") + delta_text(f.delta_pct[i]) + QLatin1Char(')');
    const auto sign = [](double v, int decimals) {
        QString n = QString::number(v, 'f', decimals);
        if (v >= 0) n.prepend(QLatin1Char('+'));
        return n;
    };
    QString change = sign(f.delta_pct[i], f.points ? 2 : 1);
    change += f.points ? QStringLiteral(" pts") : QStringLiteral("%");
    if (f.ci[i])
        change +=
            QStringLiteral(" [%1, %2]").arg(sign(f.ci[i]->first, 1), sign(f.ci[i]->second, 1));
    if (f.verdict[i] == "too few ticks" || f.verdict[i] == "differs")
        change += QStringLiteral(", ") + QString::fromStdString(f.verdict[i]);
    return text + QStringLiteral(" (") + change + QLatin1Char(')');
}

Change cell_change(const Comparison::Figure& f, size_t i) {
    if (i == 0 || !f.judged()) return Change::neutral;
    if (f.verdict[i] == "better") return Change::better;
    if (f.verdict[i] == "worse") return Change::worse;
    if (f.verdict[i] == "differs") return Change::differs;
    return Change::neutral;
}

QString delta_text(double delta_pct) {
    if (std::isnan(delta_pct)) return {};
    return (delta_pct >= 0 ? QStringLiteral("+") : QString()) + QString::number(delta_pct, 'f', 1) +
           QLatin1Char('%');
}

}  // namespace perflab
