// SPDX-License-Identifier: MIT
#include "compare_stats.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>

namespace perflab {

namespace {

// One tick reduced to what the figures need; its histogram as (bucket, count) pairs over a
// bucket dictionary shared by both sides, so a resample merges by adding counts.
struct Tick {
    double seconds = 0;
    double ops = 0, errors = 0, hits = 0, gets = 0, latency_sum = 0;
    std::vector<std::pair<uint32_t, uint64_t>> buckets;
};

struct Totals {
    double seconds = 0, ops = 0, errors = 0, hits = 0, gets = 0, latency_sum = 0;
    std::vector<uint64_t> counts;  // per bucket of the dictionary

    void clear() {
        seconds = ops = errors = hits = gets = latency_sum = 0;
        std::fill(counts.begin(), counts.end(), 0);
    }

    void add(const Tick& t) {
        seconds += t.seconds;
        ops += t.ops;
        errors += t.errors;
        hits += t.hits;
        gets += t.gets;
        latency_sum += t.latency_sum;
        for (const auto& [i, n] : t.buckets)
            counts[i] += n;
    }
};

// A run's ticks and the length of the blocks it is resampled in.
struct Run {
    std::vector<Tick> ticks;
    size_t block = 1;
    size_t size() const { return ticks.size(); }
};

// Blocks only where the ticks are correlated: with a lag-1 autocorrelation of the ticks'
// rates inside the white-noise band (±2/√n) independent ticks are drawn, else blocks of
// ⌈n^⅓⌉. Blocks where none are needed make the interval too narrow at 60 ticks.
size_t block_length(const std::vector<Tick>& ticks) {
    const size_t n = ticks.size();
    if (n < 4) return 1;
    std::vector<double> x;
    for (const auto& t : ticks)
        x.push_back(t.seconds > 0 ? t.ops / t.seconds : 0);
    double mean = 0;
    for (const double v : x)
        mean += v / double(n);
    double num = 0, den = 0;
    for (size_t i = 0; i < n; ++i) {
        den += (x[i] - mean) * (x[i] - mean);
        if (i + 1 < n) num += (x[i] - mean) * (x[i + 1] - mean);
    }
    const double r1 = den > 0 ? num / den : 0;
    if (std::abs(r1) < 2 / std::sqrt(double(n))) return 1;
    return size_t(std::ceil(std::cbrt(double(n))));
}

class Side {
  public:
    std::vector<Run> runs;
    size_t ticks() const {
        size_t n = 0;
        for (const auto& r : runs)
            n += r.size();
        return n;
    }
};

// Bucket values (each bucket's highest equivalent value, µs) of every tick of both sides.
std::vector<int64_t> dictionary(const std::vector<std::vector<IntervalSample>>& a,
                                const std::vector<std::vector<IntervalSample>>& b) {
    std::vector<int64_t> values;
    for (const auto* side : {&a, &b})
        for (const auto& run : *side)
            for (const auto& s : run)
                for (const auto& [name, op] : s.ops)
                    op.latency.for_each_bucket(
                        [&](int64_t, int64_t highest, uint64_t) { values.push_back(highest); });
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

// A long run's ticks are resampled in consecutive groups (batch means), at most this many a
// run: an hour of 100 ms ticks is 36,000 ticks, and resampling them one by one a thousand
// times would take minutes for no better an interval.
constexpr size_t kMaxUnits = 240;

// Consecutive ticks merged into ⌈n / kMaxUnits⌉-tick units.
std::vector<Tick> batched(std::vector<Tick> ticks) {
    if (ticks.size() <= kMaxUnits) return ticks;
    const size_t per = (ticks.size() + kMaxUnits - 1) / kMaxUnits;
    std::vector<Tick> out;
    for (size_t from = 0; from < ticks.size(); from += per) {
        Tick unit;
        std::map<uint32_t, uint64_t> merged;
        for (size_t i = from; i < std::min(ticks.size(), from + per); ++i) {
            const Tick& t = ticks[i];
            unit.seconds += t.seconds;
            unit.ops += t.ops;
            unit.errors += t.errors;
            unit.hits += t.hits;
            unit.gets += t.gets;
            unit.latency_sum += t.latency_sum;
            for (const auto& [bucket, n] : t.buckets)
                merged[bucket] += n;
        }
        unit.buckets.assign(merged.begin(), merged.end());
        out.push_back(std::move(unit));
    }
    return out;
}

Side reduce(const std::vector<std::vector<IntervalSample>>& runs,
            const std::vector<int64_t>& dict) {
    Side side;
    for (const auto& run : runs) {
        std::vector<Tick> ticks;
        for (const auto& s : run) {
            if (s.interval_ms <= 0) continue;
            Tick t;
            t.seconds = s.seconds();
            t.ops = double(s.total_ops());
            t.errors = double(s.total_errors());
            t.hits = double(s.hits);
            t.gets = double(s.hits + s.misses);
            std::map<uint32_t, uint64_t> merged;
            for (const auto& [name, op] : s.ops) {
                t.latency_sum += double(op.latency.sum());
                op.latency.for_each_bucket([&](int64_t, int64_t highest, uint64_t count) {
                    const auto at = std::lower_bound(dict.begin(), dict.end(), highest);
                    merged[uint32_t(at - dict.begin())] += count;
                });
            }
            t.buckets.assign(merged.begin(), merged.end());
            ticks.push_back(std::move(t));
        }
        ticks = batched(std::move(ticks));
        const size_t block = block_length(ticks);
        side.runs.push_back({std::move(ticks), block});
    }
    return side;
}

// The figures in the order figures_of gives them.
constexpr const char* kNames[] = {"throughput", "error_rate", "success", "hit_rate", "mean_us",
                                  "p50_us",     "p90_us",     "p99_us",  "p999_us"};
constexpr size_t kFigures = std::size(kNames);
using Values = std::array<double, kFigures>;

size_t index_of(const std::string& name) {
    return size_t(std::find(std::begin(kNames), std::end(kNames), name) - std::begin(kNames));
}

// Values at ascending percentiles `ps` of the ticks' merged counts, in one pass; NaN without
// any count.
void percentiles_of(const Totals& t, const std::vector<int64_t>& dict, const double* ps, size_t n,
                    double* out) {
    uint64_t count = 0;
    for (const uint64_t c : t.counts)
        count += c;
    std::vector<uint64_t> ranks(n);
    for (size_t k = 0; k < n; ++k)
        ranks[k] = Histogram::rank_for(ps[k], count);
    size_t next = 0;
    uint64_t seen = 0;
    for (size_t i = 0; i < t.counts.size() && next < n && count > 0; ++i) {
        seen += t.counts[i];
        while (next < n && seen >= ranks[next])
            out[next++] = double(dict[i]);
    }
    for (; next < n; ++next)
        out[next] = NAN;
}

// Every figure of some ticks.
Values figures_of(const Totals& t, const std::vector<int64_t>& dict) {
    Values f;
    f[0] = t.seconds > 0 ? (t.ops - t.errors) / t.seconds : NAN;
    f[1] = t.ops > 0 ? t.errors / t.ops : NAN;
    f[2] = t.ops > 0 ? (t.ops - t.errors) / t.ops : NAN;
    f[3] = t.gets > 0 ? t.hits / t.gets : NAN;
    f[4] = t.ops > 0 ? t.latency_sum / t.ops : NAN;
    constexpr double kPercentiles[] = {50, 90, 99, 99.9};
    percentiles_of(t, dict, kPercentiles, std::size(kPercentiles), &f[5]);
    return f;
}

Totals all_of(const Side& side, size_t buckets) {
    Totals t;
    t.counts.assign(buckets, 0);
    for (const auto& run : side.runs)
        for (const auto& tick : run.ticks)
            t.add(tick);
    return t;
}

// Each run's ticks again, as many, in blocks of consecutive ticks from random starts (wrapping
// round, so every tick is as likely to be drawn).
void resample(const Side& side, std::mt19937_64& rng, Totals& t) {
    t.clear();
    for (const auto& run : side.runs) {
        const size_t n = run.size();
        if (n == 0) continue;
        std::uniform_int_distribution<size_t> start(0, n - 1);
        for (size_t taken = 0; taken < n;) {
            const size_t from = start(rng);
            for (size_t k = 0; k < run.block && taken < n; ++k, ++taken)
                t.add(run.ticks[(from + k) % n]);
        }
    }
}

double delta_of(const StatFigure& f, double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return NAN;
    if (f.fraction) return (b - a) * 100;
    return a != 0 ? (b - a) / a * 100 : (b == 0 ? 0 : NAN);
}

double quantile(std::vector<double>& v, double q) {
    const auto at =
        v.begin() + std::ptrdiff_t(std::clamp(q * double(v.size() - 1), 0.0, double(v.size() - 1)));
    std::nth_element(v.begin(), at, v.end());
    return *at;
}

}  // namespace

const char* to_string(Verdict v) {
    switch (v) {
        case Verdict::better:
            return "better";
        case Verdict::worse:
            return "worse";
        case Verdict::same:
            return "same";
        case Verdict::too_few_ticks:
            return "too few ticks";
    }
    return "";
}

std::vector<StatFigure> stat_figures(RunKind kind) {
    std::vector<StatFigure> f = {{"throughput", true, false}, {"mean_us", false, false},
                                 {"p50_us", false, false},    {"p90_us", false, false},
                                 {"p99_us", false, false},    {"p999_us", false, false},
                                 {"error_rate", false, true}};
    if (kind == RunKind::cache)
        f.push_back({"hit_rate", true, true});
    else
        f.push_back({"success", true, true});
    return f;
}

std::vector<DeltaEstimate> compare_ticks(RunKind kind,
                                         const std::vector<std::vector<IntervalSample>>& a_runs,
                                         const std::vector<std::vector<IntervalSample>>& b_runs,
                                         const StatOptions& o) {
    const std::vector<int64_t> dict = dictionary(a_runs, b_runs);
    const Side a = reduce(a_runs, dict);
    const Side b = reduce(b_runs, dict);
    const auto figures = stat_figures(kind);
    std::vector<DeltaEstimate> out;
    const Totals ta = all_of(a, dict.size()), tb = all_of(b, dict.size());
    const auto fa = figures_of(ta, dict), fb = figures_of(tb, dict);
    for (const auto& f : figures) {
        DeltaEstimate e;
        e.figure = f;
        e.a = fa[index_of(f.name)];
        e.b = fb[index_of(f.name)];
        e.delta = delta_of(f, e.a, e.b);
        out.push_back(e);
    }
    const bool enough = a.ticks() >= o.min_ticks && b.ticks() >= o.min_ticks;
    std::vector<std::vector<double>> deltas(figures.size());
    std::mt19937_64 rng(o.seed);
    Totals ra = ta, rb = tb;
    for (int r = 0; enough && r < o.resamples; ++r) {
        resample(a, rng, ra);
        resample(b, rng, rb);
        const auto va = figures_of(ra, dict), vb = figures_of(rb, dict);
        for (size_t i = 0; i < figures.size(); ++i) {
            const size_t at = index_of(figures[i].name);
            const double d = delta_of(figures[i], va[at], vb[at]);
            if (!std::isnan(d)) deltas[i].push_back(d);
        }
    }
    for (size_t i = 0; i < out.size(); ++i) {
        DeltaEstimate& e = out[i];
        if (!enough || deltas[i].size() < size_t(o.resamples) / 2 || std::isnan(e.delta)) {
            e.lo = e.hi = NAN;
            e.verdict = enough ? Verdict::same : Verdict::too_few_ticks;
            continue;
        }
        e.lo = quantile(deltas[i], 0.025);
        e.hi = quantile(deltas[i], 0.975);
        const double practical = e.figure.fraction ? o.threshold_pct / 5 : o.threshold_pct;
        const bool noise = e.lo <= 0 && e.hi >= 0;
        if (noise || std::abs(e.delta) < practical) {
            e.verdict = Verdict::same;
        } else {
            const bool up = e.delta > 0;
            e.verdict = up == e.figure.higher_is_better ? Verdict::better : Verdict::worse;
        }
    }
    return out;
}

PercentileBand percentile_band(const std::vector<IntervalSample>& ticks,
                               const std::vector<double>& percentiles, const StatOptions& o) {
    const std::vector<std::vector<IntervalSample>> runs = {ticks};
    const std::vector<int64_t> dict = dictionary(runs, {});
    const Side side = reduce(runs, dict);
    PercentileBand band;
    band.percentiles = percentiles;
    const size_t n = percentiles.size();
    std::vector<std::vector<double>> drawn(n);
    std::vector<double> values(n);
    Totals t = all_of(side, dict.size());
    std::mt19937_64 rng(o.seed);
    for (int r = 0; side.ticks() >= o.min_ticks && r < o.resamples; ++r) {
        resample(side, rng, t);
        percentiles_of(t, dict, percentiles.data(), n, values.data());
        for (size_t k = 0; k < n; ++k)
            if (!std::isnan(values[k])) drawn[k].push_back(values[k]);
    }
    for (size_t k = 0; k < n; ++k) {
        const bool some = !drawn[k].empty();
        band.lo_us.push_back(some ? quantile(drawn[k], 0.025) : NAN);
        band.hi_us.push_back(some ? quantile(drawn[k], 0.975) : NAN);
    }
    return band;
}

}  // namespace perflab
