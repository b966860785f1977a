// SPDX-License-Identifier: MIT
// Sessions through the perflab binary against a test server that issues a random token at
// POST /login and checks it at GET /cart: every cart request carries the token its own
// connection's last login got, the requests per step are the server's, think times are
// honoured, a failed capture sends its user back to the first step, and bad sessions are
// refused naming the field.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>

#include "http_run_helpers.h"
#include "http_test_server.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

std::string reply(int status, const std::string& body) {
    return "HTTP/1.1 " + std::to_string(status) + (status == 200 ? " OK" : " Forbidden") +
           "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\n\r\n" + body;
}

// The server's side of the session: tokens issued per connection and what came back.
class TokenShop {
  public:
    explicit TokenShop(int tokenless_every = 0) : tokenless_every_(tokenless_every) {}

    std::string answer(uint64_t connection, const HttpTestServer::Request& r) {
        std::lock_guard lock(mutex_);
        if (r.head.rfind("POST /login ", 0) == 0) return login(connection);
        if (r.head.rfind("GET /cart ", 0) == 0) return cart(connection, r.head);
        return reply(404, "{}");
    }

    std::mutex mutex_;
    uint64_t logins = 0;
    uint64_t tokenless = 0;  // logins answered without a token
    uint64_t carts = 0;
    uint64_t mismatches = 0;  // carts whose token was not their connection's last one
    Clock::duration min_gap = Clock::duration::max();  // from a login to its cart

  private:
    std::string login(uint64_t connection) {
        ++logins;
        login_at_[connection] = Clock::now();
        if (tokenless_every_ > 0 && logins % uint64_t(tokenless_every_) == 0) {
            ++tokenless;
            issued_.erase(connection);
            return reply(200, R"({"error": "try again"})");
        }
        const std::string token = std::to_string(rng_());
        issued_[connection] = token;
        return reply(200, R"({"user": "ada", "token": ")" + token + "\"}");
    }

    std::string cart(uint64_t connection, const std::string& head) {
        ++carts;
        const std::string key = "\r\nAuthorization: Bearer ";
        const size_t at = head.find(key);
        const std::string token =
            at == std::string::npos
                ? ""
                : head.substr(at + key.size(),
                              head.find("\r\n", at + key.size()) - at - key.size());
        const auto issued = issued_.find(connection);
        if (issued == issued_.end() || issued->second != token) {
            ++mismatches;
            return reply(403, R"({"error": "bad token"})");
        }
        if (const auto login = login_at_.find(connection); login != login_at_.end())
            min_gap = std::min(min_gap, Clock::now() - login->second);
        return reply(200, R"({"items": 3})");
    }

    const int tokenless_every_;
    std::mt19937_64 rng_{std::random_device{}()};
    std::map<uint64_t, std::string> issued_;
    std::map<uint64_t, Clock::time_point> login_at_;
};

class HttpSessions : public ::testing::Test {
  protected:
    // Users log in (capturing the token), think, then fetch their cart with it.
    json session_spec(double seconds) const {
        json spec =
            http_spec(server.url("/login"), {{{"duration_s", seconds}, {"concurrency", 4}}});
        auto& http = spec["http"];
        http["targets"][0]["method"] = "POST";
        http["targets"][0]["body"] = R"({"user": "ada"})";
        http["targets"][0]["content_type"] = "application/json";
        http["targets"].push_back({{"url", server.url("/cart")},
                                   {"headers", {{"Authorization", "Bearer {{var token}}"}}},
                                   {"expect", {{"status", {200}}}}});
        http["session"] = {{{"target", 0}, {"capture", {{"name", "token"}, {"json", "$.token"}}}},
                           {{"target", 1}, {"think_ms", {kThinkMin, 80}}}};
        return spec;
    }
    json run_spec(const json& spec) const {
        dir.write("spec.json", spec.dump());
        const Output out =
            run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db, "-q", "--json"}, 60);
        EXPECT_EQ(out.code, 0) << out.err;
        return out.code == 0 ? json::parse(out.out) : json();
    }
    std::string login_step() const { return "step 1: POST " + server.url("/login"); }
    std::string cart_step() const { return "step 2: GET " + server.url("/cart"); }

    static constexpr int kThinkMin = 40;
    HttpTestServer server;
    TempDir dir;
    std::string db = dir.file("runs.db");
};

TEST_F(HttpSessions, EveryCartCarriesItsUsersCapturedToken) {
    TokenShop shop;
    server.set_responder([&](uint64_t c, const auto& r) { return shop.answer(c, r); });
    const json report = run_spec(session_spec(3));
    ASSERT_FALSE(report.is_null());

    std::lock_guard lock(shop.mutex_);
    EXPECT_GT(shop.carts, 40u);
    EXPECT_EQ(shop.mismatches, 0u);
    EXPECT_GE(shop.min_gap, std::chrono::milliseconds(kThinkMin));
    // A user whose time ran out while it thought logged in without fetching its cart.
    EXPECT_LE(shop.carts, shop.logins);
    EXPECT_GE(shop.carts + 4, shop.logins);
    EXPECT_EQ(report["ops"][login_step()]["count"], shop.logins);
    EXPECT_EQ(report["ops"][cart_step()]["count"], shop.carts);
    EXPECT_EQ(report["ops"].size(), 2u);
    EXPECT_EQ(report["errors"], json::object());
    EXPECT_EQ(report["check_failures"], 0);
    // Think time is not latency: every request of a loopback server is far quicker.
    EXPECT_LT(report["ops"][cart_step()]["latency_us"]["p50"].get<double>(), kThinkMin * 1000.0);

    // The stored run keeps its steps' figures and its session.
    const Output show = run({PERFLAB_BINARY, "show", "1", "--db", db, "--json"}, 60);
    ASSERT_EQ(show.code, 0) << show.err;
    const json shown = json::parse(show.out);
    EXPECT_EQ(shown["summary"]["ops"][cart_step()]["count"], shop.carts);
    EXPECT_EQ(shown["spec"]["http"]["session"][1]["think_ms"], json({kThinkMin, 80}));
    EXPECT_EQ(shown["spec"]["http"]["session"][0]["capture"]["json"], "$.token");
}

TEST_F(HttpSessions, AFailedCaptureIsACheckFailureAndRestartsTheUser) {
    TokenShop shop(5);
    server.set_responder([&](uint64_t c, const auto& r) { return shop.answer(c, r); });
    const json report = run_spec(session_spec(2));
    ASSERT_FALSE(report.is_null());

    std::lock_guard lock(shop.mutex_);
    EXPECT_GT(shop.tokenless, 3u);
    // No cart went out without its token: each tokenless login sent its user back to login.
    EXPECT_EQ(shop.mismatches, 0u);
    EXPECT_LE(shop.carts, shop.logins - shop.tokenless);
    EXPECT_GE(shop.carts + 4, shop.logins - shop.tokenless);
    EXPECT_EQ(report["ops"][login_step()]["check_failures"], shop.tokenless);
    EXPECT_EQ(report["ops"][login_step()]["checks_failed"], json({{"capture", shop.tokenless}}));
    EXPECT_EQ(report["ops"][cart_step()]["check_failures"], 0);
    EXPECT_EQ(report["ops"][cart_step()]["count"], shop.carts);
}

TEST_F(HttpSessions, HeaderAndRegexCapturesWorkLikeAJsonOne) {
    // Each login answers its connection's token in the body and an ETag header: a regex takes
    // the one into the cart's URL, the second login's header the other into its X-Etag.
    server.set_responder([](uint64_t c, const HttpTestServer::Request& r) {
        const std::string id = std::to_string(c);
        if (r.head.rfind("POST /login ", 0) == 0) {
            const std::string body = "{\"token\": \"t" + id + "\"}";
            return "HTTP/1.1 200 OK\r\nETag: \"e" + id +
                   "\"\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
        }
        const bool ok = r.head.rfind("GET /cart?token=t" + id + " ", 0) == 0 &&
                        r.head.find("\r\nX-Etag: \"e" + id + "\"\r\n") != std::string::npos;
        return reply(ok ? 200 : 403, "{}");
    });
    json spec = session_spec(1);
    spec["http"]["targets"][1]["url"] = server.url("/cart?token={{var token}}");
    spec["http"]["targets"][1]["headers"] = {{"X-Etag", "{{var etag}}"}};
    spec["http"]["session"] = {
        {{"target", 0}, {"capture", {{"name", "token"}, {"regex", "\"token\": \"(\\w+)\""}}}},
        {{"target", 0}, {"capture", {{"name", "etag"}, {"header", "etag"}}}},
        {{"target", 1}}};
    const json report = run_spec(spec);
    const std::string cart = "step 3: GET " + server.url("/cart?token={{var token}}");
    ASSERT_TRUE(report["ops"].contains(cart)) << report.dump();
    EXPECT_GT(report["ops"][cart]["count"].get<int>(), 4);
    EXPECT_EQ(report["check_failures"], 0);
}

TEST(HttpSessionCli, BadSessionsNameTheField) {
    const json closed = {{{"concurrency", 2}, {"duration_s", 1}}};
    json spec = http_spec("http://127.0.0.1:9/login", closed);
    spec["http"]["targets"].push_back({{"url", "http://127.0.0.1:9/cart?t={{var token}}"}});
    spec["http"]["session"] = {
        {{"target", 0}, {"capture", {{"name", "token"}, {"json", "$.token"}}}}, {{"target", 5}}};
    expect_bad_input(spec, "http.session[1].target: no target 5 (there are 2)");
    spec["http"]["session"] = {
        {{"target", 1}}, {{"target", 0}, {"capture", {{"name", "token"}, {"json", "$.token"}}}}};
    expect_bad_input(spec,
                     "http.session[0].target: target 1 uses {{var token}}, which no earlier step "
                     "captures");
    spec["http"]["session"] = {{{"target", 0}, {"capture", {{"name", "tok"}, {"json", "$.token"}}}},
                               {{"target", 1}, {"think_ms", {900, 100}}}};
    expect_bad_input(spec, "http.targets[1].url: {{var token}}: no step of http.session captures");
    expect_bad_input(spec, "http.session[1].think_ms: expected milliseconds N or [MIN, MAX]");
    spec["http"]["session"] = {{{"target", 0}, {"capture", {{"name", "token"}, {"json", "token"}}}},
                               {{"target", 1}}};
    expect_bad_input(spec, "http.session[0].capture.json: a JSON path starts with \"$\"");
    spec["http"]["session"][0]["capture"] = {{"name", "token"}, {"json", "$.token"}};
    spec["phases"] = {{{"rate", 10}, {"duration_s", 1}}};
    expect_bad_input(spec, "phases[0].rate: a session's users are a closed model");
}

}  // namespace
}  // namespace perflab::test
