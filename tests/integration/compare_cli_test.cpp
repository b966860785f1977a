// SPDX-License-Identifier: MIT
// `perflab compare` tells a real difference from noise: runs against a loopback server that
// answers in 5 ms, then in 30 ms. Same against same is `same`; fast against slow is `worse`
// for the latencies, with the measured change inside its interval; --check exits 3 only for
// the slower one, also when the first run is the name's baseline.
//
// The fast path is 5 ms, not 0: at ~150 µs this machine's run-to-run drift (20% between two
// runs, seen) is a real difference between those runs, which a bootstrap over one run's
// ticks rightly calls real; comparing series (--repeat, ID,ID) is how noise between runs is
// judged. Against 5 ms, the same drift is under the 5% threshold. The slow path is far
// slower than the fast one's tail: a busy machine's timers have put a 1 ms server's p99 at
// 15 ms, which would hide a small slowdown in p99 (the verdict would rightly be `same`).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "http_run_helpers.h"
#include "http_test_server.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

class CompareCli : public ::testing::Test {
  protected:
    // 16 ticks of 250 ms at 200 requests/s.
    void store_run(int delay_ms) {
        server_.set_delay_ms(delay_ms);
        auto spec = http_spec(server_.url("/"), {{{"rate", 200}, {"duration_s", 4}}});
        spec["tick_ms"] = 250;
        spec["name"] = "compare me";
        dir_.write("spec.json", spec.dump());
        const auto out =
            run({PERFLAB_BINARY, "run", dir_.file("spec.json"), "--db", db_, "-q"}, 60);
        ASSERT_EQ(out.code, 0) << out.err;
    }
    Output perflab(std::vector<std::string> args) {
        args.insert(args.begin(), PERFLAB_BINARY);
        args.push_back("--db");
        args.push_back(db_);
        return run(args, 60);
    }
    json compared(std::vector<std::string> args) {
        args.insert(args.begin(), "compare");
        args.push_back("--json");
        const auto out = perflab(args);
        EXPECT_EQ(out.code, 0) << out.err;
        return json::parse(out.out, nullptr, false);
    }

    HttpTestServer server_;
    TempDir dir_;
    std::string db_ = dir_.file("runs.db");
};

TEST_F(CompareCli, TellsASlowerServerFromNoise) {
    store_run(5);
    store_run(5);
    store_run(30);

    const json same = compared({"1", "2"});
    ASSERT_TRUE(same.is_object());
    for (const char* figure : {"p50_us", "throughput"}) {
        const json& f = same["figures"][figure];
        ASSERT_TRUE(f.contains("verdict")) << figure;
        EXPECT_EQ(f["verdict"][0], "baseline");
        EXPECT_EQ(f["verdict"][1], "same") << figure << ": " << f.dump();
    }

    // The median is the server's; a 5 ms server's p99 on a loaded machine is the machine's
    // (20.7 ms seen under stress, its interval then spanning 0): it may not be told, but is
    // never better.
    const json slow = compared({"1", "3"});
    for (const char* figure : {"p50_us", "p99_us"}) {
        const json& f = slow["figures"][figure];
        const bool median = std::string(figure) == "p50_us";
        if (median) {
            EXPECT_EQ(f["verdict"][1], "worse") << figure << ": " << f.dump();
        } else {
            EXPECT_NE(f["verdict"][1], "better") << figure << ": " << f.dump();
        }
        const double delta = f["delta_pct"][1].get<double>();
        ASSERT_TRUE(f["ci_pct"][1].is_array()) << f.dump();
        EXPECT_LE(f["ci_pct"][1][0].get<double>(), delta) << f.dump();
        EXPECT_GE(f["ci_pct"][1][1].get<double>(), delta) << f.dump();
        if (median) {
            EXPECT_GT(f["ci_pct"][1][0].get<double>(), 0) << f.dump();
        }
        EXPECT_FALSE(f["higher_is_better"].get<bool>());
    }
    // The medians themselves say 25 ms more.
    const json& p50 = slow["figures"]["p50_us"]["values"];
    EXPECT_GT(p50[1].get<double>() - p50[0].get<double>(), 20'000) << p50.dump();

    EXPECT_EQ(perflab({"compare", "1", "3", "--check"}).code, 3);
    // Between two runs of the same server, a 5 ms path's p99 has moved 10% (5.56 → 6.14 ms,
    // seen): a shift of the whole run, which one run's ticks cannot tell from a real one.
    const auto fine =
        perflab({"compare", "1", "2", "--check", "--figures", "throughput,p50,error_rate"});
    EXPECT_EQ(fine.code, 0) << fine.out;
    EXPECT_NE(fine.out.find("check: no figure is worse"), std::string::npos) << fine.out;

    // Two fast runs pooled on one side, the slow one on the other.
    const json pooled = compared({"1,2", "3"});
    EXPECT_EQ(pooled["sides"][0], json::array({1, 2}));
    EXPECT_EQ(pooled["figures"]["p50_us"]["verdict"][1], "worse");

    // Against the baseline of the runs' name.
    EXPECT_EQ(perflab({"baseline", "1"}).code, 0);
    const auto check = perflab({"compare", "--baseline", "3", "--check"});
    EXPECT_EQ(check.code, 3) << check.out << check.err;
    // --check judges throughput, p50, p99 and error rate unless --figures says otherwise.
    EXPECT_NE(check.out.find("worse: p50_us"), std::string::npos) << check.out;
    const auto runs = json::parse(perflab({"runs", "--json"}).out, nullptr, false);
    ASSERT_TRUE(runs.is_array());
}

// A new run against its name's baseline, when the name has three or more earlier runs on this
// machine: their spread stands for the run-to-run noise one new run cannot show. The
// interval widens; a real slowdown stays worse.
TEST_F(CompareCli, TheBaselinesHistoryGivesARunItsRunToRunNoise) {
    for (int i = 0; i < 4; ++i)
        store_run(5);
    store_run(30);
    EXPECT_EQ(perflab({"baseline", "1"}).code, 0);

    const json alone = compared({"1", "4"});
    EXPECT_EQ(alone["scope"], "within-run");
    const json same = compared({"--baseline", "4"});
    EXPECT_EQ(same["scope"], "history") << same.dump();
    EXPECT_EQ(same["noise_runs"], json::array({3, 2, 1}));
    // (Not throughput: at a fixed rate the runs' throughputs hardly differ.)
    EXPECT_EQ(same["figures"]["throughput"]["verdict"][1], "same") << same.dump();
    for (const char* figure : {"p50_us", "p99_us"}) {
        const json& f = same["figures"][figure];
        const json& without = alone["figures"][figure]["ci_pct"][1];
        const json& with = f["ci_pct"][1];
        ASSERT_TRUE(without.is_array() && with.is_array()) << figure << same.dump();
        const double lo = with[0].get<double>(), hi = with[1].get<double>();
        EXPECT_GT(hi - lo, without[1].get<double>() - without[0].get<double>()) << figure;
        // The median is the server's 5 ms in every run. A 5 ms server's p99 is the machine's:
        // CI saw three runs at 9.0-9.6 ms and a fourth, once the machine had quietened, at
        // 6.3 ms, a real change the history had not seen. Its verdict is the interval's.
        if (std::string(figure) == "p50_us") {
            EXPECT_EQ(f["verdict"][1], "same") << figure << same.dump();
        } else {
            // (5%: compare's default threshold.)
            const bool told =
                !(lo <= 0 && hi >= 0) && std::abs(f["delta_pct"][1].get<double>()) >= 5;
            EXPECT_EQ(f["verdict"][1] != "same", told) << figure << same.dump();
        }
    }
    const auto text = perflab({"compare", "--baseline", "4"});
    EXPECT_NE(text.out.find("Run-to-run noise from 3 earlier runs of this name on this machine "
                            "(3,2,1)"),
              std::string::npos)
        << text.out;

    const json slow = compared({"--baseline", "5"});
    EXPECT_EQ(slow["noise_runs"], json::array({4, 3, 2, 1}));
    EXPECT_EQ(slow["figures"]["p50_us"]["verdict"][1], "worse") << slow.dump();
}

TEST_F(CompareCli, BadFiguresAndIdsAreBadInput) {
    store_run(5);
    store_run(5);
    const auto figure = perflab({"compare", "1", "2", "--check", "--figures", "p98"});
    EXPECT_EQ(figure.code, 2);
    EXPECT_NE(figure.err.find("unknown figure \"p98\""), std::string::npos) << figure.err;
    const auto ids = perflab({"compare", "1", "2,x"});
    EXPECT_EQ(ids.code, 2);
    EXPECT_NE(ids.err.find("\"2,x\""), std::string::npos) << ids.err;
    const auto none = perflab({"compare", "--baseline", "2"});
    EXPECT_EQ(none.code, 2);
    EXPECT_NE(none.err.find("no baseline for runs named \"compare me\""), std::string::npos)
        << none.err;
}

}  // namespace
}  // namespace perflab::test
