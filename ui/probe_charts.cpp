// SPDX-License-Identifier: MIT
#include "probe_charts.h"

#include <qcustomplot.h>

#include <QUrl>

#include "time_chart.h"

namespace perflab {

namespace {

const QColor kBlue(31, 119, 180), kOrange(255, 127, 14), kGreen(44, 160, 44), kRed(214, 39, 40),
    kPurple(148, 103, 189), kBrown(140, 86, 75), kGray(127, 127, 127);

bool loopbackHost(QString host) {
    host.remove(QLatin1Char('[')).remove(QLatin1Char(']'));
    return host.startsWith(QLatin1String("127.")) || host == QLatin1String("::1") ||
           host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0;
}

// "local", or a probe that reaches this machine over SSH ("user@127.0.0.1:2222").
bool onThisMachine(const QString& source) {
    if (source == QLatin1String("local")) return true;
    const QString host = source.section(QLatin1Char('@'), -1).section(QLatin1Char(':'), 0, 0);
    return loopbackHost(host);
}

constexpr qsizetype kRedisPanels = 6;

// The server's own percentiles drawn, of the commands a cache run sends (redis_info.cpp's keys).
constexpr const char* kRedisLatencies[] = {"latency_get_p50_us",  "latency_get_p99_us",
                                           "latency_get_p999_us", "latency_set_p50_us",
                                           "latency_set_p99_us",  "latency_set_p999_us"};

bool number(const nlohmann::json& values, const std::string& key, double* out) {
    const auto it = values.find(key);
    if (it == values.end() || !it->is_number()) return false;
    *out = it->get<double>();
    return true;
}

}  // namespace

bool ProbeCharts::loopbackTargets(const RunSpec& spec) {
    if (spec.cache)
        for (const auto& server : spec.cache->servers)
            if (loopbackHost(QString::fromStdString(server.host))) return true;
    if (spec.http)
        for (const auto& target : spec.http->targets)
            if (loopbackHost(QUrl(QString::fromStdString(target.url)).host())) return true;
    return false;
}

QStringList ProbeCharts::hostKinds() {
    return {QObject::tr("Host CPU"), QObject::tr("Host load"), QObject::tr("Host memory"),
            QObject::tr("Host network"), QObject::tr("Host disk")};
}

QString ProbeCharts::coresKind() {
    return QObject::tr("Host cores");
}

void ProbeCharts::begin(const RunSpec& spec) {
    series_.clear();
    promPanels_.clear();
    promSourcePanels_.clear();
    promGraphs_.clear();
    made_ = 0;
    loopback_ = loopbackTargets(spec);
    QStringList kinds;
    for (const auto& probe : spec.probes) {
        switch (probe.type) {
            case ProbeSpec::Type::local:
            case ProbeSpec::Type::ssh:
                kinds += hostKinds();
                if (probe.per_core) kinds += coresKind();
                break;
            case ProbeSpec::Type::memcached:
                kinds += QStringList(4, QObject::tr("memcached"));
                break;
            case ProbeSpec::Type::jvm:
                kinds += QStringList(2, QObject::tr("JVM"));
                break;
            case ProbeSpec::Type::prometheus:
                kinds += QStringList(qsizetype(probe.metrics.size()), QObject::tr("Prometheus"));
                break;
            case ProbeSpec::Type::process:
                kinds += QStringList(2, QObject::tr("Process"));
                break;
            case ProbeSpec::Type::redis:
                kinds += QStringList(kRedisPanels, QObject::tr("Redis"));
                break;
        }
    }
    chart_->reservePanels(kinds);
}

void ProbeCharts::add(const ProbeSample& s) {
    if (s.gap) return;
    if (s.kind == "host")
        addHost(s);
    else if (s.kind == "memcached")
        addMemcached(s);
    else if (s.kind == "jvm")
        addJvm(s);
    else if (s.kind == "prometheus")
        addPrometheus(s);
    else if (s.kind == "process")
        addProcess(s);
    else if (s.kind == "redis")
        addRedis(s);
}

// Hosts, then memcached servers, then JVMs (then the other kinds), each by its source's name,
// whichever probe's first sample came first: the same spec draws its panels in one order every run.
int ProbeCharts::panel(const QString& axis, const QString& kind, const QString& source,
                       AxisUnit unit) {
    const int p = chart_->addPanel(axis, TimeChart::Scale::linear, kind, unit);
    chart_->setCaption(p, source);
    const int group = kind == QObject::tr("memcached")    ? 2
                      : kind == QObject::tr("JVM")        ? 3
                      : kind == QObject::tr("Prometheus") ? 4
                      : kind == QObject::tr("Process")    ? 5
                      : kind == QObject::tr("Redis")      ? 6
                                                          : 1;
    chart_->setPanelOrder(
        p, QStringLiteral("%1 %2 %3").arg(group).arg(source).arg(made_++, 4, 10, QLatin1Char('0')));
    return p;
}

// The cores' panel comes with the first sample that has them (a probe with per_core): one
// line per core, as many as that sample counts.
ProbeCharts::Series& ProbeCharts::hostSeries(const ProbeSample& first, bool loopback) {
    const QString source = QString::fromStdString(first.source);
    const QString key = QStringLiteral("host ") + source;
    if (auto it = series_.find(key); it != series_.end()) return *it;
    const QStringList kinds = hostKinds();
    const int cpu = panel(QObject::tr("CPU %"), kinds[0], source);
    const int load = panel(QObject::tr("load"), kinds[1], source);
    const int mem = panel(QObject::tr("memory B"), kinds[2], source, AxisUnit::bytes);
    const int net = panel(QObject::tr("net B/s"), kinds[3], source, AxisUnit::bytes);
    const int disk = panel(QObject::tr("disk B/s"), kinds[4], source, AxisUnit::bytes);
    // Stacked: each series carries the sum of itself and those below it, and the tallest is
    // drawn first so that each one below covers its own share.
    Series s{
        chart_->addArea(cpu, QObject::tr("+iowait"), QColor(255, 187, 120)),
        chart_->addArea(cpu, QObject::tr("+system"), kRed),
        chart_->addArea(cpu, QObject::tr("user"), kBlue),
        chart_->addSeries(load, QObject::tr("load1"), kPurple),
        chart_->addSeries(mem, QObject::tr("used"), kBrown),
        chart_->addSeries(net, QObject::tr("rx"), kGreen),
        chart_->addSeries(net, QObject::tr("tx"), kOrange),
        loopback ? chart_->addSeries(net, QObject::tr("lo (the run's traffic)"), kPurple) : nullptr,
        chart_->addSeries(disk, QObject::tr("read"), kGreen),
        chart_->addSeries(disk, QObject::tr("write"), kRed)};
    static const QColor kCores[] = {kBlue,   kOrange, kGreen, kRed,
                                    kPurple, kBrown,  kGray,  QColor(188, 189, 34)};
    int cores = 0;
    while (first.values.contains("cpu" + std::to_string(cores) + "_busy"))
        ++cores;
    if (cores > 0) {
        const int per_core = panel(QObject::tr("core busy %"), coresKind(), source);
        for (int i = 0; i < cores; ++i)
            s.push_back(chart_->addSeries(per_core, QStringLiteral("cpu%1").arg(i),
                                          kCores[size_t(i) % std::size(kCores)]));
    }
    return *series_.insert(key, s);
}

void ProbeCharts::addHost(const ProbeSample& s) {
    const Series& g = hostSeries(s, loopback_ && onThisMachine(QString::fromStdString(s.source)));
    const double t = double(s.t_ms) / 1000.0;
    double user = 0, sys = 0, io = 0, v = 0;
    const bool ok_user = number(s.values, "cpu_user", &user);
    const bool ok_sys = ok_user && number(s.values, "cpu_system", &sys);
    const bool ok_io = ok_sys && number(s.values, "cpu_iowait", &io);
    if (ok_io) chart_->append(g[0], t, user + sys + io);
    if (ok_sys) chart_->append(g[1], t, user + sys);
    if (ok_user) chart_->append(g[2], t, user);
    if (number(s.values, "load1", &v)) chart_->append(g[3], t, v);
    if (number(s.values, "mem_used", &v)) chart_->append(g[4], t, v);
    if (number(s.values, "net_rx_Bps", &v)) chart_->append(g[5], t, v);
    if (number(s.values, "net_tx_Bps", &v)) chart_->append(g[6], t, v);
    // Loopback bytes are sent and received alike: one line says it.
    if (g[7] && number(s.values, "net.lo.rx_Bps", &v)) chart_->append(g[7], t, v);
    // Every disk's bytes together, as the probe's text line sums them.
    double read = 0, written = 0;
    bool disks = false;
    for (const auto& [key, value] : s.values.items()) {
        if (!key.starts_with("disk.") || !value.is_number()) continue;
        disks = true;
        if (key.ends_with(".read_Bps")) read += value.get<double>();
        if (key.ends_with(".write_Bps")) written += value.get<double>();
    }
    if (disks) {
        chart_->append(g[8], t, read);
        chart_->append(g[9], t, written);
    }
    for (size_t core = 0; core + kCoreSeries < g.size(); ++core)
        if (number(s.values, "cpu" + std::to_string(core) + "_busy", &v))
            chart_->append(g[core + kCoreSeries], t, v);
}

ProbeCharts::Series& ProbeCharts::memcachedSeries(const QString& source) {
    if (auto it = series_.find(source); it != series_.end()) return *it;
    const QString kind = QObject::tr("memcached");
    const int mem = panel(QObject::tr("memory B"), kind, source, AxisUnit::bytes);
    const int evictions = panel(QObject::tr("evictions/s"), kind, source);
    const int items = panel(QObject::tr("items"), kind, source);
    const int hits = panel(QObject::tr("hit %"), kind, source);
    Series s{chart_->addSeries(mem, QObject::tr("limit"), kGray, Qt::DashLine),
             chart_->addSeries(mem, QObject::tr("used"), kBrown),
             chart_->addSeries(evictions, QObject::tr("evictions/s"), kRed),
             chart_->addSeries(items, QObject::tr("items"), kBlue),
             chart_->addSeries(hits, QObject::tr("server hit rate"), kGreen)};
    return *series_.insert(source, s);
}

void ProbeCharts::addMemcached(const ProbeSample& s) {
    const Series& g = memcachedSeries(QString::fromStdString(s.source));
    const double t = double(s.t_ms) / 1000.0;
    double v = 0, hits = 0, misses = 0;
    if (number(s.values, "limit_maxbytes", &v)) chart_->append(g[0], t, v);
    if (number(s.values, "bytes", &v)) chart_->append(g[1], t, v);
    if (number(s.values, "evictions_ps", &v)) chart_->append(g[2], t, v);
    if (number(s.values, "curr_items", &v)) chart_->append(g[3], t, v);
    // A tick without gets has no hit rate, not a rate of 0.
    if (number(s.values, "get_hits_ps", &hits) && number(s.values, "get_misses_ps", &misses) &&
        hits + misses > 0)
        chart_->append(g[4], t, 100.0 * hits / (hits + misses));
}

ProbeCharts::Series& ProbeCharts::redisSeries(const QString& source) {
    const QString key = QStringLiteral("redis ") + source;
    if (auto it = series_.find(key); it != series_.end()) return *it;
    const QString kind = QObject::tr("Redis");
    const int mem = panel(QObject::tr("memory B"), kind, source, AxisUnit::bytes);
    const int evictions = panel(QObject::tr("evictions/s"), kind, source);
    const int ops = panel(QObject::tr("ops/s"), kind, source);
    const int hits = panel(QObject::tr("hit %"), kind, source);
    const int clients = panel(QObject::tr("clients"), kind, source);
    const int latency = panel(QObject::tr("server latency µs"), kind, source);
    Series s{chart_->addSeries(mem, QObject::tr("maxmemory"), kGray, Qt::DashLine),
             chart_->addSeries(mem, QObject::tr("used"), kBrown),
             chart_->addSeries(evictions, QObject::tr("evictions/s"), kRed),
             chart_->addSeries(evictions, QObject::tr("expired/s"), kOrange),
             chart_->addSeries(ops, QObject::tr("ops/s"), kBlue),
             chart_->addSeries(hits, QObject::tr("server hit rate"), kGreen),
             chart_->addSeries(clients, QObject::tr("connected"), kBlue),
             chart_->addSeries(clients, QObject::tr("blocked"), kRed),
             chart_->addSeries(latency, QObject::tr("GET p50"), kGreen),
             chart_->addSeries(latency, QObject::tr("GET p99"), kOrange),
             chart_->addSeries(latency, QObject::tr("GET p99.9"), kRed),
             chart_->addSeries(latency, QObject::tr("SET p50"), kGreen, Qt::DashLine),
             chart_->addSeries(latency, QObject::tr("SET p99"), kOrange, Qt::DashLine),
             chart_->addSeries(latency, QObject::tr("SET p99.9"), kRed, Qt::DashLine)};
    return *series_.insert(key, s);
}

void ProbeCharts::addRedis(const ProbeSample& s) {
    const Series& g = redisSeries(QString::fromStdString(s.source));
    const double t = double(s.t_ms) / 1000.0;
    double v = 0, hits = 0, misses = 0;
    // maxmemory 0 is no limit: no line.
    if (number(s.values, "maxmemory", &v) && v > 0) chart_->append(g[0], t, v);
    if (number(s.values, "used_memory", &v)) chart_->append(g[1], t, v);
    if (number(s.values, "evictions_ps", &v)) chart_->append(g[2], t, v);
    if (number(s.values, "expired_keys_ps", &v)) chart_->append(g[3], t, v);
    if (number(s.values, "ops_ps", &v)) chart_->append(g[4], t, v);
    // A tick without lookups has no hit rate, not a rate of 0.
    if (number(s.values, "keyspace_hits_ps", &hits) &&
        number(s.values, "keyspace_misses_ps", &misses) && hits + misses > 0)
        chart_->append(g[5], t, 100.0 * hits / (hits + misses));
    if (number(s.values, "connected_clients", &v)) chart_->append(g[6], t, v);
    if (number(s.values, "blocked_clients", &v)) chart_->append(g[7], t, v);
    for (size_t i = 0; i < std::size(kRedisLatencies); ++i)
        if (number(s.values, kRedisLatencies[i], &v)) chart_->append(g[8 + i], t, v);
}

ProbeCharts::Series& ProbeCharts::jvmSeries(const QString& source) {
    if (auto it = series_.find(source); it != series_.end()) return *it;
    const QString kind = QObject::tr("JVM");
    const int heap = panel(QObject::tr("heap %"), kind, source);
    const int gc = panel(QObject::tr("GC ms"), kind, source);
    Series s{chart_->addSeries(heap, QObject::tr("old gen"), kBrown),
             chart_->addSeries(heap, QObject::tr("eden"), kGreen),
             chart_->addSeries(gc, QObject::tr("young GC"), kBlue),
             chart_->addSeries(gc, QObject::tr("full GC"), kRed)};
    return *series_.insert(source, s);
}

void ProbeCharts::addJvm(const ProbeSample& s) {
    const Series& g = jvmSeries(QString::fromStdString(s.source));
    const double t = double(s.t_ms) / 1000.0;
    double v = 0;
    // A space the collector lacks ("-" in jstat) is absent, and stays undrawn.
    if (number(s.values, "old_pct", &v)) chart_->append(g[0], t, v);
    if (number(s.values, "eden_pct", &v)) chart_->append(g[1], t, v);
    if (number(s.values, "young_gc_ms", &v)) chart_->append(g[2], t, v);
    if (number(s.values, "full_gc_ms", &v)) chart_->append(g[3], t, v);
}

ProbeCharts::Series& ProbeCharts::processSeries(const QString& source) {
    const QString key = QStringLiteral("process ") + source;
    if (auto it = series_.find(key); it != series_.end()) return *it;
    const QString kind = QObject::tr("Process");
    const int cpu = panel(QObject::tr("CPU % of a core"), kind, source);
    const int rss = panel(QObject::tr("RSS B"), kind, source, AxisUnit::bytes);
    // Stacked as the host's CPU: system drawn first, over the sum, user covering its share.
    Series s{chart_->addArea(cpu, QObject::tr("+system"), kRed),
             chart_->addArea(cpu, QObject::tr("user"), kBlue),
             chart_->addSeries(rss, QObject::tr("RSS"), kBrown)};
    return *series_.insert(key, s);
}

void ProbeCharts::addProcess(const ProbeSample& s) {
    const Series& g = processSeries(QString::fromStdString(s.source));
    const double t = double(s.t_ms) / 1000.0;
    double user = 0, sys = 0, v = 0;
    if (number(s.values, "cpu_user_pct", &user) && number(s.values, "cpu_system_pct", &sys)) {
        chart_->append(g[0], t, user + sys);
        chart_->append(g[1], t, user);
    }
    if (number(s.values, "rss", &v)) chart_->append(g[2], t, v);
}

// Panels and series come as their keys first appear: an exporter's label sets are only known
// from its pages.
void ProbeCharts::addPrometheus(const ProbeSample& s) {
    static const QColor kColors[] = {kBlue, kOrange, kGreen, kRed, kPurple, kBrown, kGray};
    const QString source = QString::fromStdString(s.source);
    const double t = double(s.t_ms) / 1000.0;
    for (const auto& [key, value] : s.values.items()) {
        if (!key.starts_with("prom.") || !value.is_number()) continue;
        const QString full = QString::fromStdString(key);
        auto graph = promGraphs_.find(source + full);
        if (graph == promGraphs_.end()) {
            const qsizetype brace = full.indexOf(QLatin1Char('{'));
            const QString metric = full.mid(5, brace < 0 ? -1 : brace - 5);
            const QString labels = brace < 0 ? metric : full.mid(brace);
            auto p = promPanels_.find(source + metric);
            if (p == promPanels_.end()) {
                p = promPanels_.insert(source + metric,
                                       panel(metric, QObject::tr("Prometheus"), source));
                promSourcePanels_.insert(source, *p);
            }
            const int n = int(
                std::count_if(promGraphs_.keyBegin(), promGraphs_.keyEnd(), [&](const QString& k) {
                    return k.startsWith(source + QStringLiteral("prom.") + metric);
                }));
            graph = promGraphs_.insert(
                source + full,
                chart_->addSeries(*p, labels, kColors[size_t(n) % std::size(kColors)]));
        }
        chart_->append(*graph, t, value.get<double>());
    }
    // Series over the probe's cap: said on each of its panels, not only in the events.
    const auto hidden = s.values.find("hidden_series");
    if (hidden == s.values.end() || !hidden->is_number_integer()) return;
    const QString caption =
        QObject::tr("%1 · %2 more series not shown").arg(source).arg(hidden->get<int64_t>());
    for (const int p : promSourcePanels_.values(source))
        chart_->setCaption(p, caption);
}

}  // namespace perflab
