// SPDX-License-Identifier: MIT
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <vector>

#include "compact_ticks.h"
#include "metatypes.h"

class QCPGraph;

namespace perflab {

class TimeChart;

// The probes' panels on a run's TimeChart, added as each source's first sample arrives:
//   host       CPU (stacked user/system/iowait), load, memory, network — the loopback
//              interface too when the run's targets are on loopback, as its traffic is there —,
//              disk bytes read and written, and each core's busy % for a per_core probe
//   memcached  memory used against its limit, evictions/s, items, the hit rate the server saw
//   redis      memory used against maxmemory, evictions and expiries/s, ops/s, the hit rate
//              the server saw, clients, and Redis 7's own GET and SET latency percentiles
//   jvm        old gen and eden occupancy, GC time per sample (full GCs are the run's markers)
//   prometheus a panel per metric (the key's part before '{': "node_load1",
//              "nginx_http_requests_total:rate"), a series per label set
//   process    its CPU (stacked user/system, % of one core) and its RSS
class ProbeCharts {
  public:
    explicit ProbeCharts(TimeChart* chart) : chart_(chart) {}

    // Forgets the panels (the chart was cleared), notes where the run's targets are and
    // reserves the room of each probe's panels.
    void begin(const RunSpec& spec);
    void add(const ProbeSample& sample);

    // True when a target is on this machine's loopback: its traffic shows on `lo` only.
    static bool loopbackTargets(const RunSpec& spec);

  private:
    // One panel's series, in the order of a kind's value names.
    using Series = std::vector<QCPGraph*>;
    static constexpr size_t kCoreSeries = 10;  // a host's cores come after its other series
    Series& hostSeries(const ProbeSample& first, bool loopback);
    Series& memcachedSeries(const QString& source);
    Series& jvmSeries(const QString& source);
    Series& processSeries(const QString& source);
    Series& redisSeries(const QString& source);
    void addHost(const ProbeSample& s);
    void addMemcached(const ProbeSample& s);
    void addJvm(const ProbeSample& s);
    void addPrometheus(const ProbeSample& s);
    void addProcess(const ProbeSample& s);
    void addRedis(const ProbeSample& s);
    int panel(const QString& axis, const QString& kind, const QString& source,
              AxisUnit unit = AxisUnit::count);
    static QStringList hostKinds();
    static QString coresKind();

    TimeChart* chart_;
    bool loopback_ = false;
    QHash<QString, Series> series_;              // by kind and source
    int made_ = 0;                               // panels made since begin, for their order
    QHash<QString, int> promPanels_;             // by source and metric
    QMultiHash<QString, int> promSourcePanels_;  // the same, by source
    QHash<QString, QCPGraph*> promGraphs_;       // by source and value key
};

}  // namespace perflab
