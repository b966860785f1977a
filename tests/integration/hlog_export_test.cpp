// SPDX-License-Identifier: MIT
// `perflab export --format hlog` read by HdrHistogram's own Java library (Debian's
// libhdrhistogram-java): for real runs against memcached and an HTTP server, its
// HistogramLogProcessor must find, per tag, the count and percentiles `perflab show` reports.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "http_test_server.h"
#include "memcached_server.h"
#include "memtier_fixture.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

Output perflab(std::vector<std::string> args) {
    args.insert(args.begin(), PERFLAB_BINARY);
    return run(args, 120);
}

std::vector<std::string> split(const std::string& line, char sep) {
    std::vector<std::string> fields;
    std::istringstream in(line);
    for (std::string f; std::getline(in, f, sep);)
        fields.push_back(f);
    return fields;
}

std::vector<std::string> lines_of(const std::string& text) {
    return split(text, '\n');
}

// What HistogramLogProcessor reports over a whole log, in the log's units (µs).
struct JavaTotals {
    uint64_t count = 0;
    double p50 = 0, p90 = 0, p99 = 0, p999 = 0, max = 0;
};

// HistogramLogProcessor with -o writes one CSV line per interval of the tag, each with the
// totals of every interval so far (Total_Count, Total_50%...Total_Max, from
// getValueAtPercentile and getMaxValue): the last line is the whole log. One JVM per tag.
JavaTotals java_totals(const TempDir& dir, const std::string& hlog, const std::string& tag) {
    std::string name = tag.empty() ? "untagged" : tag;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    const std::string out = dir.file(name + ".csv");
    std::vector<std::string> args = {
        "java", "-cp", HDRHISTOGRAM_JAR, "org.HdrHistogram.HistogramLogProcessor", "-i", hlog};
    // No tag: the untagged lines, as HdrHistogram's users run it.
    if (!tag.empty()) args.insert(args.end(), {"-tag", tag});
    args.insert(args.end(), {"-csv", "-outputValueUnitRatio", "1", "-o", out});
    const Output java = run(args);
    EXPECT_EQ(java.code, 0) << java.out << java.err;
    std::vector<std::string> legend, last;
    for (const auto& line : lines_of(read_file(out))) {
        if (line.empty() || line[0] == '#') continue;
        if (line[0] == '"')
            legend = split(line, ',');
        else
            last = split(line, ',');
    }
    EXPECT_EQ(legend.size(), last.size()) << read_file(out);
    JavaTotals t;
    for (size_t i = 0; i < legend.size() && i < last.size(); ++i) {
        const std::string& name = legend[i];
        const double v = std::stod(last[i]);
        if (name == "\"Total_Count\"") t.count = uint64_t(v);
        if (name == "\"Total_50%\"") t.p50 = v;
        if (name == "\"Total_90%\"") t.p90 = v;
        if (name == "\"Total_99%\"") t.p99 = v;
        if (name == "\"Total_99.9%\"") t.p999 = v;
        if (name == "\"Total_Max\"") t.max = v;
    }
    return t;
}

// HdrHistogram reports a bucket's highest equivalent value; `perflab show` reports the same
// but never above the largest value recorded. Buckets are exact below 2048 µs and 1/1024 of
// their values wide above, so Java's figure lies in [ours, ours + ours / 1024].
void expect_within_resolution(double java, int64_t ours, const std::string& what) {
    EXPECT_GE(java, double(ours)) << what;
    EXPECT_LE(java - double(ours), double(ours) / 1024.0)
        << what << ": java " << java << ", perflab " << ours;
}

// Exports run 1 of `db` as .hlog and checks each of `ops` (as `show --json` names them), and
// with no tag the whole run, against the Java reader; returns the log's text.
std::string expect_java_agrees(const TempDir& dir, const std::string& db,
                               const std::map<std::string, std::string>& tag_of_op) {
    const std::string hlog = dir.file("run.hlog");
    const Output e = perflab({"export", "1", "--db", db, "--format", "hlog", "-o", hlog});
    EXPECT_EQ(e.code, 0) << e.err;
    const Output show = perflab({"show", "1", "--db", db, "--json"});
    EXPECT_EQ(show.code, 0) << show.err;
    const json summary = json::parse(show.out)["summary"];
    const json ops = summary["ops"];
    const std::string text = read_file(hlog);
    {
        SCOPED_TRACE("no tag");
        const JavaTotals java = java_totals(dir, hlog, "");
        EXPECT_EQ(java.count, summary["requests"].get<uint64_t>());
        expect_within_resolution(java.p50, summary["latency_us"]["p50"], "p50");
        expect_within_resolution(java.p99, summary["latency_us"]["p99"], "p99");
        expect_within_resolution(java.max, summary["latency_us"]["max"], "max");
    }
    for (const auto& [op, tag] : tag_of_op) {
        SCOPED_TRACE(op);
        const json& ours = ops.at(op);
        const json& lat = ours["latency_us"];
        EXPECT_GT(ours["count"].get<uint64_t>(), 0u);
        const JavaTotals java = java_totals(dir, hlog, tag);
        EXPECT_EQ(java.count, ours["count"].get<uint64_t>());
        expect_within_resolution(java.p50, lat["p50"], "p50");
        expect_within_resolution(java.p90, lat["p90"], "p90");
        expect_within_resolution(java.p99, lat["p99"], "p99");
        expect_within_resolution(java.p999, lat["p999"], "p99.9");
        expect_within_resolution(java.max, lat["max"], "max");
        std::cout << "[ hlog     ] " << tag << ": java count " << java.count << " p50 " << java.p50
                  << " p90 " << java.p90 << " p99 " << java.p99 << " p99.9 " << java.p999 << " max "
                  << java.max << " | perflab count " << ours["count"] << " p50 " << lat["p50"]
                  << " p90 " << lat["p90"] << " p99 " << lat["p99"] << " p99.9 " << lat["p999"]
                  << " max " << lat["max"] << std::endl;
    }
    return text;
}

size_t lines_tagged(const std::string& text, const std::string& tag) {
    size_t n = 0;
    for (const auto& line : lines_of(text))
        n += line.rfind("Tag=" + tag + ",", 0) == 0;
    return n;
}

TEST(HlogExport, JavaReaderAgreesOnACacheRun) {
    MemcachedServer server;
    TempDir dir;
    // An open-model phase, then a closed one: the first phase's drain tick overlaps the
    // second in time, and the log keeps the ticks' order.
    const json spec = {
        {"name", "hlog"},
        {"kind", "cache"},
        {"tick_ms", 200},
        {"phases", {{{"duration_s", 1}, {"rate", 2000}}, {{"duration_s", 1}, {"concurrency", 4}}}},
        {"cache",
         {{"servers", {server.endpoint()}},
          {"workload", "ratio"},
          {"get_ratio", 3},
          {"set_ratio", 1},
          {"keys", {{"count", 1000}}},
          {"value_size", {{"min", 64}, {"max", 4096}}}}}};
    dir.write("spec.json", spec.dump());
    const std::string db = dir.file("runs.db");
    const Output r = perflab({"run", dir.file("spec.json"), "--db", db, "-q"});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string text = expect_java_agrees(dir, db, {{"get", "get"}, {"set", "set"}});
    EXPECT_GE(lines_tagged(text, "get"), 10u);
    EXPECT_EQ(lines_tagged(text, "get"), lines_tagged(text, "set"));
}

// The round trip: the exported log imported back is a run (status imported, kind cache for a
// log of gets and sets) with each op's count and percentiles as the original run had them;
// the same file a second time is refused with the run it became.
TEST(HlogImport, AnExportedLogImportsBackToTheSameFigures) {
    MemcachedServer server;
    TempDir dir;
    const json spec = {{"name", "hlog round trip"},
                       {"kind", "cache"},
                       {"tick_ms", 250},
                       {"phases", {{{"duration_s", 1}, {"rate", 2000}}}},
                       {"cache",
                        {{"servers", {server.endpoint()}},
                         {"workload", "ratio"},
                         {"get_ratio", 3},
                         {"set_ratio", 1},
                         {"keys", {{"count", 1000}}}}}};
    dir.write("spec.json", spec.dump());
    const std::string db = dir.file("runs.db");
    ASSERT_EQ(perflab({"run", dir.file("spec.json"), "--db", db, "-q"}).code, 0);
    const std::string hlog = dir.file("run.hlog");
    ASSERT_EQ(perflab({"export", "1", "--db", db, "--format", "hlog", "-o", hlog}).code, 0);
    const std::string other = dir.file("imported.db");
    const Output imported = perflab({"import", hlog, "--db", other});
    ASSERT_EQ(imported.code, 0) << imported.err;
    EXPECT_NE(imported.err.find("from hlog results"), std::string::npos) << imported.err;
    const json original = json::parse(perflab({"show", "1", "--db", db, "--json"}).out);
    const json back = json::parse(perflab({"show", "1", "--db", other, "--json"}).out);
    EXPECT_EQ(back["run"]["status"], "imported") << back["run"].dump();
    EXPECT_EQ(back["run"]["kind"], "cache");
    for (const char* op : {"get", "set"}) {
        SCOPED_TRACE(op);
        const json& a = original["summary"]["ops"][op];
        const json& b = back["summary"]["ops"][op];
        EXPECT_GT(a["count"].get<uint64_t>(), 0u);
        EXPECT_EQ(b["count"], a["count"]);
        for (const char* p : {"p50", "p90", "p99", "p999"})
            EXPECT_EQ(b["latency_us"][p], a["latency_us"][p]) << p;
    }
    // A histogram log holds no bytes: unknown in every output, never 0.
    EXPECT_GT(original["summary"]["bytes_out"].get<uint64_t>(), 0u);
    for (const char* bytes : {"bytes_in", "bytes_out"})
        EXPECT_TRUE(back["summary"][bytes].is_null()) << back["summary"].dump();
    const Output text = perflab({"show", "1", "--db", other});
    EXPECT_NE(text.out.find("bytes in -, out -"), std::string::npos) << text.out;
    const json ticks =
        json::parse(perflab({"export", "1", "--db", other, "--format", "json"}).out)["ticks"];
    ASSERT_FALSE(ticks.empty());
    for (const auto& tick : ticks)
        EXPECT_TRUE(tick["bytes_in"].is_null() && tick["bytes_out"].is_null()) << tick.dump();
    ASSERT_EQ(perflab({"import", hlog, "--db", db}).code, 0);
    const json compared = json::parse(perflab({"compare", "1", "2", "--db", db, "--json"}).out);
    EXPECT_EQ(compared["figures"]["bytes_out"]["values"][0], original["summary"]["bytes_out"])
        << compared["figures"]["bytes_out"].dump();
    EXPECT_TRUE(compared["figures"]["bytes_out"]["values"][1].is_null())
        << compared["figures"]["bytes_out"].dump();

    const Output again = perflab({"import", hlog, "--db", other});
    EXPECT_EQ(again.code, 2);
    EXPECT_NE(again.err.find("was imported already, as run 1"), std::string::npos) << again.err;
    const json runs = json::parse(perflab({"runs", "--db", other, "--json"}).out);
    EXPECT_EQ(runs.size(), 1u);
}

// A log HdrHistogram's own HistogramLogWriter wrote, in a layout of 2 significant digits and
// beginning with a comment line: told for a log without --format, the import finds the
// library's count and its percentiles, each bucket at the highest value Java reports for it.
TEST(HlogImport, ALogWrittenByHdrHistogramsJavaWriterImports) {
    TempDir dir;
    const Output javac =
        run({"javac", "-cp", HDRHISTOGRAM_JAR, "-d", dir.path(),
             std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/jvm/PerflabHlogWriter.java"},
            120);
    ASSERT_EQ(javac.code, 0) << javac.err;
    const std::string hlog = dir.file("java.hlog");
    const Output java = run({"java", "-cp", std::string(HDRHISTOGRAM_JAR) + ":" + dir.path(),
                             "PerflabHlogWriter", hlog});
    ASSERT_EQ(java.code, 0) << java.err;
    const auto figures = split(java.out.substr(0, java.out.find('\n')), ' ');
    ASSERT_EQ(figures.size(), 4u) << java.out;
    const std::string db = dir.file("runs.db");
    const Output imported = perflab({"import", hlog, "--db", db, "--name", "from java"});
    ASSERT_EQ(imported.code, 0) << imported.err;
    const json shown = json::parse(perflab({"show", "1", "--db", db, "--json"}).out);
    EXPECT_EQ(shown["run"]["kind"], "http");
    const json& req = shown["summary"]["ops"]["req"];
    EXPECT_EQ(req["count"].get<uint64_t>(), std::stoull(figures[0]));
    const std::pair<const char*, size_t> checks[] = {{"p50", 1}, {"p99", 2}, {"max", 3}};
    for (const auto& [key, at] : checks)
        EXPECT_EQ(req["latency_us"][key].get<int64_t>(), std::stoll(figures[at])) << key;
    // Five intervals of one second: five ticks.
    EXPECT_EQ(shown["summary"]["duration_s"].get<double>(), 5.0) << shown["summary"].dump();
}

TEST(HlogExport, JavaReaderAgreesOnAnHttpRun) {
    HttpTestServer server;
    server.set_delay_ms(3);  // latencies above 2048 µs, where buckets are wider than 1 µs
    TempDir dir;
    const std::string url = server.url("/item");
    const json spec = {{"name", "hlog-http"},
                       {"kind", "http"},
                       {"tick_ms", 250},
                       {"phases", {{{"duration_s", 1.5}, {"rate", 400}}}},
                       {"http", {{"targets", {{{"url", url}}}}, {"threads", 1}}}};
    dir.write("spec.json", spec.dump());
    const std::string db = dir.file("runs.db");
    const Output r = perflab({"run", dir.file("spec.json"), "--db", db, "-q"});
    ASSERT_EQ(r.code, 0) << r.err;
    // The target's name has a space, which the log's fields may not hold.
    const std::string tag = "GET_" + url;
    const std::string text = expect_java_agrees(dir, db, {{"GET " + url, tag}});
    EXPECT_GE(lines_tagged(text, tag), 6u);
}

// A summary-only run (memtier's JSON, tests/fixtures/memtier) has counts but no latencies per
// tick: its .hlog is its whole-run histograms as one interval, which HdrHistogram's reader
// finds with every get and set the server counted and memtier's printed percentiles; the log
// imports back as a run of the same count.
TEST(HlogExport, SummaryOnlyRunIsOneIntervalJavaReads) {
    TempDir dir;
    const std::string db = dir.file("runs.db");
    ASSERT_EQ(perflab({"import", memtier_fixture("real-3s.json"), "--db", db}).code, 0);
    const std::string hlog = dir.file("run.hlog");
    const Output e = perflab({"export", "1", "--db", db, "--format", "hlog", "-o", hlog});
    ASSERT_EQ(e.code, 0) << e.err;
    const std::string text = read_file(hlog);
    EXPECT_EQ(lines_tagged(text, "get"), 1u) << text;
    EXPECT_EQ(lines_tagged(text, "set"), 1u) << text;
    const auto server = memcached_stats("real-3s");
    const JavaTotals java = java_totals(dir, hlog, "");
    EXPECT_EQ(java.count, server.at("cmd_get") + server.at("cmd_set"));
    // Java reads the interval's histogram in PerfLab's layout, whose buckets hold memtier's
    // values exactly below 2048 µs.
    EXPECT_EQ(java.p50, double(std::llround(memtier_printed("real-3s", "Totals").p50_ms * 1000)));
    EXPECT_EQ(java_totals(dir, hlog, "get").count, server.at("cmd_get"));

    const std::string other = dir.file("back.db");
    ASSERT_EQ(perflab({"import", hlog, "--db", other}).code, 0);
    const json back = json::parse(perflab({"show", "1", "--db", other, "--json"}).out);
    EXPECT_EQ(back["summary"]["requests"], server.at("cmd_get") + server.at("cmd_set"));
    EXPECT_EQ(back["summary"]["ops"]["get"]["count"], server.at("cmd_get"));
}

}  // namespace
}  // namespace perflab::test
