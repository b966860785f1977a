// SPDX-License-Identifier: MIT
// The interval log's text: header, per tick an untagged line of every op and one tagged line
// per op, times and maxima. That
// HdrHistogram's own reader agrees with its histograms is tests/integration/hlog_export_test.
#include "hlog_export.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "sqlite.h"

namespace perflab {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// The line up to its Base64 histogram.
std::string fields_before_histogram(const std::string& line) {
    return line.substr(0, line.rfind(',') + 1);
}

IntervalSample tick(int64_t t_ms, int64_t interval_ms) {
    IntervalSample s;
    s.t_ms = t_ms;
    s.interval_ms = interval_ms;
    return s;
}

void add(IntervalSample& s, const std::string& op, int64_t latency_us) {
    auto& o = s.ops[op];
    ++o.count;
    o.latency.record(latency_us);
}

TEST(HlogExport, HeaderThenOneLinePerTickAndOp) {
    RunInfo run;
    run.id = 7;
    run.started_at_ms = 1'700'000'000'042;
    std::vector<IntervalSample> samples = {tick(1000, 1000), tick(1500, 500), tick(1730, 400)};
    add(samples[0], "get", 412);
    add(samples[0], "get", 9);
    add(samples[0], "set", 123'456);
    add(samples[1], "get", 70);
    samples[1].ops["set"];  // the op is listed, nothing completed
    add(samples[2], "get", 5);

    const auto lines = lines_of(hlog_text(run, samples));
    ASSERT_EQ(lines.size(), 5u + 3 * samples.size());
    EXPECT_EQ(lines[0],
              "#[Logged with PerfLab, run 7: histogram values in microseconds, Interval_Max in "
              "milliseconds]");
    EXPECT_EQ(lines[1], "#[Histogram log format version 1.3]");
    EXPECT_EQ(lines[2],
              "#[StartTime: 1700000000.042 (seconds since epoch), 2023-11-14 22:13:20 UTC]");
    EXPECT_EQ(lines[3], "#[BaseTime: 1700000000.042 (seconds since epoch)]");
    EXPECT_EQ(lines[4],
              "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
              "\"Interval_Compressed_Histogram\"");
    // Untagged: every op of the tick, what HdrHistogram's readers take when given no tag.
    EXPECT_EQ(fields_before_histogram(lines[5]), "0.000,1.000,123.456,");
    EXPECT_EQ(fields_before_histogram(lines[6]), "Tag=get,0.000,1.000,0.412,");
    EXPECT_EQ(fields_before_histogram(lines[7]), "Tag=set,0.000,1.000,123.456,");
    EXPECT_EQ(fields_before_histogram(lines[8]), "1.000,0.500,0.070,");
    EXPECT_EQ(fields_before_histogram(lines[9]), "Tag=get,1.000,0.500,0.070,");
    EXPECT_EQ(fields_before_histogram(lines[10]), "Tag=set,1.000,0.500,0.000,");
    // A drain tick: it began before the tick ahead of it ended.
    EXPECT_EQ(fields_before_histogram(lines[11]), "1.330,0.400,0.005,");
    EXPECT_EQ(fields_before_histogram(lines[12]), "Tag=get,1.330,0.400,0.005,");
    EXPECT_EQ(fields_before_histogram(lines[13]), "Tag=set,1.330,0.400,0.000,");
    // V2 compressed cookie 0x1c849314 in Base64 begins "HISTFA".
    for (size_t i = 5; i < lines.size(); ++i)
        EXPECT_EQ(lines[i].substr(lines[i].rfind(',') + 1, 6), "HISTFA") << lines[i];
}

TEST(HlogExport, OpsThatNeverCompletedHaveNoTag) {
    RunInfo run;
    std::vector<IntervalSample> samples = {tick(1000, 1000)};
    add(samples[0], "get", 10);
    samples[0].ops["set"];
    const auto lines = lines_of(hlog_text(run, samples));
    ASSERT_EQ(lines.size(), 7u);
    EXPECT_EQ(lines[6].rfind("Tag=get,", 0), 0u);
}

TEST(HlogExport, TagsHoldNoDelimiters) {
    EXPECT_EQ(hlog_tag("get"), "get");
    EXPECT_EQ(hlog_tag("GET http://h/a?x=1,2"), "GET_http://h/a?x=1_2");
    RunInfo run;
    std::vector<IntervalSample> samples = {tick(1000, 1000)};
    add(samples[0], "GET http://h/a,b", 10);
    add(samples[0], "GET http://h/a b", 20);
    const auto lines = lines_of(hlog_text(run, samples));
    ASSERT_EQ(lines.size(), 8u);
    EXPECT_EQ(fields_before_histogram(lines[6]), "Tag=GET_http://h/a_b,0.000,1.000,0.020,");
    EXPECT_EQ(fields_before_histogram(lines[7]), "Tag=GET_http://h/a_b_2,0.000,1.000,0.010,");
}

// An import whose ticks have counts alone: its whole-run histograms are its one interval, as
// long as the run; without them (the form that has only ticks) it is refused.
TEST(HlogExport, ASummaryOnlyRunIsOneIntervalOfItsWholeRun) {
    RunInfo run;
    run.id = 3;
    run.summary_only = true;
    std::vector<IntervalSample> samples = {tick(1000, 1000), tick(2500, 1500)};
    samples[0].ops["get"].count = 2;
    samples[1].ops["get"].count = 1;
    RunSummary summary;
    add(summary.overall.totals, "get", 40);
    add(summary.overall.totals, "get", 50);
    add(summary.overall.totals, "get", 3000);
    EXPECT_THROW(hlog_text(run, samples), StoreError);
    const auto lines = lines_of(hlog_text(run, samples, summary));
    ASSERT_EQ(lines.size(), 7u);
    EXPECT_EQ(fields_before_histogram(lines[5]), "0.000,2.500,3.000,");
    EXPECT_EQ(fields_before_histogram(lines[6]), "Tag=get,0.000,2.500,3.000,");
}

}  // namespace
}  // namespace perflab
