// SPDX-License-Identifier: MIT
// JMeter itself (Debian's 2.13) runs tests/fixtures/jmeter/two-pages.jmx against a real nginx;
// `perflab import` stores its JTL, whose counts, errors and percentiles this test computes
// again from the JTL's own rows, and whose requests nginx counted.
#include <gtest/gtest.h>

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

TEST(ImportJmeter, JmetersOwnJtlOfARunAgainstNginx) {
    NginxServer nginx;
    TempDir dir;
    const std::string jtl = dir.file("out.jtl");
    // The JTL in CSV with its header, as JMeter 3 and later write it by default; no shutdown
    // port, so tests running side by side do not compete for 4445.
    const Output jmeter =
        run({"java", "-Djmeter.home=" JMETER_HOME, "-cp", JMETER_HOME "/bin/ApacheJMeter.jar",
             kFixtures + "PerflabJMeter.java", "-n", "-t", kFixtures + "two-pages.jmx", "-l", jtl,
             "-j", dir.file("jmeter.log"), "-Jport=" + std::to_string(nginx.port()),
             "-Jjmeter.save.saveservice.output_format=csv",
             "-Jjmeter.save.saveservice.print_field_names=true", "-Jjmeterengine.nongui.port=0"},
            90);
    ASSERT_EQ(jmeter.code, 0) << jmeter.out << jmeter.err << read_file(dir.file("jmeter.log"));
    const auto expected = expected_from(read_file(jtl));
    ASSERT_EQ(expected.size(), 2u);
    ASSERT_EQ(expected.at("static").latencies_us.size(), 200u);  // 4 users, 50 loops
    EXPECT_EQ(expected.at("static").errors, 0u);
    EXPECT_EQ(expected.at("missing").errors, 200u);  // nginx's 404
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

}  // namespace
}  // namespace perflab::test
