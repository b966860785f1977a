// SPDX-License-Identifier: MIT
// `perflab import`: vegeta's JSON lines and JMeter's JTL, written here in each tool's
// documented format, become stored runs whose counts, errors and percentiles match what this
// test computes from the same requests; bad files exit 2 naming the line and field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "import_helpers.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

// A deterministic spread of latencies with a tail: 0.2..12 ms, every 37th 40..80 ms.
int64_t latency_ns(int i) {
    const uint64_t x = uint64_t(i) * 2654435761u % 1000;
    const int64_t base = 200'000 + int64_t(x) * 11'800 + i % 7;
    return i % 37 == 0 ? base * 4 + 40'000'000 : base;
}

// A file import must refuse: exit 2, its message on stderr.
struct BadFile {
    const char* file;
    std::string text;
    std::string message;
};

class ImportCli : public ::testing::Test {
  protected:
    TempDir dir;
    std::string db = dir.file("runs.db");

    void expect_refused(const BadFile& c) {
        SCOPED_TRACE(c.file);
        dir.write(c.file, c.text);
        const Output out = perflab({"import", dir.file(c.file), "--db", db});
        EXPECT_EQ(out.code, 2) << out.err;
        EXPECT_NE(out.err.find(c.message), std::string::npos) << out.err;
    }

    json show(int64_t id, std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {"show", std::to_string(id), "--db", db, "--json"};
        args.insert(args.end(), extra.begin(), extra.end());
        const Output out = perflab(args);
        EXPECT_EQ(out.code, 0) << out.err;
        return json::parse(out.out);
    }
    json runs() {
        const Output out = perflab({"runs", "--db", db, "--json"});
        EXPECT_EQ(out.code, 0) << out.err;
        return json::parse(out.out);
    }
};

TEST_F(ImportCli, VegetaResultsBecomeAStoredRun) {
    // 600 requests 10 ms apart from 12:00:00.250 UTC (six seconds), two targets; every 50th
    // a 500, every 75th no response at all.
    const std::map<int, std::string> targets = {{0, "GET http://127.0.0.1:8080/items"},
                                                {1, "POST http://127.0.0.1:8080/orders"}};
    std::map<std::string, Expected> expected;
    uint64_t in_window = 0;  // sent in [2 s, 4 s) of the run's clock, which starts at 12:00:00
    std::string lines;
    for (int i = 0; i < 600; ++i) {
        const std::string& target = targets.at(i % 3 == 0 ? 1 : 0);
        const int ms = 250 + i * 10;
        char ts[64];
        // One line in every 100 gives its time with an offset, as Go may print it.
        if (i % 100 == 42)
            std::snprintf(ts, sizeof ts, "2026-03-01T13:%02d:%02d.%03d000000+01:00", ms / 60000,
                          ms / 1000 % 60, ms % 1000);
        else
            std::snprintf(ts, sizeof ts, "2026-03-01T12:%02d:%02d.%03d123456Z", ms / 60000,
                          ms / 1000 % 60, ms % 1000);
        const int code = i % 75 == 0 ? 0 : i % 50 == 0 ? 500 : 200;
        const std::string error = code == 0     ? "Post \"http://127.0.0.1:8080/orders\": dial tcp "
                                                  "127.0.0.1:8080: connect: connection refused"
                                  : code == 500 ? "500 Internal Server Error"
                                                : "";
        const auto space = target.find(' ');
        const json line = {{"attack", "old"},
                           {"seq", i},
                           {"code", code},
                           {"timestamp", ts},
                           {"latency", latency_ns(i)},
                           {"bytes_out", target[0] == 'P' ? 64 : 0},
                           {"bytes_in", code == 200 ? 512 : 0},
                           {"error", error},
                           {"body", nullptr},
                           {"method", target.substr(0, space)},
                           {"url", target.substr(space + 1)},
                           {"headers", json::object()}};
        lines += line.dump() + "\n";
        Expected& e = expected[target];
        e.latencies_us.push_back(latency_ns(i) / 1000);
        e.errors += code != 200;
        in_window += ms >= 2000 && ms < 4000;
    }
    dir.write("results.json", lines);
    const Output imported = perflab(
        {"import", dir.file("results.json"), "--db", db, "--name", "last year", "--tag", "vegeta"});
    ASSERT_EQ(imported.code, 0) << imported.err;
    EXPECT_EQ(imported.out, "1\n");

    const json list = runs();
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0]["name"], "last year");
    EXPECT_EQ(list[0]["kind"], "http");
    EXPECT_EQ(list[0]["ops"], 600);
    EXPECT_EQ(list[0]["errors"], 8 + 12 - 4);  // i % 75 == 0 or i % 50 == 0; both at 0, 150...

    const json shown = show(1);
    EXPECT_EQ(shown["run"]["started_at"], "2026-03-01 12:00:00 UTC");
    EXPECT_EQ(shown["run"]["tags"], json::array({"vegeta"}));
    EXPECT_NE(shown["run"]["notes"].get<std::string>().find("vegeta"), std::string::npos);
    for (const auto& [name, e] : expected)
        expect_op(shown["summary"]["ops"], name, e);
    EXPECT_EQ(shown["summary"]["errors"]["Post \"http://127.0.0.1:8080/orders\": dial tcp "
                                         "127.0.0.1:8080: connect: connection refused"],
              8);

    const json window = show(1, {"--from", "2s", "--to", "4s"});
    uint64_t count = 0;
    for (const auto& [name, op] : window["summary"]["ops"].items())
        count += op["count"].get<uint64_t>();
    EXPECT_EQ(count, in_window);

    // The same file again is refused, naming the run it became; nothing more is stored.
    const auto again = perflab({"import", dir.file("results.json"), "--db", db});
    EXPECT_EQ(again.code, 2);
    EXPECT_NE(again.err.find("was imported already, as run 1"), std::string::npos) << again.err;
    EXPECT_EQ(json::parse(perflab({"runs", "--db", db, "--json"}).out).size(), 1u);
    EXPECT_EQ(show(1)["run"]["status"], "imported");
    EXPECT_EQ(perflab({"compare", "1", "1", "--db", db}).code, 0);
}

// "2026-12-01T10:00:00.123456+01:00" for µs since the epoch, written with a +01:00 offset.
std::string rfc3339(int64_t us) {
    const std::time_t local = std::time_t(us / 1'000'000 + 3600);
    std::tm tm{};
    gmtime_r(&local, &tm);
    char text[64];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%06lld+01:00",
                  tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                  static_cast<long long>(us % 1'000'000));
    return text;
}

TEST_F(ImportCli, K6JsonLinesBecomeAStoredRun) {
    // As `k6 run --out json` writes them: metric declarations, then points of every metric;
    // an HTTP request's points carry its end time and its tags.
    std::string lines =
        R"({"type":"Metric","data":{"name":"http_req_duration","type":"trend","contains":"time",)"
        R"("thresholds":[],"submetrics":null},"metric":"http_req_duration"})"
        "\n"
        R"({"type":"Metric","data":{"name":"http_reqs","type":"counter","contains":"default",)"
        R"("thresholds":[],"submetrics":null},"metric":"http_reqs"})"
        "\n";
    std::map<std::string, Expected> expected;
    const int64_t start_us = 1'764'579'600'000'000;  // 2026-12-01 09:00:00 UTC
    for (int i = 0; i < 600; ++i) {
        const int64_t latency_us = latency_ns(i) / 1000;
        const int64_t end_us = start_us + i * 5000 + latency_us;
        std::string method = "GET", url = "http://127.0.0.1:1/a", status = "200", ok = "true",
                    error;
        if (i % 3 == 1) method = "POST", url = "http://127.0.0.1:1/b", status = "201";
        if (i % 3 == 2) url = "http://127.0.0.1:1/c", status = "503", ok = "false";
        if (i % 30 == 2)
            status = "0", error = ",\"error\":\"dial: i/o timeout\",\"error_code\":\"1050\"";
        const std::string tags = R"({"expected_response":")" + ok + R"(","group":"","method":")" +
                                 method + R"(","name":")" + url + R"(","proto":"HTTP/1.1",)" +
                                 R"("scenario":"default","status":")" + status + R"(","url":")" +
                                 url + "\"" + error + "}";
        char value[32];
        std::snprintf(value, sizeof value, "%lld.%03lld", static_cast<long long>(latency_us / 1000),
                      static_cast<long long>(latency_us % 1000));
        lines += R"({"metric":"http_reqs","type":"Point","data":{"time":")" + rfc3339(end_us) +
                 R"(","value":1,"tags":)" + tags + "}}\n";
        lines += R"({"metric":"http_req_duration","type":"Point","data":{"time":")" +
                 rfc3339(end_us) + R"(","value":)" + value + R"(,"tags":)" + tags + "}}\n";
        lines += R"({"metric":"iterations","type":"Point","data":{"time":")" + rfc3339(end_us) +
                 R"(","value":1,"tags":{"scenario":"default"}}})" + std::string("\n");
        Expected& e = expected[method + " " + url];
        e.latencies_us.push_back(latency_us);
        e.errors += ok == "false";
    }
    dir.write("k6.json", lines);
    const Output imported = perflab({"import", dir.file("k6.json"), "--db", db});
    ASSERT_EQ(imported.code, 0) << imported.err;
    EXPECT_NE(imported.err.find("600 requests from k6 results"), std::string::npos) << imported.err;
    const json shown = show(1);
    EXPECT_EQ(shown["run"]["kind"], "http");
    EXPECT_NE(shown["run"]["notes"].get<std::string>().find("Imported from k6"), std::string::npos);
    for (const auto& [name, e] : expected)
        expect_op(shown["summary"]["ops"], name, e);
    EXPECT_EQ(shown["summary"]["errors"]["dial: i/o timeout"], 20);
    // No request's bytes in k6's points: unknown, not 0.
    for (const char* bytes : {"bytes_in", "bytes_out"})
        EXPECT_TRUE(shown["summary"][bytes]["total"].is_null()) << shown["summary"][bytes].dump();
    // The run starts at the first request sent: its end less its latency.
    EXPECT_EQ(shown["run"]["started_at_ms"], start_us / 1000);
}

TEST_F(ImportCli, JmeterJtlBecomesAStoredRun) {
    // JMeter's default CSV columns; a label holding the delimiter, an assertion failure on a
    // 200, a 503, and a sample that got no response.
    std::string jtl =
        "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
        "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n";
    std::map<std::string, Expected> expected;
    const int64_t start = 1'772'366'400'000;  // 2026-03-01 12:00:00 UTC
    for (int i = 0; i < 400; ++i) {
        const std::string label = i % 4 == 0 ? "login, then post" : "home";
        const int64_t elapsed = latency_ns(i) / 1'000'000;
        std::string code = "200", message = "OK", success = "true", failure;
        if (i % 40 == 5) success = "false", failure = "Test failed: text expected to contain /Hi/";
        if (i % 40 == 9) code = "503", message = "Service Unavailable", success = "false";
        if (i % 100 == 13)
            code = "Non HTTP response code: java.net.ConnectException",
            message = "Non HTTP response message: Connection refused", success = "false";
        jtl += std::to_string(start + i * 25) + "," + std::to_string(elapsed) + ",\"" + label +
               "\"," + code + "," + message + ",Thread Group 1-1,text," + success + ",\"" +
               failure + "\",2048,150,4,4,http://127.0.0.1/x,3,0,1\n";
        Expected& e = expected[label];
        e.latencies_us.push_back(elapsed * 1000);
        e.errors += success == "false";
    }
    dir.write("plan.jtl", jtl);
    const Output imported = perflab({"import", dir.file("plan.jtl"), "--db", db});
    ASSERT_EQ(imported.code, 0) << imported.err;
    const json shown = show(1);
    EXPECT_EQ(shown["run"]["name"], "plan.jtl");
    EXPECT_EQ(shown["run"]["kind"], "http");
    for (const auto& [name, e] : expected)
        expect_op(shown["summary"]["ops"], name, e);
    EXPECT_EQ(shown["summary"]["errors"]["Test failed: text expected to contain /Hi/"], 10);
    EXPECT_EQ(shown["summary"]["errors"]["Non HTTP response message: Connection refused"], 4);

    // The required columns alone, in another order.
    dir.write("subset.jtl",
              "label,success,elapsed,responseCode,timeStamp\n"
              "a,true,5,200,1772366400000\na,false,7,500,1772366401000\n");
    ASSERT_EQ(perflab({"import", dir.file("subset.jtl"), "--db", db, "--format", "jtl"}).code, 0);
    const json subset = show(2);
    EXPECT_EQ(subset["summary"]["ops"]["a"]["count"], 2);
    EXPECT_EQ(subset["summary"]["ops"]["a"]["errors"], 1);
    EXPECT_EQ(subset["summary"]["ops"]["a"]["latency_us"]["max"], 7000);
}

TEST_F(ImportCli, BadFilesExit2NamingLineAndFieldAndStoreNothing) {
    const std::string jtl_head = "timeStamp,elapsed,label,responseCode,success\n";
    const std::string ok_line = "1772366400000,5,a,200,true\n";
    const std::string vegeta_ok =
        R"({"timestamp":"2026-03-01T12:00:00Z","latency":5000,"code":200})"
        "\n";
    const BadFile cases[] = {
        {"a.jtl", jtl_head + ok_line + "1772366400000,fast,a,200,true\n",
         "line 3: elapsed: \"fast\" is not a whole number"},
        {"b.jtl", jtl_head + ok_line + "1772366400000,5,a,200,maybe\n",
         "line 3: success: \"maybe\" is not true or false"},
        {"c.jtl", jtl_head + "1772366400000,5,a,200\n", "line 2: 4 fields where the header has 5"},
        {"d.jtl", "timeStamp,elapsed,label,success\n" + ok_line, "line 1: responseCode: missing"},
        {"e.json", vegeta_ok + R"({"timestamp":"2026-03-01 noon","latency":5,"code":200})",
         "line 2: timestamp: not an RFC 3339 time"},
        {"f.json", vegeta_ok + vegeta_ok + R"({"timestamp":"2026-03-01T12:00:00Z","code":200})",
         "line 3: latency: missing"},
        {"g.json", vegeta_ok + "{\"timestamp\": \n", "line 2: not valid JSON"},
        {"h.txt", "hello\n",
         "line 1: neither vegeta's or k6's JSON lines, memtier_benchmark's JSON"},
    };
    dir.write("good.jtl", jtl_head + ok_line);
    ASSERT_EQ(perflab({"import", dir.file("good.jtl"), "--db", db}).code, 0);
    for (const auto& c : cases)
        expect_refused(c);
    const Output missing = perflab({"import", dir.file("none.jtl"), "--db", db});
    EXPECT_EQ(missing.code, 2);
    EXPECT_NE(missing.err.find("none.jtl"), std::string::npos) << missing.err;
    EXPECT_EQ(perflab({"import", dir.file("a.jtl"), "--db", db, "--format", "k6"}).code, 2);
    EXPECT_EQ(runs().size(), 1u);  // the good file's run alone
}

// Files that ran away on earlier code: one absurd timestamp beside real rows made decades of
// empty ticks, a huge one overflowed; now refused naming the line, or allowed by --max-span.
TEST_F(ImportCli, ImplausibleTimesAndLongSpansAreRefusedNamingTheLine) {
    const std::string head = "timeStamp,elapsed,label,responseCode,success\n";
    const std::string ok_line = "1772366400000,5,a,200,true\n";  // 2026-03-01 12:00:00 UTC
    const BadFile cases[] = {
        {"zero.jtl", head + ok_line + "0,5,a,200,true\n",
         "line 3: timeStamp: 0 ms since the epoch is not a plausible time"},
        {"huge.jtl", head + ok_line + "9223372036854776,5,a,200,true\n",
         "line 3: timeStamp: \"9223372036854776\" ms is too large"},
        {"old.jtl", head + ok_line + "978307200000,5,a,200,true\n",
         "line 3: timeStamp: 2001-01-01 00:00:00 UTC makes the file span 9190.5 days"},
        {"future.json",
         R"({"timestamp":"2026-03-01T12:00:00Z","latency":5000,"code":200})"
         "\n"
         R"({"timestamp":"2226-03-01T12:00:00Z","latency":5000,"code":200})"
         "\n",
         "line 2: timestamp: "},
    };
    for (const auto& c : cases)
        expect_refused(c);
    EXPECT_FALSE(std::filesystem::exists(db));  // nothing stored

    // 20 s between two requests: over a 10 s limit, within a 30 s one.
    dir.write("span.jtl", head + ok_line + "1772366420000,5,a,200,true\n");
    const Output refused =
        perflab({"import", dir.file("span.jtl"), "--db", db, "--max-span", "10s"});
    EXPECT_EQ(refused.code, 2);
    EXPECT_NE(refused.err.find("line 3: timeStamp: "), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("give --max-span"), std::string::npos) << refused.err;
    const Output bad = perflab({"import", dir.file("span.jtl"), "--db", db, "--max-span", "long"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("--max-span: \"long\""), std::string::npos) << bad.err;
    const Output allowed =
        perflab({"import", dir.file("span.jtl"), "--db", db, "--max-span", "30s"});
    ASSERT_EQ(allowed.code, 0) << allowed.err;
    EXPECT_EQ(show(1)["summary"]["requests"], 2);
}

// What a killed vegeta leaves: its last line cut short. The requests before it are stored and
// the cut line is named, on stderr and in the run's notes.
TEST_F(ImportCli, ACutLastLineIsSkippedWithAWarning) {
    const std::string ok = R"({"timestamp":"2026-03-01T12:00:00Z","latency":5000,"code":200})";
    dir.write("cut.json", ok + "\n" + ok + "\n" + R"({"timestamp":"2026-03-01T12:00:0)");
    const Output out = perflab({"import", dir.file("cut.json"), "--db", db});
    ASSERT_EQ(out.code, 0) << out.err;
    EXPECT_NE(out.err.find("warning: line 3: cut short"), std::string::npos) << out.err;
    const json shown = show(1);
    EXPECT_EQ(shown["summary"]["requests"], 2);
    EXPECT_NE(shown["run"]["notes"].get<std::string>().find("line 3: cut short"), std::string::npos)
        << shown["run"].dump();
    const std::string head = "timeStamp,elapsed,label,responseCode,success\n";
    dir.write("cut.jtl", head + "1772366400000,5,a,200,true\n1772366400010,5,a,2");
    const Output jtl = perflab({"import", dir.file("cut.jtl"), "--db", db});
    ASSERT_EQ(jtl.code, 0) << jtl.err;
    EXPECT_NE(jtl.err.find("warning: line 3: cut short"), std::string::npos) << jtl.err;
}

// A tick holds the ops sent in it, not every op of the file: a label seen once in an hour
// is one op in one tick, not one in each of 3600.
TEST_F(ImportCli, TicksHoldOnlyTheOpsSentInThem) {
    std::string jtl = "timeStamp,elapsed,label,responseCode,success\n";
    for (int s = 0; s < 6; ++s)
        jtl +=
            std::to_string(1772366400000 + s * 1000) + ",5," + (s < 3 ? "a" : "b") + ",200,true\n";
    dir.write("two.jtl", jtl);
    ASSERT_EQ(perflab({"import", dir.file("two.jtl"), "--db", db}).code, 0);
    const Output out = perflab({"export", "1", "--db", db, "--format", "json"});
    ASSERT_EQ(out.code, 0) << out.err;
    const json ticks = json::parse(out.out)["ticks"];
    ASSERT_EQ(ticks.size(), 6u);
    for (size_t s = 0; s < 6; ++s) {
        SCOPED_TRACE(s);
        ASSERT_EQ(ticks[s]["ops"].size(), 1u) << ticks[s]["ops"].dump();
        EXPECT_TRUE(ticks[s]["ops"].contains(s < 3 ? "a" : "b"));
    }
}

// Two imports of one file at once: one run, the other told which (a UNIQUE hash, where a
// read before the insert let both through).
TEST_F(ImportCli, OneFileImportedTwiceAtOnceIsOneRun) {
    std::string jtl = "timeStamp,elapsed,label,responseCode,success\n";
    for (int i = 0; i < 200'000; ++i)
        jtl += std::to_string(1772366400000 + i) + ",5,a,200,true\n";
    dir.write("big.jtl", jtl);
    Process a({PERFLAB_BINARY, "import", dir.file("big.jtl"), "--db", db}, dir.file("a.out"),
              dir.file("a.err"));
    Process b({PERFLAB_BINARY, "import", dir.file("big.jtl"), "--db", db}, dir.file("b.out"),
              dir.file("b.err"));
    const int code_a = a.wait(), code_b = b.wait();
    EXPECT_EQ(std::min(code_a, code_b), 0)
        << read_file(dir.file("a.err")) << read_file(dir.file("b.err"));
    EXPECT_EQ(std::max(code_a, code_b), 2);
    const std::string refused = read_file(dir.file(code_a == 2 ? "a.err" : "b.err"));
    EXPECT_NE(refused.find("was imported already, as run 1"), std::string::npos) << refused;
    EXPECT_EQ(runs().size(), 1u);
}

// RFC 4180 as JMeter writes it: a quoted field across lines (blank ones too, and CRLF), a
// doubled quote, a quote inside an unquoted field; a quote never closed is named by the line
// it opened on, unless the file ends in it without a line end (a cut last line).
TEST_F(ImportCli, JtlFieldsFollowRfc4180) {
    const std::string head = "timeStamp,elapsed,label,responseCode,success,failureMessage\r\n";
    dir.write("multi.jtl",
              head +
                  "1772366400000,5,\"a, \"\"b\"\"\",200,false,\"Test failed: text "
                  "expected to equal /\r\n\r\n****** received  : [[[x]]]\r\n\r\n/\"\r\n"
                  "1772366400010,7,say \"hi\",200,true,\r\n");
    const Output out = perflab({"import", dir.file("multi.jtl"), "--db", db});
    ASSERT_EQ(out.code, 0) << out.err;
    json shown = show(1);
    EXPECT_EQ(shown["summary"]["requests"], 2);
    EXPECT_EQ(shown["summary"]["ops"]["a, \"b\""]["errors"], 1) << shown["summary"]["ops"].dump();
    EXPECT_EQ(shown["summary"]["ops"]["say \"hi\""]["count"], 1);
    EXPECT_EQ(shown["summary"]["errors"]["Test failed: text expected to equal /\n\n****** "
                                         "received  : [[[x]]]\n\n/"],
              1)
        << shown["summary"]["errors"].dump();

    const std::string open = head + "1772366400000,5,a,200,false,\"never closed\n";
    expect_refused({"open.jtl", open + "1772366400010,5,a,200,true,\n",
                    "line 2: a quoted field begun here is not closed by the end of the file"});
    dir.write("cut.jtl", head + "1772366400000,5,a,200,true,\n1772366400010,5,a,200,false,\"cut");
    const Output cut = perflab({"import", dir.file("cut.jtl"), "--db", db});
    ASSERT_EQ(cut.code, 0) << cut.err;
    EXPECT_NE(cut.err.find("warning: line 3: cut short"), std::string::npos) << cut.err;
}

// memtier's seconds have counts but no latencies: the CSV export leaves them empty, never 0,
// and Python's csv module reads rows as wide as the header.
TEST_F(ImportCli, SummaryOnlyRunExportsUnknownLatenciesEmpty) {
    const std::string memtier =
        std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/memtier/real-3s.json";
    ASSERT_EQ(perflab({"import", memtier, "--db", db}).code, 0);
    ASSERT_EQ(show(1)["run"]["summary_only"], true);
    const std::string csv = dir.file("ticks.csv");
    ASSERT_EQ(perflab({"export", "1", "--db", db, "--format", "csv", "-o", csv}).code, 0);
    static const char* kScript = R"py(
import csv, json, sys
with open(sys.argv[1], newline="") as f:
    rows = list(csv.reader(f))
header = rows[0]
latency = [i for i, name in enumerate(header) if name.endswith("_us")]
print(json.dumps({"widths": sorted({len(r) for r in rows}),
                  "ops": sum(int(r[header.index("ops")]) for r in rows[1:]),
                  "latency_columns": len(latency),
                  "latencies": sorted({r[i] for r in rows[1:] for i in latency})}))
)py";
    const Output read = run({"python3", "-c", kScript, csv});
    ASSERT_EQ(read.code, 0) << read.err;
    const json j = json::parse(read.out);
    EXPECT_EQ(j["widths"].size(), 1u) << j.dump();
    EXPECT_EQ(j["ops"], show(1)["summary"]["requests"]);
    EXPECT_GE(j["latency_columns"], 3);
    EXPECT_EQ(j["latencies"], json::array({""})) << j.dump();
}

}  // namespace
}  // namespace perflab::test
