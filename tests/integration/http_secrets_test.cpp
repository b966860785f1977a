// SPDX-License-Identifier: MIT
// Secrets in http specs through the perflab binary: a ${NAME} reference is sent as the
// variable's value, while the database file and every export keep the reference; a literal
// credential header is sent as given and kept as "***"; a variable not set, or a masked value
// run again, is bad input and nothing is stored.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>

#include "http_run_helpers.h"
#include "http_test_server.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

constexpr auto npos = std::string::npos;

const json kTenRequests = {{{"rate", 10}, {"duration_s", 1}}};

std::string random_token() {
    std::random_device device;
    std::mt19937_64 rng(device());
    return "tok" + std::to_string(rng()) + std::to_string(rng());
}

class HttpSecrets : public ::testing::Test {
  protected:
    Output perflab(std::vector<std::string> args) const {
        args.insert(args.begin(), PERFLAB_BINARY);
        return run(args, 60);
    }

    Output run_spec(const json& spec) const {
        dir.write("spec.json", spec.dump());
        return perflab({"run", dir.file("spec.json"), "--db", db, "-q"});
    }

    json spec_with_headers(const json& headers) const {
        json spec = http_spec(server.url("/"), kTenRequests);
        spec["http"]["targets"][0]["headers"] = headers;
        return spec;
    }

    // Every byte the store left on disk: the database file and any journal or WAL beside it.
    std::string database_bytes() const {
        std::string bytes;
        for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
            if (entry.path().filename().string().rfind("runs.db", 0) == 0)
                bytes += read_file(entry.path().string());
        return bytes;
    }

    // Everything the CLI offers about run 1: each export format, show and runs.
    std::string everything_exported() const {
        std::string out;
        for (const char* format : {"md", "html", "csv", "json", "hgrm"}) {
            const std::string file = dir.file(std::string("export.") + format);
            const Output e = perflab({"export", "1", "--db", db, "--format", format, "-o", file});
            EXPECT_EQ(e.code, 0) << format << ": " << e.err;
            out += read_file(file) + e.out + e.err;
        }
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{"show", "1"}, {"show", "1", "--json"}, {"runs", "--json"}}) {
            std::vector<std::string> with_db = args;
            with_db.insert(with_db.end(), {"--db", db});
            const Output o = perflab(with_db);
            EXPECT_EQ(o.code, 0) << args[0] << ": " << o.err;
            out += o.out + o.err;
        }
        return out;
    }

    json stored_headers() const {
        const Output e = perflab({"export", "1", "--db", db, "--format", "json"});
        EXPECT_EQ(e.code, 0) << e.err;
        return json::parse(e.out)["spec"]["http"]["targets"][0]["headers"];
    }

    HttpTestServer server;
    TempDir dir;
    std::string db = dir.file("runs.db");
};

TEST_F(HttpSecrets, ReferenceIsSentResolvedAndStoredAsWritten) {
    const std::string token = random_token();
    ScopedEnv env("PERFLAB_TEST_TOKEN", token);
    const Output out =
        run_spec(spec_with_headers({{"Authorization", "Bearer ${PERFLAB_TEST_TOKEN}"}}));
    ASSERT_EQ(out.code, 0) << out.err;
    EXPECT_EQ(server.requests(), 10u);
    EXPECT_NE(server.last_request_head().find("\r\nAuthorization: Bearer " + token + "\r\n"), npos)
        << server.last_request_head();

    const std::string stored = database_bytes();
    EXPECT_EQ(stored.find(token), npos) << "the token is in the database file";
    EXPECT_NE(stored.find("Bearer ${PERFLAB_TEST_TOKEN}"), npos) << "the reference is stored";
    EXPECT_EQ(out.out.find(token), npos);
    EXPECT_EQ(everything_exported().find(token), npos) << "the token is in an export";
    EXPECT_EQ(stored_headers()["Authorization"], "Bearer ${PERFLAB_TEST_TOKEN}");
}

TEST_F(HttpSecrets, LiteralCookieIsSentAndStoredMasked) {
    const Output out = run_spec(spec_with_headers({{"Cookie", "secret=abc"}}));
    ASSERT_EQ(out.code, 0) << out.err;
    EXPECT_NE(server.last_request_head().find("\r\nCookie: secret=abc\r\n"), npos)
        << server.last_request_head();
    EXPECT_EQ(stored_headers()["Cookie"], "***");
    EXPECT_EQ(database_bytes().find("secret=abc"), npos);
    EXPECT_EQ(everything_exported().find("secret=abc"), npos);
}

TEST_F(HttpSecrets, MaskedValueRunAgainIsRefused) {
    ASSERT_EQ(run_spec(spec_with_headers({{"authorization", "Basic dXNlcjpwYXNz"}})).code, 0);
    const uint64_t sent = server.requests();
    const Output exported = perflab({"export", "1", "--db", db, "--format", "json"});
    ASSERT_EQ(exported.code, 0) << exported.err;

    const Output again = run_spec(json::parse(exported.out)["spec"]);
    EXPECT_EQ(again.code, 2) << again.err;
    EXPECT_NE(again.err.find("http.targets[0].headers.authorization"), npos) << again.err;
    EXPECT_NE(again.err.find("${NAME}"), npos) << again.err;
    EXPECT_EQ(server.requests(), sent) << "\"***\" was sent";
    EXPECT_EQ(json::parse(perflab({"runs", "--db", db, "--json"}).out).size(), 1u);
}

TEST_F(HttpSecrets, MissingVariableIsBadInputAndNothingIsStored) {
    unsetenv("PERFLAB_TEST_UNSET");
    const Output out =
        run_spec(spec_with_headers({{"Authorization", "Bearer ${PERFLAB_TEST_UNSET}"}}));
    EXPECT_EQ(out.code, 2) << out.err;
    EXPECT_NE(out.err.find("http.targets[0].headers.Authorization: environment variable "
                           "PERFLAB_TEST_UNSET is not set"),
              npos)
        << out.err;
    EXPECT_EQ(server.requests(), 0u);
    if (std::filesystem::exists(db)) {
        EXPECT_EQ(json::parse(perflab({"runs", "--db", db, "--json"}).out).size(), 0u);
    }
}

}  // namespace
}  // namespace perflab::test
