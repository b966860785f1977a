// SPDX-License-Identifier: MIT
// cache.commands: a command line's words as redis-cli splits them, each command's op name,
// and the RESP a command renders to, byte for byte.
#include "cache/command_program.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/redis_commands.h"
#include "model/template_syntax.h"

namespace perflab {
namespace {

using Words = std::vector<std::string>;

TEST(CommandWords, SplitAtBlanksOutsideTemplatesAndQuotes) {
    std::string error;
    EXPECT_EQ(command_words("  SET\tk  \"a b\" {{uniform 1 2}} x\"y z\" ", error),
              (Words{"SET", "k", "a b", "{{uniform 1 2}}", "xy z"}));
    EXPECT_EQ(error, "");
    EXPECT_EQ(command_words(R"(SET k "say \"hi\" \\o/")", error),
              (Words{"SET", "k", R"(say "hi" \o/)"}));
    EXPECT_EQ(command_words(R"(SET k "")", error), (Words{"SET", "k", ""}));
    EXPECT_TRUE(command_words("SET k {{uniform 1", error).empty());
    EXPECT_EQ(error, "unclosed \"{{\"");
    EXPECT_TRUE(command_words("SET k \"v", error).empty());
    EXPECT_EQ(error, "unclosed quote");
}

TEST(CommandTemplates, KeyAndValueAreARedisCommandsAlone) {
    std::string error;
    parse_template("/item/{{key}}", error);
    EXPECT_EQ(error, "{{key}} is for a cache run's Redis commands");
    parse_template("{{key}}:{{value}}", error, TemplateUse::redis_command);
    EXPECT_EQ(error, "");
    parse_template("{{env HOME}}", error, TemplateUse::redis_command);
    EXPECT_EQ(error, "{{env}} is not available in a Redis command");
    parse_template("{{value 3}}", error, TemplateUse::redis_command);
    EXPECT_EQ(error, "value: takes no arguments");
}

TEST(CommandOpNames, CommandWordLowercasedUniqueAndNamesKept) {
    const std::vector<RedisCommandSpec> commands = {
        {"HSET a f v", 1, ""}, {"hset b f v", 1, ""}, {"INCR c", 1, "hset_2"}, {"Get k", 1, ""}};
    EXPECT_EQ(command_op_names(commands), (Words{"hset", "hset_3", "hset_2", "get"}));
}

std::string rendered(const CommandProgram& program, size_t c, std::string_view key,
                     CommandProgram::State& state) {
    ValueSize size;
    size.min = size.max = 4;
    ValueSource values(size, 1);
    OutBuffer out(16);
    program.render(c, out, key, values, state);
    return {out.data(), out.size()};
}

TEST(CommandProgram, RendersEachWordAsABulkString) {
    const CommandProgram program({{"SET {{key}} \"v w\" EX 60", 1, ""},
                                  {"INCRBY n:{{uniform 7 7}} {{uniform -3 -3}}", 2, ""},
                                  {"ZADD z {{seq}} m{{seq}}", 1, "add"},
                                  {"HSET {{key}} f {{value}}", 1, ""},
                                  {"GET {{key}}", 1, ""}});
    auto state = program.state(42, 1, 2);
    EXPECT_EQ(rendered(program, 0, "k:1", state),
              "*5\r\n$3\r\nSET\r\n$3\r\nk:1\r\n$3\r\nv w\r\n$2\r\nEX\r\n$2\r\n60\r\n");
    EXPECT_EQ(rendered(program, 1, "", state), "*3\r\n$6\r\nINCRBY\r\n$3\r\nn:7\r\n$2\r\n-3\r\n");
    // Thread 1 of 2 numbers its ops 1, 3, 5...
    EXPECT_EQ(rendered(program, 2, "", state),
              "*4\r\n$4\r\nZADD\r\n$1\r\nz\r\n$1\r\n1\r\n$2\r\nm1\r\n");
    EXPECT_EQ(rendered(program, 2, "", state),
              "*4\r\n$4\r\nZADD\r\n$1\r\nz\r\n$1\r\n3\r\n$2\r\nm3\r\n");
    // A compressible value is a repeating alphabet.
    EXPECT_EQ(rendered(program, 3, "u:9", state),
              "*4\r\n$4\r\nHSET\r\n$3\r\nu:9\r\n$1\r\nf\r\n$4\r\nabcd\r\n");
    EXPECT_EQ(program.names(), (Words{"set", "incrby", "add", "hset", "get"}));
    EXPECT_EQ(program.weights(), (std::vector<int64_t>{1, 2, 1, 1, 1}));
    EXPECT_TRUE(program.keyed(0));
    EXPECT_FALSE(program.keyed(1));
    EXPECT_EQ(program.route(1), "n:{{uniform 7 7}}");
    EXPECT_EQ(program.route(2), "z");
    EXPECT_TRUE(program.is_get(4));
    EXPECT_FALSE(program.is_get(0));
}

TEST(CommandProgram, ReturnsTheBytesOfItsValues) {
    const CommandProgram program({{"MSET a {{value}} b {{value}}", 1, ""}});
    auto state = program.state(7, 0, 1);
    ValueSize size;
    size.min = size.max = 5;
    ValueSource values(size, 1);
    OutBuffer out(8);
    EXPECT_EQ(program.render(0, out, "", values, state), 10u);
    EXPECT_EQ(std::string(out.data(), out.size()),
              "*5\r\n$4\r\nMSET\r\n$1\r\na\r\n$5\r\nabcde\r\n$1\r\nb\r\n$5\r\nabcde\r\n");
}

}  // namespace
}  // namespace perflab
