// SPDX-License-Identifier: MIT
// Open model: each request's service time (from when it went out) beside its response time
// (from when it was due), as oha users asked (oha #211). One connection to a server that
// always takes 10 ms can serve 100 requests/s; at 150/s for 1 s the generator queues, so
// response times grow while service time stays the server's 10 ms. Both are stored and in `show`,
// the .hgrm and .hlog exports (which import back) and `compare`; a closed run has no service
// time, since there it is the latency.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "http_run_helpers.h"
#include "http_test_server.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

class ServiceTime : public ::testing::Test {
  protected:
    Output perflab(std::vector<std::string> args) {
        args.insert(args.begin(), PERFLAB_BINARY);
        args.push_back("--db");
        args.push_back(db_);
        return run(args, 60);
    }
    json shown(int id) {
        const auto out = perflab({"show", std::to_string(id), "--json"});
        EXPECT_EQ(out.code, 0) << out.err;
        return json::parse(out.out, nullptr, false);
    }
    void store(const json& spec) {
        dir_.write("spec.json", spec.dump());
        const auto out = perflab({"run", dir_.file("spec.json"), "-q"});
        ASSERT_EQ(out.code, 0) << out.err;
    }

    HttpTestServer server_;
    TempDir dir_;
    std::string db_ = dir_.file("runs.db");
};

// The "Total count" of an .hgrm footer; -1 without one.
long long hgrm_total(const std::string& text) {
    const std::string label = "Total count    =";
    const auto at = text.find(label);
    return at == std::string::npos ? -1 : std::stoll(text.substr(at + label.size()));
}

TEST_F(ServiceTime, OpenModelQueueingShowsAsResponseTimeAboveServiceTime) {
    server_.set_delay_ms(10);
    // 150 due over 1 s on one connection to a server that takes 10 ms each: however fast the
    // machine, the queue grows by a third of a request every 10 ms, and the phase ends when
    // the 150th is answered.
    auto spec = http_spec(server_.url("/"), {{{"rate", 150}, {"ops", 150}, {"concurrency", 1}}});
    spec["http"]["threads"] = 1;
    store(spec);
    const json s = shown(1)["summary"];
    ASSERT_TRUE(s.contains("service_us")) << s.dump();
    const uint64_t requests = s["requests"].get<uint64_t>();
    EXPECT_EQ(requests, 150u) << s.dump();
    EXPECT_EQ(server_.requests(), requests);
    const json& service = s["service_us"];
    const json& latency = s["latency_us"];
    // The server never answers in under 10 ms, so no request's service time is shorter.
    EXPECT_GE(service["min"].get<int64_t>(), 10'000) << service.dump();
    // A request waits for the one connection: its response time includes the wait, its
    // service time does not. Every request's response time is at least its service time.
    for (const char* p : {"p50", "p90", "p99", "max"})
        EXPECT_GE(latency[p].get<int64_t>(), service[p].get<int64_t>()) << p;
    // 150 due in 1 s, at most 100 served per second: the 149th, due at 0.99 s, is served no
    // sooner than 1.49 s.
    EXPECT_GT(latency["p99"].get<int64_t>(), 200'000) << latency.dump();
    EXPECT_LT(service["p50"].get<int64_t>(), 30'000) << service.dump();
    const json& op = s["ops"].begin().value();
    ASSERT_TRUE(op.contains("service_us")) << op.dump();
    EXPECT_EQ(op["service_us"]["p50"], service["p50"]);

    // Exports: the .hgrm of the service time holds every request; the .hlog imports back
    // with the same service time.
    const std::string hgrm = dir_.file("run.hgrm");
    ASSERT_EQ(perflab({"export", "1", "--format", "hgrm", "-o", hgrm}).code, 0);
    EXPECT_EQ(hgrm_total(read_file(dir_.file("run.service.hgrm"))), (long long)requests);
    EXPECT_EQ(hgrm_total(read_file(hgrm)), (long long)requests);
    const std::string hlog = dir_.file("run.hlog");
    ASSERT_EQ(perflab({"export", "1", "--format", "hlog", "-o", hlog}).code, 0);
    EXPECT_NE(read_file(hlog).find(".service,"), std::string::npos);
    const auto imported = perflab({"import", hlog});
    ASSERT_EQ(imported.code, 0) << imported.err;
    const json back = shown(2)["summary"];
    ASSERT_TRUE(back.contains("service_us")) << back.dump();
    for (const char* p : {"p50", "p99"})
        EXPECT_EQ(back["service_us"][p], service[p]) << p;

    // The text report has the line; compare has the rows.
    const auto text = perflab({"show", "1"});
    EXPECT_NE(text.out.find("Service Time"), std::string::npos) << text.out;
    const auto compared = perflab({"compare", "1", "2", "--json"});
    ASSERT_EQ(compared.code, 0) << compared.err;
    const json c = json::parse(compared.out, nullptr, false);
    ASSERT_TRUE(c["figures"].contains("service_p99_us")) << compared.out;
    EXPECT_EQ(c["figures"]["service_p99_us"]["values"][0].get<double>(),
              service["p99"].get<double>());
}

// An open phase's replies that come after the next, closed phase began still count their
// service time: every reply of the open phase has one, none of the closed phase's.
TEST_F(ServiceTime, AnOpenPhasesLateRepliesKeepTheirServiceTime) {
    server_.set_delay_ms(300);
    auto spec = http_spec(server_.url("/"),
                          {{{"rate", 50}, {"duration_s", 1}}, {{"concurrency", 2}, {"ops", 10}}});
    spec["tick_ms"] = 250;
    spec["http"]["threads"] = 1;
    const auto run = run_http(spec);
    uint64_t replies[2] = {0, 0}, served[2] = {0, 0};
    for (const auto& s : run.samples)
        for (const auto& [name, op] : s.ops) {
            replies[s.phase] += op.latency.count();
            served[s.phase] += op.service.count();
        }
    EXPECT_EQ(replies[0], 50u);
    EXPECT_EQ(served[0], 50u);
    EXPECT_EQ(replies[1], 10u);
    EXPECT_EQ(served[1], 0u);
}

TEST_F(ServiceTime, AClosedRunHasNone) {
    store(http_spec(server_.url("/"), {{{"concurrency", 2}, {"ops", 100}}}));
    const json s = shown(1)["summary"];
    EXPECT_EQ(s["requests"], 100);
    EXPECT_FALSE(s.contains("service_us")) << s.dump();
    EXPECT_FALSE(s["ops"].begin().value().contains("service_us"));
    const std::string hgrm = dir_.file("run.hgrm");
    ASSERT_EQ(perflab({"export", "1", "--format", "hgrm", "-o", hgrm}).code, 0);
    EXPECT_FALSE(std::filesystem::exists(dir_.file("run.service.hgrm")));
}

}  // namespace
}  // namespace perflab::test
