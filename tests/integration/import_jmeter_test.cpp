// SPDX-License-Identifier: MIT
// JMeter itself (Debian's 2.13) runs the plans in tests/fixtures/jmeter/ against a real nginx;
// `perflab import` stores its JTL, whose counts, errors and percentiles this test computes
// again from the JTL's own rows (Python's csv module reads the RFC 4180 ones), and whose
// requests nginx counted.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "import_helpers.h"
#include "nginx_server.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

const std::string kFixtures = std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/jmeter/";

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> fields;
    std::stringstream in(line);
    for (std::string field; std::getline(in, field, ',');)
        fields.push_back(field);
    return fields;
}

// Per label, from the JTL's CSV rows (the plan's labels and messages hold no comma).
std::map<std::string, Expected> expected_from(const std::string& jtl) {
    std::stringstream in(jtl);
    std::string line;
    std::getline(in, line);
    std::map<std::string, size_t> column;
    const auto header = split(line);
    for (size_t i = 0; i < header.size(); ++i)
        column[header[i]] = i;
    std::map<std::string, Expected> out;
    while (std::getline(in, line)) {
        const auto row = split(line);
        Expected& e = out[row.at(column.at("label"))];
        e.latencies_us.push_back(std::stoll(row.at(column.at("elapsed"))) * 1000);
        e.errors += row.at(column.at("success")) != "true";
    }
    return out;
}

// Runs `plan` against nginx, writing `jtl`. The JTL in CSV with its header and assertion
// failure messages, as JMeter 3 and later write it by default; no shutdown port, so tests
// running side by side do not compete for 4445. `properties` adds -J settings.
void run_jmeter(const NginxServer& nginx, const TempDir& dir, const std::string& plan,
                const std::string& jtl, const std::vector<std::string>& properties = {}) {
    std::vector<std::string> args = {
        "java",
        "-Djmeter.home=" JMETER_HOME,
        "-cp",
        JMETER_HOME "/bin/ApacheJMeter.jar",
        kFixtures + "PerflabJMeter.java",
        "-n",
        "-t",
        kFixtures + plan,
        "-l",
        jtl,
        "-j",
        dir.file("jmeter.log"),
        "-Jport=" + std::to_string(nginx.port()),
        "-Jjmeter.save.saveservice.output_format=csv",
        "-Jjmeter.save.saveservice.print_field_names=true",
        "-Jjmeter.save.saveservice.assertion_results_failure_message=true",
        "-Jjmeterengine.nongui.port=0"};
    args.insert(args.end(), properties.begin(), properties.end());
    const Output jmeter = run(args, 90);
    ASSERT_EQ(jmeter.code, 0) << jmeter.out << jmeter.err << read_file(dir.file("jmeter.log"));
}

TEST(ImportJmeter, JmetersOwnJtlOfARunAgainstNginx) {
    NginxServer nginx;
    TempDir dir;
    const std::string jtl = dir.file("out.jtl");
    ASSERT_NO_FATAL_FAILURE(run_jmeter(nginx, dir, "two-pages.jmx", jtl));
    const auto expected = expected_from(read_file(jtl));
    ASSERT_EQ(expected.size(), 2u);
    ASSERT_EQ(expected.at("static").latencies_us.size(), 200u);  // 4 users, 50 loops
    EXPECT_EQ(expected.at("static").errors, 0u);
    EXPECT_EQ(expected.at("missing").errors, 200u);  // nginx's 404, no assertion
    EXPECT_EQ(nginx.wait_for_requests(400), 400u);

    const std::string db = dir.file("runs.db");
    const Output imported = perflab({"import", jtl, "--db", db});
    ASSERT_EQ(imported.code, 0) << imported.err;
    EXPECT_NE(imported.err.find("400 requests from jtl results"), std::string::npos)
        << imported.err;
    const Output shown = perflab({"show", "1", "--db", db, "--json"});
    ASSERT_EQ(shown.code, 0) << shown.err;
    const json report = json::parse(shown.out);
    EXPECT_EQ(report["run"]["status"], "imported");
    EXPECT_EQ(report["run"]["summary_only"], false);
    for (const auto& [label, e] : expected)
        expect_op(report["summary"]["ops"], label, e);
}

// The JTL's figures as Python's csv module reads them (RFC 4180, the delimiter the header
// has): per label of a request, its latencies, failures, statuses and failure messages; the
// Transaction Controller's rows (no responseCode, "Number of samples in transaction" in
// responseMessage) apart, with their elapsed times and their count per second of the run (the
// second each was sent in, from the first second any row was sent in); bytes and the first and
// last request sent (ms); whether the file has a sentBytes column.
json jtl_figures(const std::string& jtl) {
    static const char* kScript = R"py(
import csv, json, sys
with open(sys.argv[1], newline="") as f:
    header = f.readline()
    f.seek(0)
    rows = list(csv.DictReader(f, delimiter="\t" if "\t" in header else ","))
out = {"labels": {}, "transactions": {}, "bytes": 0, "codes": {}, "failures": {}, "sent": [],
       "sent_bytes_column": "sentBytes" in rows[0]}
first_s = min(int(r["timeStamp"]) // 1000 for r in rows)
for r in rows:
    if r["responseCode"] == "" and r["responseMessage"].startswith("Number of samples in transaction"):
        t = out["transactions"].setdefault(r["label"], {"count": 0, "failed": 0, "elapsed_ms": [], "per_second": {}})
        t["count"] += 1
        t["failed"] += r["success"] != "true"
        t["elapsed_ms"].append(int(r["elapsed"]))
        second = str(int(r["timeStamp"]) // 1000 - first_s)
        t["per_second"][second] = t["per_second"].get(second, 0) + 1
        continue
    l = out["labels"].setdefault(r["label"], {"elapsed_ms": [], "errors": 0, "passed_404": 0})
    l["elapsed_ms"].append(int(r["elapsed"]))
    l["errors"] += r["success"] != "true"
    l["passed_404"] += r["success"] == "true" and r["responseCode"] == "404"
    out["bytes"] += int(r["bytes"])
    out["codes"][r["responseCode"]] = out["codes"].get(r["responseCode"], 0) + 1
    if r["failureMessage"]:
        out["failures"][r["failureMessage"]] = out["failures"].get(r["failureMessage"], 0) + 1
    out["sent"].append(int(r["timeStamp"]))
out["first_ms"], out["last_ms"] = min(out["sent"]), max(out["sent"])
del out["sent"]
print(json.dumps(out))
)py";
    const Output figures = run({"python3", "-c", kScript, jtl});
    EXPECT_EQ(figures.code, 0) << figures.err;
    return json::parse(figures.out);
}

// The per-tick CSV export read back by Python's csv module: every row as wide as the header,
// and its columns summed.
json csv_export_sums(const std::string& csv) {
    static const char* kScript = R"py(
import csv, json, sys
with open(sys.argv[1], newline="") as f:
    rows = list(csv.reader(f))
header, body = rows[0], rows[1:]
widths = sorted({len(r) for r in body})
sums = {name: sum(int(r[i]) for r in body if r[i] != "")
        for i, name in enumerate(header)
        if name in ("ops", "errors", "bytes_in", "sent") or name.endswith(("_count", "_errors"))}
filled = {name: sum(r[i] != "" for r in body) for i, name in enumerate(header)}
print(json.dumps({"header": header, "widths": widths, "sums": sums, "filled": filled,
                  "rows": len(body)}))
)py";
    const Output sums = run({"python3", "-c", kScript, csv});
    EXPECT_EQ(sums.code, 0) << sums.err;
    return json::parse(sums.out);
}

// A Transaction Controller around three requests: a 200, a 200 that a Response Assertion
// "Equals" fails (its message spans lines, so the JTL's field does), and a 404 that "Ignore
// status" passes. The transactions are no requests but a stored series of their own; JMeter's
// verdict is the success; rates of the labels sum to the run's, over its attack; the CSV export
// quotes the label with a comma.
TEST(ImportJmeter, TransactionsAssertionsAndIgnoredStatusAsJmeterCountsThem) {
    NginxServer nginx;
    TempDir dir;
    const std::string jtl = dir.file("out.jtl");
    ASSERT_NO_FATAL_FAILURE(run_jmeter(nginx, dir, "transactions.jmx", jtl));
    json jmeter = jtl_figures(jtl);
    // 2 users, 25 loops: each label 50 times, the transaction too.
    ASSERT_EQ(jmeter["labels"].size(), 3u) << jmeter.dump();
    for (const char* label : {"static", "ok, checked", "gone"})
        ASSERT_EQ(jmeter["labels"][label]["elapsed_ms"].size(), 50u) << label;
    ASSERT_EQ(jmeter["transactions"]["page"]["count"], 50);
    EXPECT_EQ(jmeter["transactions"]["page"]["failed"], 50);  // each holds the failed assertion
    EXPECT_EQ(jmeter["labels"]["gone"]["passed_404"], 50);
    EXPECT_EQ(jmeter["labels"]["ok, checked"]["errors"], 50);
    ASSERT_EQ(jmeter["failures"].size(), 1u);
    const std::string failure = jmeter["failures"].begin().key();
    EXPECT_NE(failure.find('\n'), std::string::npos) << failure;
    // What nginx served: the requests, not the transactions.
    EXPECT_EQ(nginx.wait_for_requests(150), 150u);
    EXPECT_EQ(nginx.requests_to("/static.bin"), 50u);
    EXPECT_EQ(nginx.requests_to("/ok"), 50u);
    EXPECT_EQ(nginx.requests_to("/missing"), 50u);

    const std::string db = dir.file("runs.db");
    const Output imported = perflab({"import", jtl, "--db", db});
    ASSERT_EQ(imported.code, 0) << imported.err;
    EXPECT_NE(imported.err.find("150 requests from jtl results"), std::string::npos)
        << imported.err;
    EXPECT_NE(imported.err.find("50 Transaction Controller rows are transactions, not requests"),
              std::string::npos)
        << imported.err;
    EXPECT_NE(imported.err.find("page 50 (50 failed"), std::string::npos) << imported.err;
    EXPECT_NE(imported.err.find("success is JMeter's verdict (its success column): 50 responses "
                                "with a status outside 200-399 that it passed count as successes"),
              std::string::npos)
        << imported.err;

    const Output shown = perflab({"show", "1", "--db", db, "--json"});
    ASSERT_EQ(shown.code, 0) << shown.err;
    const json report = json::parse(shown.out);
    json summary = report["summary"];
    EXPECT_NE(report["run"]["notes"].get<std::string>().find("Transaction Controller"),
              std::string::npos);
    EXPECT_EQ(summary["requests"], 150);
    EXPECT_FALSE(summary["ops"].contains("page")) << summary["ops"].dump();
    uint64_t failed = 0;
    for (const auto& [label, figures] : jmeter["labels"].items()) {
        Expected e;
        for (const auto& ms : figures["elapsed_ms"])
            e.latencies_us.push_back(ms.get<int64_t>() * 1000);
        e.errors = figures["errors"].get<uint64_t>();
        failed += e.errors;
        expect_op(summary["ops"], label, e);
    }
    EXPECT_DOUBLE_EQ(summary["success"].get<double>(), double(150 - failed) / 150);
    EXPECT_EQ(summary["bytes_in"]["total"], jmeter["bytes"]);
    // JMeter 2.13 records no bytes sent (its sentBytes column came in 3.1): unknown, not 0.
    ASSERT_FALSE(jmeter["sent_bytes_column"].get<bool>());
    EXPECT_TRUE(summary["bytes_out"]["total"].is_null()) << summary["bytes_out"].dump();
    EXPECT_TRUE(summary["bytes_out"]["mean"].is_null()) << summary["bytes_out"].dump();
    EXPECT_EQ(summary["status_codes"], (json{{"200", 100}, {"404", 50}}));
    EXPECT_EQ(summary["errors"][failure], 50) << summary["errors"].dump();
    // The rate over the attack, the first request sent to the last, and the labels' rates over
    // the same span.
    const double attack_s =
        double(jmeter["last_ms"].get<int64_t>() - jmeter["first_ms"].get<int64_t>()) / 1000;
    ASSERT_GT(attack_s, 0);
    EXPECT_NEAR(summary["rate"].get<double>(), 150 / attack_s, 1e-9 * 150 / attack_s);
    double labels_rate = 0;
    for (const auto& [label, op] : summary["ops"].items())
        labels_rate += op["rate"].get<double>();
    EXPECT_NEAR(labels_rate, summary["rate"].get<double>(), 1e-9 * labels_rate);

    const std::string csv = dir.file("ticks.csv");
    const Output exported = perflab({"export", "1", "--db", db, "--format", "csv", "-o", csv});
    ASSERT_EQ(exported.code, 0) << exported.err;
    json sums = csv_export_sums(csv);
    EXPECT_EQ(sums["widths"], json::array({sums["header"].size()})) << sums.dump();
    EXPECT_NE(std::find(sums["header"].begin(), sums["header"].end(), "ok, checked_count"),
              sums["header"].end())
        << sums["header"].dump();
    EXPECT_EQ(sums["sums"]["ops"], summary["requests"]);
    EXPECT_EQ(sums["sums"]["errors"], failed);
    EXPECT_EQ(sums["sums"]["bytes_in"], summary["bytes_in"]["total"]);
    EXPECT_EQ(sums["filled"]["bytes_in"], sums["rows"]);
    EXPECT_EQ(sums["filled"]["bytes_out"], 0);
    for (const auto& [label, op] : summary["ops"].items()) {
        EXPECT_EQ(sums["sums"][label + "_count"], op["count"]) << label;
        EXPECT_EQ(sums["sums"][label + "_errors"], op["errors"]) << label;
    }
    EXPECT_EQ(sums["sums"]["transaction page_count"], jmeter["transactions"]["page"]["count"]);
    EXPECT_EQ(sums["sums"]["transaction page_errors"], jmeter["transactions"]["page"]["failed"]);

    // The Transaction Controller's rows as a series of their own: show gives each label's
    // count, failures and latencies as the JTL's rows have them, and the stored ticks (the JSON
    // export's) hold them in the seconds they were sent in, their counts summing to the JTL's
    // rows.
    const json& page = jmeter["transactions"]["page"];
    ASSERT_EQ(report["transactions"].size(), 1u) << report["transactions"].dump();
    Expected e;
    for (const auto& ms : page["elapsed_ms"])
        e.latencies_us.push_back(ms.get<int64_t>() * 1000);
    e.errors = page["failed"].get<uint64_t>();
    expect_op(report["transactions"], "page", e);
    const Output text = perflab({"show", "1", "--db", db});
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("Transactions (not requests"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("| page | 50 | 50 |"), std::string::npos) << text.out;
    const std::string run_json = dir.file("run.json");
    const Output wrote = perflab({"export", "1", "--db", db, "--format", "json", "-o", run_json});
    ASSERT_EQ(wrote.code, 0) << wrote.err;
    json stored = json::object();
    uint64_t count = 0;
    const json whole = json::parse(read_file(run_json));
    for (const auto& tick : whole["ticks"]) {
        EXPECT_FALSE(tick["ops"].contains("page")) << tick.dump();
        if (!tick.contains("transactions")) continue;
        const json& t = tick["transactions"]["page"];
        stored[std::to_string(tick["t_ms"].get<int64_t>() / 1000 - 1)] = t["count"];
        count += t["count"].get<uint64_t>();
    }
    EXPECT_EQ(count, page["count"].get<uint64_t>());
    EXPECT_EQ(stored, page["per_second"]);
}

// JMeter's default_delimiter set to a tab: the delimiter is the header's. XML results are
// refused saying how to save CSV, whether the format was told from the file or given.
TEST(ImportJmeter, TabDelimitedJtlReadsAndXmlIsRefusedSayingHowToSaveCsv) {
    NginxServer nginx;
    TempDir dir;
    const std::string tabs = dir.file("tabs.jtl");
    ASSERT_NO_FATAL_FAILURE(run_jmeter(nginx, dir, "transactions.jmx", tabs,
                                       {"-Jjmeter.save.saveservice.default_delimiter=\\t"}));
    ASSERT_NE(read_file(tabs).find("timeStamp\telapsed\tlabel"), std::string::npos);
    json jmeter = jtl_figures(tabs);
    const std::string db = dir.file("runs.db");
    const Output imported = perflab({"import", tabs, "--db", db});
    ASSERT_EQ(imported.code, 0) << imported.err;
    json summary = json::parse(perflab({"show", "1", "--db", db, "--json"}).out)["summary"];
    EXPECT_EQ(summary["requests"], 150);
    ASSERT_EQ(summary["ops"].size(), 3u) << summary["ops"].dump();
    for (const auto& [label, figures] : jmeter["labels"].items()) {
        Expected e;
        for (const auto& ms : figures["elapsed_ms"])
            e.latencies_us.push_back(ms.get<int64_t>() * 1000);
        e.errors = figures["errors"].get<uint64_t>();
        expect_op(summary["ops"], label, e);
    }

    const std::string xml = dir.file("results.jtl");
    ASSERT_NO_FATAL_FAILURE(run_jmeter(nginx, dir, "two-pages.jmx", xml,
                                       {"-Jjmeter.save.saveservice.output_format=xml"}));
    ASSERT_EQ(read_file(xml).rfind("<?xml", 0), 0u);
    for (const auto& format : {"auto", "jtl"}) {
        const Output refused = perflab({"import", xml, "--db", db, "--format", format});
        EXPECT_EQ(refused.code, 2) << format;
        EXPECT_NE(refused.err.find("line 1: XML results are not supported; save as CSV "
                                   "(jmeter.save.saveservice.output_format=csv)"),
                  std::string::npos)
            << refused.err;
    }
}

}  // namespace
}  // namespace perflab::test
