// SPDX-License-Identifier: MIT
// Request templates: the syntax check, the compiled program's rendering, and that rendering
// into a buffer reserved once allocates nothing.
#include "http/request_template.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "http/session.h"
#include "model/template_syntax.h"

namespace perflab {
namespace {

const std::string kUsers = std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/http/users.csv";

std::string syntax_error(const std::string& text) {
    std::string error;
    parse_template(text, error);
    return error;
}

TEST(TemplateSyntax, AcceptsEveryVariable) {
    for (const char* ok : {"{{seq}}", "{{ uniform -5 5 }}", "{{zipf 1000 0.99}}", "{{uuid}}",
                           "{{now_ms}}", "{{env HOME}}", "{{csv users.csv name}}",
                           "{{csv users.csv 2 random}}", "{{pick a|b c|}}", "no template"})
        EXPECT_EQ(syntax_error(ok), "") << ok;
}

TEST(TemplateSyntax, NamesWhatIsWrong) {
    EXPECT_EQ(syntax_error("/x/{{foo}}"), "unknown template \"foo\"");
    EXPECT_EQ(syntax_error("/x/{{seq"), "unclosed \"{{\"");
    EXPECT_EQ(syntax_error("{{}}"), "empty template \"{{}}\"");
    EXPECT_EQ(syntax_error("{{seq 1}}"), "seq: takes no arguments");
    EXPECT_EQ(syntax_error("{{uniform 9 1}}"), "uniform: expected two integers A ≤ B");
    EXPECT_EQ(syntax_error("{{uniform 1 x}}"), "uniform: expected two integers A ≤ B");
    EXPECT_EQ(syntax_error("{{zipf 0 1}}"), "zipf: expected N ≥ 1 and an exponent S in (0, 10]");
    EXPECT_EQ(syntax_error("{{env 1X}}"), "env: expected a variable name");
    EXPECT_EQ(syntax_error("{{csv f}}"),
              "csv: expected FILE COLUMN, optionally followed by \"random\"");
    EXPECT_EQ(syntax_error("{{csv f c shuffled}}"),
              "csv: expected FILE COLUMN, optionally followed by \"random\"");
}

TEST(TemplateSyntax, PickSplitsOnBarsAlone) {
    std::string error;
    const auto t = parse_template("{{pick red car| blue|}}", error);
    ASSERT_EQ(t.pieces.size(), 1u);
    EXPECT_EQ(t.pieces[0].args, (std::vector<std::string>{"red car", " blue", ""}));
}

struct Compiled {
    std::shared_ptr<const RequestProgram> program;
    std::string error;
};

std::optional<std::string> test_env(const std::string& name) {
    if (name == "TOKEN") return std::string("s3cret");
    return std::nullopt;
}

Compiled compile_body(const std::string& body) {
    ProgramBuilder::Files files;
    const Environment env = test_env;
    ProgramBuilder b(files, env);
    Compiled c;
    if (b.body(body, c.error)) c.program = b.finish();
    return c;
}

// Renders request `seq` and returns its body (the head is empty: only a body was compiled).
std::string body_of(const RequestProgram& p, RenderState& state, uint64_t seq) {
    std::string out, scratch;
    const size_t n = p.render(out, scratch, state, seq);
    const std::string prefix = "Content-Length: " + std::to_string(n) + "\r\n\r\n";
    EXPECT_EQ(out.rfind(prefix, 0), 0u) << out;
    return out.substr(prefix.size());
}

TEST(RequestTemplate, RendersSeqUniformZipfPickAndEnv) {
    const auto c =
        compile_body("{{seq}} {{uniform -3 3}} {{zipf 50 1.2}} {{pick x|yy|zzz}} {{env TOKEN}}");
    ASSERT_TRUE(c.program) << c.error;
    RenderState state(42);
    std::set<int> uniforms;
    std::set<std::string> picks;
    const std::regex shape(R"((\d+) (-?\d+) (\d+) (x|yy|zzz) s3cret)");
    for (uint64_t seq = 0; seq < 2000; ++seq) {
        const std::string body = body_of(*c.program, state, seq);
        std::smatch m;
        ASSERT_TRUE(std::regex_match(body, m, shape)) << body;
        EXPECT_EQ(std::stoull(m[1]), seq);
        const int u = std::stoi(m[2]);
        EXPECT_GE(u, -3);
        EXPECT_LE(u, 3);
        uniforms.insert(u);
        const int z = std::stoi(m[3]);
        EXPECT_GE(z, 1);
        EXPECT_LE(z, 50);
        picks.insert(m[4]);
    }
    EXPECT_EQ(uniforms.size(), 7u);  // every value of [-3, 3] came up
    EXPECT_EQ(picks.size(), 3u);
}

TEST(RequestTemplate, UuidsAreVersion4AndDistinct) {
    const auto c = compile_body("{{uuid}}");
    ASSERT_TRUE(c.program) << c.error;
    RenderState state(7);
    std::set<std::string> seen;
    const std::regex v4("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    for (int i = 0; i < 1000; ++i) {
        const std::string id = body_of(*c.program, state, 0);
        EXPECT_TRUE(std::regex_match(id, v4)) << id;
        seen.insert(id);
    }
    EXPECT_EQ(seen.size(), 1000u);
}

TEST(RequestTemplate, NowIsTheWallClockInMilliseconds) {
    const auto c = compile_body("{{now_ms}}");
    ASSERT_TRUE(c.program) << c.error;
    RenderState state(1);
    const auto ms = [] {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
            .count();
    };
    const int64_t before = ms();
    const int64_t rendered = std::stoll(body_of(*c.program, state, 0));
    const int64_t after = ms();
    EXPECT_GE(rendered, before);
    EXPECT_LE(rendered, after);
}

TEST(RequestTemplate, CsvRowsComeInOrderAndColumnsOfARowTogether) {
    const auto c = compile_body("{{csv " + kUsers + " name}}/{{csv " + kUsers + " 3}}");
    ASSERT_TRUE(c.program) << c.error;
    RenderState state(1);
    state.rows.resize(c.program->csv_sources());
    const std::vector<std::string> expected = {"ada/first, with a comma", "brian/plain",
                                               "carla/said \"hi\"", "dmitri/last"};
    for (uint64_t seq = 0; seq < 8; ++seq)
        EXPECT_EQ(body_of(*c.program, state, seq), expected[seq % 4]);
}

TEST(RequestTemplate, CsvRandomKeepsOneRowPerRequest) {
    const auto c =
        compile_body("{{csv " + kUsers + " name random}}/{{csv " + kUsers + " city random}}");
    ASSERT_TRUE(c.program) << c.error;
    RenderState state(3);
    state.rows.resize(c.program->csv_sources());
    const std::map<std::string, std::string> city = {
        {"ada", "London"}, {"brian", "New York"}, {"carla", "Lima"}, {"dmitri", "Kyiv"}};
    std::set<std::string> names;
    for (int i = 0; i < 200; ++i) {
        const std::string body = body_of(*c.program, state, 0);
        const auto slash = body.find('/');
        const std::string name = body.substr(0, slash);
        ASSERT_TRUE(city.count(name)) << body;
        EXPECT_EQ(body.substr(slash + 1), city.at(name));
        names.insert(name);
    }
    EXPECT_EQ(names.size(), 4u);
}

TEST(RequestTemplate, CompileErrorsNameTheProblem) {
    EXPECT_EQ(compile_body("{{env NOPE}}").error, "environment variable NOPE is not set");
    EXPECT_EQ(compile_body("{{csv /no/such.csv name}}").error,
              "cannot read CSV file \"/no/such.csv\"");
    EXPECT_EQ(compile_body("{{csv " + kUsers + " age}}").error,
              "CSV file \"" + kUsers + "\" has no column \"age\" (it has name, city, note)");
    EXPECT_EQ(compile_body("{{csv " + kUsers + " 4}}").error,
              "CSV file \"" + kUsers + "\" has no column \"4\" (it has name, city, note)");
}

TEST(RequestTemplate, NoLineBreakGoesIntoTheHead) {
    ProgramBuilder::Files files;
    const Environment env = [](const std::string&) { return std::string("a\r\nX-Evil: 1"); };
    ProgramBuilder b(files, env);
    std::string error;
    EXPECT_FALSE(b.head("/{{env ANY}}", error));
    EXPECT_EQ(error,
              "environment variable ANY holds a line break, which cannot go into a URL or header");
    EXPECT_TRUE(b.body("{{env ANY}}", error)) << error;
    EXPECT_TRUE(b.head("/{{csv " + kUsers + " note}}", error)) << error;  // quoted commas, quotes
    const std::string broken = ::testing::TempDir() + "perflab_broken.csv";
    std::ofstream(broken) << "name\nok\n\"two\nlines\"\n";
    EXPECT_FALSE(b.head("/{{csv " + broken + " name}}", error));
    EXPECT_EQ(error, "CSV file \"" + broken +
                         "\", row 2, column \"name\": a line break cannot go into a URL or header");
    std::remove(broken.c_str());
}

// Rendering into buffers reserved for max_bytes() never grows them: no allocation.
TEST(RequestTemplate, RenderingKeepsItsBuffers) {
    const auto c = compile_body(
        "{\"id\": \"{{uuid}}\", \"n\": {{uniform 1 1000000000}}, \"seq\": "
        "{{seq}}, \"who\": \"{{csv " +
        kUsers +
        " note}}\", \"t\": {{now_ms}}, "
        "\"p\": \"{{pick a|bbbbbbbbbbbbbbbb}}\", \"z\": {{zipf 1000000 0.5}}}");
    ASSERT_TRUE(c.program) << c.error;
    RenderState state(9);
    state.rows.resize(c.program->csv_sources());
    std::string out, body;
    out.reserve(c.program->max_bytes());
    body.reserve(c.program->max_bytes());
    const char* out_data = out.data();
    const char* body_data = body.data();
    const size_t out_capacity = out.capacity();
    for (uint64_t seq = 0; seq < 10000; ++seq) {
        c.program->render(out, body, state, UINT64_MAX - seq);
        ASSERT_EQ(out.data(), out_data);
        ASSERT_EQ(body.data(), body_data);
    }
    EXPECT_EQ(out.capacity(), out_capacity);
}

}  // namespace
}  // namespace perflab

namespace perflab {
namespace {

TEST(RequestTemplate, VarRendersTheUsersCapturedValue) {
    ProgramBuilder::Files files;
    const Environment env = test_env;
    const std::vector<std::string> vars = {"token", "etag"};
    ProgramBuilder b(files, env, &vars);
    std::string error;
    ASSERT_TRUE(b.body("t={{var etag}}/{{var token}}", error)) << error;
    const auto program = b.finish();
    RenderState state(1);
    const std::vector<std::string> values = {"abc", "\"x1\""};
    state.values = values.data();
    EXPECT_EQ(body_of(*program, state, 0), "t=\"x1\"/abc");
    EXPECT_GE(program->max_bytes(), 2 * kMaxCaptureBytes);

    ProgramBuilder unknown(files, env, &vars);
    EXPECT_FALSE(unknown.body("{{var nope}}", error));
    EXPECT_EQ(error, "{{var nope}}: no session step captures it");
}

TEST(ValueCapture, TakesFromJsonHeaderOrRegex) {
    std::string into;
    into.reserve(kMaxCaptureBytes);
    const ValueCapture by_path({"token", "$.data.token", "", ""}, 0);
    EXPECT_TRUE(by_path.keeps_body());
    EXPECT_TRUE(by_path.take(R"({"data": {"token": "t-1"}})", "", into));
    EXPECT_EQ(into, "t-1");
    EXPECT_TRUE(by_path.take(R"({"data": {"token": 42}})", "", into));
    EXPECT_EQ(into, "42");
    EXPECT_FALSE(by_path.take(R"({"data": {}})", "", into));
    EXPECT_FALSE(by_path.take("not json", "", into));
    EXPECT_FALSE(by_path.take(R"({"data": {"token": "a\r\nX-Evil: 1"}})", "", into));
    EXPECT_FALSE(by_path.take(
        R"({"data": {"token": ")" + std::string(kMaxCaptureBytes + 1, 'a') + "\"}}", "", into));

    const ValueCapture header({"etag", "", "ETag", ""}, 1);
    EXPECT_FALSE(header.keeps_body());
    EXPECT_EQ(header.var(), 1u);
    EXPECT_TRUE(header.take("", "\"v7\"", into));
    EXPECT_EQ(into, "\"v7\"");
    EXPECT_FALSE(header.take("", "", into));

    const ValueCapture regex({"sid", "", "", "sid=(\\w+)"}, 0);
    EXPECT_TRUE(regex.take("<a href=\"/next?sid=Q9z\">", "", into));
    EXPECT_EQ(into, "Q9z");
    EXPECT_FALSE(regex.take("no session here", "", into));
}

}  // namespace
}  // namespace perflab
