// SPDX-License-Identifier: MIT
// The run store's costs, printed (not a test: no assertion, not in ctest).
//   1. Storing an hour of 1 s ticks: the writer thread's CPU time against the hour it stores.
//   2. show and compare of two one-hour runs: wall time per answer.
// Usage: store_bench [DIR]   (default: a fresh directory under /tmp)
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "model/spec.h"
#include "remote/hardware_profile.h"
#include "run_compare.h"
#include "run_report.h"
#include "run_store.h"
#include "storage_samples.h"
#include "store_writer.h"

namespace {

using namespace perflab;
using Seconds = std::chrono::duration<double>;

constexpr int kTicks = 3600;
constexpr int kPatterns = 60;  // distinct tick shapes, cycled: generating 3600 costs minutes

double thread_cpu_s() {
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

RunSpec hour_spec(const std::string& name) {
    const nlohmann::json j = {{"name", name},
                              {"kind", "cache"},
                              {"phases", {{{"duration_s", 3600}, {"concurrency", 16}}}},
                              {"cache", {{"servers", {"127.0.0.1:11211"}}}}};
    return *parse_spec(j).spec;
}

// Stores one hour of ticks, one tick per transaction, and returns the run id.
int64_t store_hour(const std::string& db, const std::vector<IntervalSample>& patterns,
                   const std::string& name, bool report) {
    const RunSpec spec = hour_spec(name);
    StoreWriter writer(db, spec, local_hardware_profile());
    writer.on_start(spec);
    SummaryBuilder builder(RunKind::cache);
    double feed_cpu = 0;
    const auto wall0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kTicks; ++i) {
        IntervalSample s = patterns[size_t(i % kPatterns)];
        s.t_ms = int64_t(i + 1) * 1000;
        builder.add(s);
        const double c0 = thread_cpu_s();
        writer.on_sample(s);
        feed_cpu += thread_cpu_s() - c0;
        // Leave the writer time to commit this tick alone, as a 1 s tick would.
        std::this_thread::sleep_for(std::chrono::microseconds(1500));
    }
    writer.on_end(builder.finish(RunStatus::completed));
    writer.finish();
    const double writer_cpu = writer.writer_cpu_seconds();
    const double wall = Seconds(std::chrono::steady_clock::now() - wall0).count();
    if (report) {
        std::printf("store: %d ticks of %llu ops (2 ops, histograms) in %.2f s wall\n", kTicks,
                    static_cast<unsigned long long>(patterns[0].total_ops()), wall);
        std::printf(
            "store: writer thread CPU %.3f s for an hour of ticks = %.4f%% of one core "
            "(budget 1%%)\n",
            writer_cpu, writer_cpu / 3600.0 * 100.0);
        std::printf("store: on_sample on the controller thread: %.1f us per tick (copy + queue)\n",
                    feed_cpu / kTicks * 1e6);
        std::printf("store: database size %.1f MiB for the hour\n",
                    double(std::filesystem::file_size(db)) / (1 << 20));
    }
    return writer.run_id();
}

template <class F>
double median_ms(F&& f, int repeats = 7) {
    std::vector<double> ms;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const std::string dir =
        argc > 1 ? argv[1] : std::filesystem::temp_directory_path() / "perflab-store-bench";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string db = dir + "/bench.db";

    std::vector<IntervalSample> patterns;
    for (int i = 0; i < kPatterns; ++i)
        patterns.push_back(test::synthetic_tick(i));

    // Each hour in its own process-thread accounting: the first run's writer has exited
    // before the second starts, so its CPU is measured alone.
    const int64_t a = store_hour(db, patterns, "hour A", true);
    const int64_t b = store_hour(db, patterns, "hour B", false);

    const double show_ms = median_ms([&] {
        RunStore store(db, Access::read);
        const std::string text = report_text(load_report(store, a));
        if (text.empty()) std::abort();
    });
    const double window_ms = median_ms([&] {
        RunStore store(db, Access::read);
        const std::string text = report_text(load_report(store, a, {600'000, 1'200'000}));
        if (text.empty()) std::abort();
    });
    const double compare_ms = median_ms([&] {
        RunStore store(db, Access::read);
        const std::string text = comparison_text(compare_runs(store, {a, b}));
        if (text.empty()) std::abort();
    });
    const double ticks_ms = median_ms([&] {
        RunStore store(db, Access::read);
        if (store.samples(a).size() != size_t(kTicks)) std::abort();
    });
    std::printf("show of a one-hour run: %.1f ms (median of 7; budget 100 ms)\n", show_ms);
    std::printf("show --from 10m --to 20m: %.1f ms\n", window_ms);
    std::printf("compare of two one-hour runs: %.1f ms (median of 7; budget 100 ms)\n", compare_ms);
    std::printf(
        "every tick of a one-hour run with its histograms (what the charts load): %.1f ms\n",
        ticks_ms);
    std::filesystem::remove_all(dir);
    return 0;
}
