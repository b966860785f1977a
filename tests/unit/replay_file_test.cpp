// SPDX-License-Identifier: MIT
// The replay file's format, and the cache spec's multiget and replay keys.
#include "model/replay_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "model/run_plan.h"
#include "model/spec.h"

namespace perflab {
namespace {

using nlohmann::json;

std::string error_of(std::string_view text) {
    const auto loaded = ReplayFile::parse(text, "ops.txt");
    return loaded.file ? std::string() : loaded.error;
}

TEST(ReplayFile, ReadsOpsWithoutTimestamps) {
    const auto loaded = ReplayFile::parse(
        "# recorded on host a\nget user:1\n\nset user:2 512\r\n  get\tuser:3  \nset k 0\n",
        "ops.txt");
    ASSERT_TRUE(loaded.file) << loaded.error;
    const auto& f = *loaded.file;
    ASSERT_EQ(f.size(), 4u);
    EXPECT_FALSE(f.timed());
    EXPECT_EQ(f.gets(), 2u);
    EXPECT_EQ(f.sets(), 2u);
    EXPECT_EQ(f.key(0), "user:1");
    EXPECT_FALSE(f.is_set(0));
    EXPECT_EQ(f.key(1), "user:2");
    EXPECT_TRUE(f.is_set(1));
    EXPECT_EQ(f.value_bytes(1), 512u);
    EXPECT_EQ(f.key(2), "user:3");
    EXPECT_EQ(f.value_bytes(3), 0u);
    EXPECT_EQ(f.max_value_bytes(), 512u);
    EXPECT_EQ(f.span_s(), 0.0);
}

TEST(ReplayFile, ReadsTimestampsAsOffsetsFromTheFirst) {
    const auto loaded =
        ReplayFile::parse("1733043600.5 get a\n1733043600.75 set b 10\n1733043602.5 get a\n", "f");
    ASSERT_TRUE(loaded.file) << loaded.error;
    const auto& f = *loaded.file;
    EXPECT_TRUE(f.timed());
    EXPECT_DOUBLE_EQ(f.offset_s(0), 0.0);
    EXPECT_DOUBLE_EQ(f.offset_s(1), 0.25);
    EXPECT_DOUBLE_EQ(f.offset_s(2), 2.0);
    EXPECT_DOUBLE_EQ(f.span_s(), 2.0);
}

TEST(ReplayFile, NamesTheBadLine) {
    EXPECT_EQ(error_of("get a\nput b 3\n"),
              "ops.txt line 2: expected \"[TIMESTAMP] get KEY\" or \"[TIMESTAMP] set KEY SIZE\", "
              "got \"put b 3\"");
    EXPECT_EQ(error_of("get a\n# c\n\nset b\n").substr(0, 14), "ops.txt line 4");
    EXPECT_EQ(error_of("set b 2000000\n"),
              "ops.txt line 1: size \"2000000\" is not a byte count up to 1048576");
    EXPECT_EQ(error_of("set b -1\n").substr(0, 20), "ops.txt line 1: size");
    EXPECT_EQ(error_of("get a b\n").substr(0, 24), "ops.txt line 1: expected");
    EXPECT_EQ(error_of("get " + std::string(251, 'k') + "\n").substr(0, 19), "ops.txt line 1: key");
    EXPECT_EQ(error_of("1.0 get a\nget b\n"),
              "ops.txt line 2: every line needs a timestamp, or none does");
    EXPECT_EQ(error_of("get a\n1.0 get b\n"),
              "ops.txt line 2: every line needs a timestamp, or none does");
    EXPECT_EQ(error_of("2.0 get a\n1.5 get b\n"),
              "ops.txt line 2: timestamp 1.5 is earlier than the line before's");
    EXPECT_EQ(error_of("x1 get a\n").substr(0, 24), "ops.txt line 1: expected");
    EXPECT_EQ(error_of("# nothing\n\n"), "ops.txt: no operations in it");
    EXPECT_EQ(ReplayFile::load("/nonexistent/ops.txt").error,
              "cannot read \"/nonexistent/ops.txt\"");
}

class ReplaySpec : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("perflab-replay-spec-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::string write(const std::string& name, const std::string& text) {
        const auto path = (dir_ / name).string();
        std::ofstream(path) << text;
        return path;
    }

    static json spec(json cache_extra,
                     json phases = json::array({{{"ops", 10}, {"concurrency", 2}}})) {
        json cache = {{"servers", {"127.0.0.1:11211"}}};
        cache.update(cache_extra);
        return {{"kind", "cache"}, {"phases", phases}, {"cache", cache}};
    }

    static std::vector<std::string> errors(const json& j) {
        std::vector<std::string> out;
        for (const auto& e : parse_spec(j).errors)
            out.push_back(e.text());
        return out;
    }

    std::filesystem::path dir_;
};

TEST_F(ReplaySpec, LoadsTheFileOnceAndRoundTrips) {
    const auto path = write("ops.txt", "1.0 get a\n1.5 set b 7\n3.0 get c\n");
    const auto parsed = parse_spec(spec({{"replay", {{"file", path}, {"speed", 2}}}}));
    ASSERT_TRUE(parsed) << parsed.error_text();
    const auto& replay = *parsed.spec->cache->replay;
    ASSERT_TRUE(replay.ops);
    EXPECT_EQ(replay.ops->size(), 3u);
    EXPECT_TRUE(replay.timed());
    const json j = to_json(*parsed.spec);
    EXPECT_EQ(j["cache"]["replay"], json({{"file", path}, {"speed", 2.0}}));
    EXPECT_FALSE(j["cache"].contains("multiget"));
    const auto again = parse_spec(j);
    ASSERT_TRUE(again) << again.error_text();
    EXPECT_EQ(to_json(*again.spec), j);

    const auto max = parse_spec(spec({{"replay", {{"file", path}, {"speed", "max"}}}}));
    ASSERT_TRUE(max) << max.error_text();
    EXPECT_FALSE(max.spec->cache->replay->timed());
    EXPECT_EQ(to_json(*max.spec)["cache"]["replay"]["speed"], "max");
}

// A stored run whose replay file is gone still shows: its spec parses without the file.
TEST_F(ReplaySpec, StoredSpecParsesWithoutItsFile) {
    const json j = spec({{"replay", {{"file", (dir_ / "gone.txt").string()}, {"speed", 2}}}});
    EXPECT_FALSE(parse_spec(j));
    const auto stored = parse_stored_spec(j);
    ASSERT_TRUE(stored) << stored.error_text();
    EXPECT_FALSE(stored.spec->cache->replay->ops);
    EXPECT_EQ(to_json(*stored.spec)["cache"]["replay"], j["cache"]["replay"]);
}

TEST_F(ReplaySpec, EachPhaseEndsWithTheFile) {
    const auto path = write("ops.txt", "get a\nget b\nget c\n");
    const auto parsed =
        parse_spec(spec({{"replay", {{"file", path}}}},
                        {{{"duration_s", 5}, {"concurrency", 1}}, {{"ops", 2}, {"rate", 10}}}));
    ASSERT_TRUE(parsed) << parsed.error_text();
    const RunSpec plan = run_plan(*parsed.spec);
    EXPECT_EQ(plan.phases[0].ops, 3u);
    EXPECT_EQ(plan.phases[1].ops, 2u);
}

TEST_F(ReplaySpec, NamesTheFieldAndTheLine) {
    const auto bad = write("bad.txt", "get a\nget\n");
    EXPECT_EQ(errors(spec({{"replay", {{"file", bad}}}})),
              std::vector<std::string>{"cache.replay.file: " + bad +
                                       " line 2: expected \"[TIMESTAMP] get KEY\" or "
                                       "\"[TIMESTAMP] set KEY SIZE\", got \"get\""});
    EXPECT_EQ(errors(spec({{"replay", {{"file", (dir_ / "none.txt").string()}}}})),
              std::vector<std::string>{"cache.replay.file: cannot read \"" +
                                       (dir_ / "none.txt").string() + "\""});
    EXPECT_EQ(errors(spec({{"replay", {{"speed", 2}}}})),
              std::vector<std::string>{"cache.replay.file: required"});
    const auto good = write("ops.txt", "get a\n");
    EXPECT_EQ(errors(spec({{"replay", {{"file", good}, {"speed", 0}}}})),
              std::vector<std::string>{"cache.replay.speed: expected a factor > 0 (2: twice as "
                                       "fast as recorded) or \"max\", got 0"});
}

TEST_F(ReplaySpec, TimedReplayTakesConnectionsNotARate) {
    const auto timed = write("timed.txt", "0.5 get a\n1 get b\n");
    const json open = json::array({{{"duration_s", 5}, {"rate", 100}}});
    EXPECT_EQ(errors(spec({{"replay", {{"file", timed}}}}, open)),
              std::vector<std::string>{
                  "phases[0].rate: a replay with timestamps sends at the file's times: give the "
                  "phase \"concurrency\" (its connections), or replay at \"speed\": \"max\""});
    EXPECT_TRUE(errors(spec({{"replay", {{"file", timed}, {"speed", "max"}}}}, open)).empty());
    const auto plain = write("plain.txt", "get a\n");
    EXPECT_TRUE(errors(spec({{"replay", {{"file", plain}}}}, open)).empty());
}

TEST_F(ReplaySpec, MultigetRules) {
    const auto parsed = parse_spec(spec({{"multiget", 16}, {"workload", "get-only"}}));
    ASSERT_TRUE(parsed) << parsed.error_text();
    EXPECT_EQ(parsed.spec->cache->multiget, 16u);
    EXPECT_EQ(to_json(*parsed.spec)["cache"]["multiget"], 16);
    EXPECT_EQ(errors(spec({{"multiget", 0}}))[0].substr(0, 15), "cache.multiget:");
    EXPECT_EQ(errors(spec({{"multiget", 1025}, {"workload", "ratio"}}))[0].substr(0, 15),
              "cache.multiget:");
    EXPECT_EQ(errors(spec({{"multiget", 8}})),
              std::vector<std::string>{
                  "cache.multiget: batches of gets need \"workload\": \"get-only\" or \"ratio\" "
                  "(cache-aside sets each missed key, which a batch does not tell)"});
    const auto ops = write("ops.txt", "get a\n");
    EXPECT_EQ(errors(spec({{"multiget", 8}, {"workload", "ratio"}, {"replay", {{"file", ops}}}})),
              std::vector<std::string>{
                  "cache.multiget: a replay sends its file's operations one by one"});
    EXPECT_EQ(errors(spec({{"prefill", true}, {"replay", {{"file", ops}}}})),
              std::vector<std::string>{
                  "cache.prefill: a replay's keys come from its file, not from the key space"});
}

}  // namespace
}  // namespace perflab
