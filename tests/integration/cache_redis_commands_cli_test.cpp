// SPDX-License-Identifier: MIT
// `perflab run` with cache.commands, as a user runs it: each bad command is bad input (exit 2)
// named by its index and what is wrong; a run whose commands the server refuses completes
// with their errors by kind, each command an op of its own in --json and in the tick lines.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_run.h"
#include "process.h"
#include "redis_server.h"

namespace perflab::test {
namespace {

using nlohmann::json;
constexpr auto npos = std::string::npos;

json spec_for(const std::string& server, json commands) {
    return {{"name", "redis commands cli"},
            {"kind", "cache"},
            {"tick_ms", 200},
            {"phases", {{{"ops", 1000}, {"concurrency", 2}}}},
            {"cache",
             {{"servers", {server}},
              {"protocol", "redis"},
              {"commands", std::move(commands)},
              {"keys", {{"count", 100}}},
              {"pipeline", 8}}}};
}

struct BadCase {
    std::string what;
    json spec;
    std::string says;
};

std::vector<BadCase> bad_cases() {
    const std::string server = "127.0.0.1:1";
    const json hset = {{"cmd", "HSET {{key}} f {{value}}"}};
    const auto with = [&](json command) { return spec_for(server, {hset, std::move(command)}); };
    std::vector<BadCase> cases = {
        {"empty cmd", with({{"cmd", ""}}), "cache.commands[1].cmd: empty"},
        {"blank cmd", with({{"cmd", " \t "}}), "cache.commands[1].cmd: empty"},
        {"no cmd", with({{"weight", 2}}), "cache.commands[1].cmd: required"},
        {"unbalanced braces", with({{"cmd", "HSET {{key f v"}}),
         R"(cache.commands[1].cmd: unclosed "{{")"},
        {"unknown template", with({{"cmd", "HSET {{key}} {{nope 1}} v"}}),
         R"(cache.commands[1].cmd: word 3 ({{nope 1}}): unknown template "nope")"},
        {"bad template arguments", with({{"cmd", "INCRBY k {{uniform 9 1}}"}}),
         "cache.commands[1].cmd: word 3 ({{uniform 9 1}}): uniform: expected two integers"},
        {"HTTP's template", with({{"cmd", "SET k {{csv users.csv name}}"}}),
         "cache.commands[1].cmd: word 3 ({{csv users.csv name}}): {{csv}} is not available in "
         "a Redis command"},
        {"weight 0", with({{"cmd", "INCR k"}, {"weight", 0}}),
         "cache.commands[1].weight: must be between 1 and 1000000, got 0"},
        {"negative weight", with({{"cmd", "INCR k"}, {"weight", -3}}),
         "cache.commands[1].weight: must be between 1 and 1000000, got -3"},
        {"weight not a number", with({{"cmd", "INCR k"}, {"weight", "3"}}),
         "cache.commands[1].weight: expected an integer, got string"},
        {"whitespace word", with({{"cmd", "SET k \" \""}}),
         "cache.commands[1].cmd: word 3 is empty or only whitespace"},
        {"unclosed quote", with({{"cmd", "SET k \"v"}}), "cache.commands[1].cmd: unclosed quote"},
        {"templated command name", with({{"cmd", "{{pick GET|DEL}} k"}}),
         "cache.commands[1].cmd: word 1 ({{pick GET|DEL}}): the command's name cannot be a "
         "template"},
        {"same name twice", with({{"cmd", "INCR k"}, {"name", "hits"}}), ""},
        {"empty commands", spec_for(server, json::array()),
         "cache.commands: expected a non-empty array"},
        {"a command not an object", spec_for(server, {"INCR k"}),
         "cache.commands[0]: expected an object, got string"},
    };
    // Two commands of one name.
    cases[13].spec["cache"]["commands"][0]["name"] = "hits";
    cases[13].says = R"(cache.commands[1].name: "hits" names commands[0] already)";

    json memcached = spec_for(server, {hset});
    memcached["cache"]["protocol"] = "text";
    cases.push_back({"memcached", memcached, R"(cache.commands: is for "protocol": "redis")"});
    json workload = spec_for(server, {hset});
    workload["cache"]["workload"] = "ratio";
    cases.push_back({"beside a workload", workload,
                     "cache.workload: cache.commands replace the workload: give one or the other"});
    json phase = spec_for(server, {hset});
    phase["phases"][0]["commands"] = json::array({hset});
    cases.push_back(
        {"in a phase", phase, "phases[0].commands: a phase cannot change the commands"});
    json phase_workload = spec_for(server, {hset});
    phase_workload["phases"][0]["workload"] = "get-only";
    cases.push_back({"a phase's workload", phase_workload,
                     "phases[0].workload: the run sends cache.commands, which replace the "
                     "workload"});
    json cluster = spec_for(server, {hset});
    cluster["cache"]["redis"] = {{"cluster", true}};
    cases.push_back({"on a Redis Cluster", cluster,
                     "cache.commands: not with a Redis Cluster (an op's slot would be its key's, "
                     "which a command need not have)"});
    return cases;
}

TEST(RedisCommandsCli, EachBadCommandExits2NamingIt) {
    for (const auto& c : bad_cases()) {
        const auto r = perflab_run(c.spec);
        EXPECT_EQ(r.code, 2) << c.what << ":\n" << r.err;
        EXPECT_NE(r.err.find(c.says), npos) << c.what << ": \"" << c.says << "\" not in:\n"
                                            << r.err;
    }
}

// Every op of an unknown command fails with ERR: the run still completes as any run whose ops
// failed does, each command an op of its own in --json, its rate in each tick line.
TEST(RedisCommandsCli, ErrorRepliesAreARunsErrorsByKind) {
    RedisServer server;
    const auto r = perflab_run(
        spec_for(server.endpoint(), {{{"cmd", "FOO {{key}}"}}, {{"cmd", "INCR n"}, {"weight", 3}}}),
        {"--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json out = json::parse(r.out);
    const uint64_t foo = out["ops"]["foo"]["count"].get<uint64_t>();
    EXPECT_GT(foo, 0u);
    EXPECT_EQ(out["ops"]["foo"]["errors"], foo);
    EXPECT_EQ(out["errors"]["ERR"], foo) << out["errors"].dump();
    EXPECT_EQ(out["ops"]["incr"]["errors"], 0);
    EXPECT_EQ(out["ops"]["incr"]["count"].get<uint64_t>(), server.calls("incr"));
    EXPECT_EQ(server.cli({"GET", "n"}), std::to_string(server.calls("incr")) + "\n");
    EXPECT_FALSE(out["ops"].contains("get")) << out["ops"].dump();
    EXPECT_TRUE(out["hits"].is_null());
    EXPECT_NE(r.err.find(" foo/s:"), npos) << r.err;
    EXPECT_NE(r.err.find(" incr/s:"), npos) << r.err;
}

// A stored run of commands: show (text and --json) and the CSV and Markdown exports tell each
// command's figures under its name, as they tell a workload's get and set.
TEST(RedisCommandsCli, AStoredRunTellsEachCommandWhereOpsAre) {
    RedisServer server;
    TempDir dir;
    const std::string db = dir.file("runs.db");
    dir.write("spec.json", spec_for(server.endpoint(), {{{"cmd", "HSET {{key}} f {{value}}"}},
                                                        {{"cmd", "NOPE {{key}}"}}})
                               .dump());
    const auto r = run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db});
    ASSERT_EQ(r.code, 0) << r.err;
    // The run's own text.
    EXPECT_NE(r.out.find("  hset "), npos) << r.out;
    EXPECT_NE(r.out.find("error ERR: "), npos) << r.out;
    const auto show = run({PERFLAB_BINARY, "show", "1", "--db", db, "--json"});
    ASSERT_EQ(show.code, 0) << show.err;
    const json j = json::parse(show.out)["summary"];
    EXPECT_EQ(j["ops"]["hset"]["count"].get<uint64_t>(), server.calls("hset")) << show.out;
    EXPECT_GT(j["ops"]["nope"]["errors"].get<uint64_t>(), 0u);
    EXPECT_EQ(j["ops"]["nope"]["errors"], j["ops"]["nope"]["count"]);
    const auto text = run({PERFLAB_BINARY, "show", "1", "--db", db});
    EXPECT_NE(text.out.find("  nope "), npos) << text.out;
    const auto csv = run({PERFLAB_BINARY, "export", "1", "--db", db, "--format", "csv"});
    ASSERT_EQ(csv.code, 0) << csv.err;
    for (const char* column : {"hset_count", "hset_p99_us", "nope_errors"})
        EXPECT_NE(csv.out.substr(0, csv.out.find('\n')).find(column), npos) << column;
    const auto md = run({PERFLAB_BINARY, "export", "1", "--db", db, "--format", "md"});
    ASSERT_EQ(md.code, 0) << md.err;
    EXPECT_NE(md.out.find("hset"), npos);
    EXPECT_NE(md.out.find("nope"), npos);
}

}  // namespace
}  // namespace perflab::test
