// SPDX-License-Identifier: MIT
#include "compare_stats.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <random>

namespace perflab {

namespace {

// One tick reduced to what the figures need; its histogram as (bucket, count) pairs over a
// bucket dictionary shared by both sides, so a resample merges by adding counts.
// Time is kept in whole ms, so that a run's ticks add up to exactly its summary's span (and a
// cache run's throughput is the one `run` printed).
// `ops` are the ops due (dropped ones too, which count as errors, as figures() counts them);
// `timed` those with a latency (an op without a response has none).
struct Tick {
    double ms = 0;
    double ops = 0, errors = 0, hits = 0, gets = 0, latency_sum = 0, timed = 0;
    // The latencies' exact extremes, to which percentiles are clamped as Histogram clamps them.
    int64_t min_us = std::numeric_limits<int64_t>::max(), max_us = 0;
    std::vector<std::pair<uint32_t, uint64_t>> buckets;
};

struct Totals {
    double ms = 0, ops = 0, errors = 0, hits = 0, gets = 0, latency_sum = 0, timed = 0;
    int64_t min_us = std::numeric_limits<int64_t>::max(), max_us = 0;
    std::vector<uint64_t> counts;  // per bucket of the dictionary

    void clear() {
        ms = ops = errors = hits = gets = latency_sum = timed = 0;
        min_us = std::numeric_limits<int64_t>::max();
        max_us = 0;
        std::fill(counts.begin(), counts.end(), 0);
    }

    void add(const Tick& t, uint32_t times = 1) {
        ms += t.ms * times;
        ops += t.ops * times;
        errors += t.errors * times;
        hits += t.hits * times;
        gets += t.gets * times;
        latency_sum += t.latency_sum * times;
        timed += t.timed * times;
        min_us = std::min(min_us, t.min_us);
        max_us = std::max(max_us, t.max_us);
        for (const auto& [i, n] : t.buckets)
            counts[i] += n * times;
    }
};

// A run's ticks, the length of the blocks it is resampled in, and how much wider than its
// resamples' spread an interval of it must be (widening_for).
struct Run {
    std::vector<Tick> ticks;
    size_t block = 1;
    double widening = 1;
    size_t size() const { return ticks.size(); }
};

constexpr double kZ = 1.959964;  // the normal's 97.5% quantile

// What one series of a run's ticks (a figure's value tick by tick) says about their
// dependence: the block length it asks for and the autocorrelations it is taken to have.
struct Dependence {
    double block = 1;
    std::vector<double> rho;  // rho[k] at lag k, rho[0] = 1; lags past its end count as 0
};

// Politis & White (2004), with Patton, Politis & White's (2009) correction, for circular
// blocks: the autocorrelations up to the first run of K_N insignificant ones, weighted by the
// flat-top kernel over twice that many lags, give the block's optimal length. Only where they
// make the variance of the ticks' mean larger than independent ticks' would: ticks drawn one
// by one overstate a variance that alternating ticks make smaller.
Dependence politis_white(const std::vector<double>& acv, size_t n) {
    Dependence d;
    d.rho = {1};
    const double logn = std::log10(double(n));
    const size_t kn = std::max<size_t>(5, size_t(std::ceil(std::sqrt(logn))));
    const size_t most = std::min(n - 1, size_t(std::ceil(std::sqrt(double(n)))) + kn);
    const double significant = 2 * std::sqrt(logn / double(n));
    size_t m = most;
    for (size_t first = 0; first + kn <= most; ++first) {
        size_t quiet = 0;
        while (quiet < kn && std::abs(acv[first + quiet + 1] / acv[0]) < significant)
            ++quiet;
        if (quiet == kn) {
            m = first;
            break;
        }
    }
    const size_t lags = std::min(2 * m, most);
    double g = acv[0], gk = 0;
    for (size_t k = 1; k <= lags; ++k) {
        const double x = double(k) / double(lags);
        const double weight = x <= 0.5 ? 1 : 2 * (1 - x);
        g += 2 * weight * acv[k];
        gk += 2 * weight * double(k) * acv[k];
        d.rho.push_back(weight * acv[k] / acv[0]);
    }
    if (g > acv[0]) d.block = std::cbrt(1.5 * gk * gk / (g * g) * double(n));
    return d;
}

// The same optimum for an AR(1) process whose coefficient is the lag-1 autocorrelation, less
// Kendall's small-sample bias ((1 + 4φ) / n). At 60 ticks the estimated autocorrelations are
// so shrunk towards 0 that Politis-White alone gives about 6 ticks for φ = 0.8, where the
// optimum is 12; a lag-1 correlation under the white-noise band's top 2/√n asks for no blocks.
Dependence ar1(const std::vector<double>& acv, size_t n) {
    Dependence d;
    d.rho = {1};
    const double r1 = acv[1] / acv[0];
    if (r1 < 2 / std::sqrt(double(n))) return d;
    const double phi = std::clamp(r1 + (1 + 4 * r1) / double(n), -0.95, 0.95);
    for (size_t k = 1; k < n; ++k)
        d.rho.push_back(d.rho.back() * phi);
    const double ratio = 2 * phi / (1 - phi * phi);  // Σ|k|ρ_k / Σρ_k
    d.block = std::cbrt(1.5 * ratio * ratio * double(n));
    return d;
}

// Both rules on one series (NaN where a tick has no value: counted as its mean).
std::vector<Dependence> dependence_of(std::vector<double> x) {
    const size_t n = x.size();
    if (n < 8) return {};
    double mean = 0;
    size_t defined = 0;
    for (const double v : x)
        if (!std::isnan(v)) mean += v, ++defined;
    if (defined == 0) return {};
    mean /= double(defined);
    for (double& v : x)
        v = std::isnan(v) ? 0 : v - mean;
    std::vector<double> acv(n, 0);
    for (size_t k = 0; k < n; ++k)
        for (size_t i = k; i < n; ++i)
            acv[k] += x[i] * x[i - k] / double(n);
    // A constant series (an open model's rate) differs from its mean by rounding only, and
    // rounding errors repeat from tick to tick: their autocorrelation would be near 1.
    const double floor = 1e-6 * std::abs(mean);
    if (acv[0] <= floor * floor) return {};
    return {politis_white(acv, n), ar1(acv, n)};
}

// The 97.5% point of the circular block bootstrap's (delta - truth) / spread for blocks of b
// of a run's n ticks, over the normal's, for a series with autocorrelations d.rho:
// - Kiefer & Vogelsang's (2005) fixed-b critical value of the Bartlett kernel, whose
//   variance estimate the blocks' spread is: it pays for a variance estimated from few blocks
//   and about the run's own mean (for white ticks and blocks of 10, 20 and 30 of 60 it gave
//   1.26, 1.52 and 1.78 where a simulation of this bootstrap needed 1.2-1.25, 1.46-1.55 and
//   1.84-1.91);
// - the part of the long-run variance Σρ_k that blocks of b hold, Σ(1 - |k|/b)ρ_k, and the
//   part the run's mean absorbs, 1 - Σρ_k / n: with φ = 0.8 at 60 ticks, blocks of 12 hold
//   two thirds of it and the mean takes 15%.
double widening_for(const Dependence& d, size_t b, size_t n) {
    const double r = double(b) / double(n);
    const double fixed_b = (kZ + 2.9694 * r + 0.4160 * r * r - 0.5324 * r * r * r) / kZ;
    double all = 1, held = 1;
    for (size_t k = 1; k < d.rho.size(); ++k) {
        all += 2 * d.rho[k];
        if (k < b) held += 2 * (1 - double(k) / double(b)) * d.rho[k];
    }
    if (all <= 0) return fixed_b;
    const double in_blocks = std::clamp(held / all, 0.1, 1.0);
    const double about_mean = std::clamp(1 - all / double(n), 0.5, 1.0);
    return fixed_b / std::sqrt(in_blocks * about_mean);
}

// The tick's median, from its buckets (ascending).
double median_of(const Tick& t, const std::vector<int64_t>& dict) {
    uint64_t count = 0;
    for (const auto& [i, n] : t.buckets)
        count += n;
    const uint64_t rank = Histogram::rank_for(50, count);
    uint64_t seen = 0;
    for (const auto& [i, n] : t.buckets)
        if ((seen += n) >= rank) return double(dict[i]);
    return NAN;
}

// Blocks from every series a judged figure is made of, not from the rate alone: in the open
// model the rate is the schedule's and looks white while latency lasts over several ticks (a
// GC, a cache filling, a compaction). The longest block any series asks for, within
// Politis-White's bound min(3√n, n/3); the widening its dependence then needs.
void choose_blocks(Run& run, const std::vector<int64_t>& dict) {
    const size_t n = run.size();
    std::array<std::vector<double>, 5> series;
    for (const Tick& t : run.ticks) {
        series[0].push_back(t.ms > 0 ? (t.ops - t.errors) / (t.ms / 1000) : NAN);
        series[1].push_back(t.timed > 0 ? t.latency_sum / t.timed : NAN);
        series[2].push_back(median_of(t, dict));
        series[3].push_back(t.ops > 0 ? t.errors / t.ops : NAN);
        series[4].push_back(t.gets > 0 ? t.hits / t.gets : NAN);
    }
    std::vector<Dependence> all;
    double block = 1;
    for (auto& s : series)
        for (auto& d : dependence_of(std::move(s))) {
            block = std::max(block, d.block);
            all.push_back(std::move(d));
        }
    const double longest = std::ceil(std::min(3 * std::sqrt(double(n)), double(n) / 3));
    run.block = size_t(std::clamp(std::ceil(block), 1.0, std::max(1.0, longest)));
    run.widening = n > 0 ? widening_for({}, run.block, n) : 1;
    for (const auto& d : all)
        run.widening = std::max(run.widening, widening_for(d, run.block, n));
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
    // Each histogram's values come in order, and ticks share most of theirs: merging them into
    // the values so far costs a fraction of sorting every tick's values together.
    std::vector<int64_t> values, tick, merged;
    for (const auto* side : {&a, &b})
        for (const auto& run : *side)
            for (const auto& s : run)
                for (const auto& [name, op] : s.ops) {
                    tick.clear();
                    op.latency.for_each_bucket(
                        [&](int64_t, int64_t highest, uint64_t) { tick.push_back(highest); });
                    merged.clear();
                    std::set_union(values.begin(), values.end(), tick.begin(), tick.end(),
                                   std::back_inserter(merged));
                    values.swap(merged);
                }
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
            unit.ms += t.ms;
            unit.ops += t.ops;
            unit.errors += t.errors;
            unit.hits += t.hits;
            unit.gets += t.gets;
            unit.latency_sum += t.latency_sum;
            unit.min_us = std::min(unit.min_us, t.min_us);
            unit.max_us = std::max(unit.max_us, t.max_us);
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
            t.ms = double(s.interval_ms);
            t.ops = double(s.total_ops() + s.dropped);
            t.errors = double(s.total_errors() + s.dropped);
            t.hits = double(s.hits);
            t.gets = double(s.hits + s.misses);
            for (const auto& [name, op] : s.ops) {
                t.latency_sum += double(op.latency.sum());
                t.timed += double(op.latency.count());
                if (!op.latency.empty()) {
                    t.min_us = std::min(t.min_us, op.latency.min());
                    t.max_us = std::max(t.max_us, op.latency.max());
                }
                auto from = dict.begin();  // the buckets come in order
                op.latency.for_each_bucket([&](int64_t, int64_t highest, uint64_t count) {
                    from = std::lower_bound(from, dict.end(), highest);
                    t.buckets.emplace_back(uint32_t(from - dict.begin()), count);
                });
            }
            // Several ops' buckets: in order, each bucket once.
            if (s.ops.size() > 1) {
                std::sort(t.buckets.begin(), t.buckets.end());
                size_t kept = 0;
                for (size_t i = 0; i < t.buckets.size(); ++i)
                    if (kept > 0 && t.buckets[kept - 1].first == t.buckets[i].first)
                        t.buckets[kept - 1].second += t.buckets[i].second;
                    else
                        t.buckets[kept++] = t.buckets[i];
                t.buckets.resize(kept);
            }
            ticks.push_back(std::move(t));
        }
        Run r;
        r.ticks = batched(std::move(ticks));
        choose_blocks(r, dict);
        side.runs.push_back(std::move(r));
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

// Values at ascending percentiles `ps` of the ticks' merged counts, in one pass, as
// Histogram::percentile gives them for the same ticks; NaN without any count.
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
            out[next++] = double(std::clamp(dict[i], t.min_us, std::max(t.min_us, t.max_us)));
    }
    for (; next < n; ++next)
        out[next] = NAN;
}

// Every figure of some ticks.
Values figures_of(const Totals& t, const std::vector<int64_t>& dict) {
    Values f;
    f[0] = t.ms > 0 ? (t.ops - t.errors) / (t.ms / 1000) : NAN;
    f[1] = t.ops > 0 ? t.errors / t.ops : NAN;
    f[2] = t.ops > 0 ? (t.ops - t.errors) / t.ops : NAN;
    f[3] = t.gets > 0 ? t.hits / t.gets : NAN;
    f[4] = t.timed > 0 ? t.latency_sum / t.timed : NAN;
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

// How many times each tick of each run of a side a resample draws.
using Draws = std::vector<std::vector<uint32_t>>;

Draws no_draws(const Side& side) {
    Draws d;
    for (const auto& run : side.runs)
        d.emplace_back(run.size(), 0);
    return d;
}

// A side's ticks again. One run: its ticks, as many, in blocks of consecutive ticks from
// random starts (wrapping round, so that every tick is as likely to be drawn). Several runs:
// as many runs drawn with replacement, each of them so resampled, for a run is one draw of the
// server's state (its warm-up, its heap, the machine's other load) and only drawing whole runs
// brings their differences into the interval.
void resample(const Side& side, std::mt19937_64& rng, Draws& draws, Totals& t) {
    for (auto& d : draws)
        std::fill(d.begin(), d.end(), 0);
    const size_t k = side.runs.size();
    std::uniform_int_distribution<size_t> pick(0, k - 1);
    for (size_t i = 0; i < k; ++i) {
        const size_t r = k > 1 ? pick(rng) : i;
        const Run& run = side.runs[r];
        const size_t n = run.size();
        if (n == 0) continue;
        std::uniform_int_distribution<size_t> start(0, n - 1);
        for (size_t taken = 0; taken < n;) {
            const size_t from = start(rng);
            for (size_t j = 0; j < run.block && taken < n; ++j, ++taken)
                ++draws[r][(from + j) % n];
        }
    }
    t.clear();
    for (size_t r = 0; r < k; ++r)
        for (size_t j = 0; j < draws[r].size(); ++j)
            if (draws[r][j]) t.add(side.runs[r].ticks[j], draws[r][j]);
}

// Student's t 97.5% point for df degrees of freedom (Abramowitz & Stegun 26.7.5 from 2 on,
// within 0.8% of the table's values).
double t975(double df) {
    if (df < 2) return 12.706 + (4.303 - 12.706) * (std::max(df, 1.0) - 1);
    const double z = kZ, z2 = z * z;
    const double g1 = (z2 + 1) * z / 4;
    const double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
    const double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
    const double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;
    return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
}

// A figure's resampled values on one side: their variance.
struct Spread {
    double n = 0, sum = 0, squares = 0;
    void add(double v) {
        n += 1;
        sum += v;
        squares += v * v;
    }
    double variance() const {
        return n > 1 ? std::max(0.0, (squares - sum * sum / n) / (n - 1)) : 0;
    }
};

// How much wider than the resampled deltas' own 2.5-97.5% range the interval is made, from
// each side's share of the delta's variance (the delta method: a relative delta moves by
// b/a² per unit of a and by 1/a per unit of b).
// - A side of one run: its run's widening (widening_for), for blocks of a short run.
// - A side of k runs: its variance comes from k runs, so the normal's 1.96 becomes Student's
//   t at Welch-Satterthwaite's degrees of freedom (k - 1 per side: 2.78 for 3 runs a side).
//   Drawing k of k runs understates their variance by (k - 1) / k, but the blocks drawn within
//   each run add the within-run variance a second time, which about makes up for it. Measured
//   on 3 runs a side with 5% run-to-run shifts and independent ticks (200 trials, 5% nominal,
//   threshold 0): 7.5-12% false verdicts with neither t nor sqrt(k / (k - 1)), 6.5-8.5% with
//   sqrt(k / (k - 1)) alone, 3-4% with t alone, 0-1.5% with both.
double delta_widening(const StatFigure& f, double a, double b, const Side& sa, const Side& sb,
                      const Spread& spread_a, const Spread& spread_b) {
    const double da = f.fraction ? 1 : b / (a * a), db = f.fraction ? 1 : 1 / a;
    const auto within = [](const Side& s) {
        return s.runs.size() == 1 ? s.runs.front().widening : 1.0;
    };
    const double ua = da * da * spread_a.variance(), ub = db * db * spread_b.variance();
    const double wa = ua * within(sa) * within(sa), wb = ub * within(sb) * within(sb);
    if (!(ua + ub > 0) || !std::isfinite(wa + wb)) return 1;
    double df_share = 0;
    if (sa.runs.size() > 1) df_share += wa * wa / double(sa.runs.size() - 1);
    if (sb.runs.size() > 1) df_share += wb * wb / double(sb.runs.size() - 1);
    const double t = df_share > 0 ? t975((wa + wb) * (wa + wb) / df_share) / kZ : 1;
    return std::sqrt((wa + wb) / (ua + ub)) * t;
}

// Per figure, the spread of the history's runs' figures as a half-width of a delta in % (in
// points for a fraction), at 95%, Student's t over the runs; NaN where fewer than three runs
// have the figure.
std::vector<double> history_half_widths(const std::vector<StatFigure>& figures,
                                        const std::vector<std::vector<IntervalSample>>& history) {
    const std::vector<int64_t> dict = dictionary(history, {});
    const Side side = reduce(history, dict);
    std::vector<Values> per_run;
    for (const auto& run : side.runs) {
        Totals t;
        t.counts.assign(dict.size(), 0);
        for (const auto& tick : run.ticks)
            t.add(tick);
        per_run.push_back(figures_of(t, dict));
    }
    std::vector<double> out;
    for (const auto& f : figures) {
        Spread spread;
        for (const auto& v : per_run)
            if (!std::isnan(v[index_of(f.name)])) spread.add(v[index_of(f.name)]);
        const double mean = spread.n > 0 ? spread.sum / spread.n : NAN;
        const double sd = std::sqrt(spread.variance());
        const double scaled = f.fraction ? 100 * sd : mean != 0 ? 100 * sd / std::abs(mean) : NAN;
        out.push_back(spread.n >= 3 ? t975(spread.n - 1) * scaled : NAN);
    }
    return out;
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
    std::vector<std::array<Spread, 2>> spreads(figures.size());
    std::mt19937_64 rng(o.seed);
    Totals ra = ta, rb = tb;
    Draws draws_a = no_draws(a), draws_b = no_draws(b);
    for (int r = 0; enough && r < o.resamples; ++r) {
        resample(a, rng, draws_a, ra);
        resample(b, rng, draws_b, rb);
        const auto va = figures_of(ra, dict), vb = figures_of(rb, dict);
        for (size_t i = 0; i < figures.size(); ++i) {
            const size_t at = index_of(figures[i].name);
            const double d = delta_of(figures[i], va[at], vb[at]);
            if (std::isnan(d)) continue;
            deltas[i].push_back(d);
            spreads[i][0].add(va[at]);
            spreads[i][1].add(vb[at]);
        }
    }
    const double single_sides = double(a.runs.size() == 1) + double(b.runs.size() == 1);
    const std::vector<double> history = o.history.size() >= 3 && single_sides > 0
                                            ? history_half_widths(figures, o.history)
                                            : std::vector<double>(figures.size(), NAN);
    for (size_t i = 0; i < out.size(); ++i) {
        DeltaEstimate& e = out[i];
        if (!enough || deltas[i].size() < size_t(o.resamples) / 2 || std::isnan(e.delta)) {
            e.lo = e.hi = NAN;
            e.verdict = enough ? Verdict::same : Verdict::too_few_ticks;
            continue;
        }
        const double wider = delta_widening(e.figure, e.a, e.b, a, b, spreads[i][0], spreads[i][1]);
        e.lo = e.delta - wider * (e.delta - quantile(deltas[i], 0.025));
        e.hi = e.delta + wider * (quantile(deltas[i], 0.975) - e.delta);
        // Each side of one run moves by the history's run-to-run spread, independently of
        // the noise within it: added in quadrature.
        if (const double h = history[i] * std::sqrt(single_sides); h > 0) {
            e.lo = e.delta - std::hypot(e.delta - e.lo, h);
            e.hi = e.delta + std::hypot(e.hi - e.delta, h);
        }
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

size_t block_length(const std::vector<IntervalSample>& ticks) {
    const std::vector<std::vector<IntervalSample>> runs = {ticks};
    const Side side = reduce(runs, dictionary(runs, {}));
    return side.runs.front().block;
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
    std::vector<double> values(n), whole(n);
    Totals t = all_of(side, dict.size());
    percentiles_of(t, dict, percentiles.data(), n, whole.data());
    std::mt19937_64 rng(o.seed);
    Draws draws = no_draws(side);
    for (int r = 0; side.ticks() >= o.min_ticks && r < o.resamples; ++r) {
        resample(side, rng, draws, t);
        percentiles_of(t, dict, percentiles.data(), n, values.data());
        for (size_t k = 0; k < n; ++k)
            if (!std::isnan(values[k])) drawn[k].push_back(values[k]);
    }
    const double wider = side.runs.empty() ? 1 : side.runs.front().widening;
    for (size_t k = 0; k < n; ++k) {
        const bool some = !drawn[k].empty();
        band.lo_us.push_back(some ? whole[k] - wider * (whole[k] - quantile(drawn[k], 0.025))
                                  : NAN);
        band.hi_us.push_back(some ? whole[k] + wider * (quantile(drawn[k], 0.975) - whole[k])
                                  : NAN);
    }
    return band;
}

}  // namespace perflab
