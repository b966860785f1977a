// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "http/http_request.h"
#include "http/url.h"

namespace perflab {
namespace {

TEST(HttpUrl, SplitsHostPortAndTarget) {
    std::string why;
    const auto u = parse_url("http://127.0.0.1:8080/a/b?x=1", why);
    ASSERT_TRUE(u) << why;
    EXPECT_FALSE(u->tls);
    EXPECT_EQ(u->host, "127.0.0.1");
    EXPECT_EQ(u->port, 8080);
    EXPECT_EQ(u->target, "/a/b?x=1");
    EXPECT_EQ(u->host_header(), "127.0.0.1:8080");
}

TEST(HttpUrl, DefaultsPortAndPath) {
    std::string why;
    const auto u = parse_url("https://example.test", why);
    ASSERT_TRUE(u) << why;
    EXPECT_TRUE(u->tls);
    EXPECT_EQ(u->port, 443);
    EXPECT_EQ(u->target, "/");
    EXPECT_EQ(u->host_header(), "example.test");
    EXPECT_EQ(parse_url("http://h?q", why)->target, "/?q");
}

TEST(HttpUrl, Ipv6) {
    std::string why;
    const auto u = parse_url("http://[::1]:81/x", why);
    ASSERT_TRUE(u) << why;
    EXPECT_EQ(u->host, "::1");
    EXPECT_EQ(u->port, 81);
    EXPECT_EQ(u->host_header(), "[::1]:81");
}

TEST(HttpUrl, RejectsMalformed) {
    for (const char* bad :
         {"ftp://h/", "http://", "http://:80/", "http://h:0/", "http://h:70000/", "http://h:x/",
          "http://h:/", "http://[::1/", "http://a b/", "http://u@h/", "http://h%/"}) {
        std::string why;
        EXPECT_FALSE(parse_url(bad, why)) << bad;
        EXPECT_FALSE(why.empty()) << bad;
    }
}

HttpSpec one_target(HttpTarget t) {
    HttpSpec s;
    s.targets.push_back(std::move(t));
    return s;
}

TEST(HttpRequest, SerialisesOnce) {
    HttpTarget t;
    t.method = "POST";
    t.url = "http://127.0.0.1:9/p";
    t.headers = {{"X-A", "1"}};
    t.body = "hello";
    const auto plan = prepare_http(one_target(t));
    ASSERT_EQ(plan.targets.size(), 1u);
    EXPECT_EQ(plan.targets[0].name, "POST http://127.0.0.1:9/p");
    EXPECT_EQ(plan.targets[0].bytes,
              "POST /p HTTP/1.1\r\nHost: 127.0.0.1:9\r\nUser-Agent: perflab\r\nX-A: 1\r\n"
              "Content-Length: 5\r\n\r\nhello");
    EXPECT_EQ(plan.targets[0].body_size, 5u);
}

TEST(HttpRequest, SharesOrigins) {
    HttpSpec s;
    for (const char* u : {"http://127.0.0.1:9/a", "http://127.0.0.1:9/b", "http://127.0.0.1:10/"}) {
        HttpTarget t;
        t.url = u;
        s.targets.push_back(t);
    }
    const auto plan = prepare_http(s);
    EXPECT_EQ(plan.origins.size(), 2u);
    EXPECT_EQ(plan.targets[1].origin, 0u);
    EXPECT_EQ(plan.targets[2].origin, 1u);
}

TEST(HttpRequest, ErrorsNameTheField) {
    HttpSpec s;
    HttpTarget ok;
    ok.url = "http://127.0.0.1/";
    HttpTarget bad;
    bad.url = "http://127.0.0.1:99999/";
    s.targets = {ok, bad};
    try {
        prepare_http(s);
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("http.targets[1].url"), std::string::npos) << e.what();
    }
    HttpTarget file;
    file.url = "http://127.0.0.1/";
    file.body_file = "/nonexistent/body";
    try {
        prepare_http(one_target(file));
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("http.targets[0].body_file"), std::string::npos);
    }
    HttpTarget header;
    header.url = "http://127.0.0.1/";
    header.headers = {{"X-Bad", "a\r\nb"}};
    EXPECT_THROW(prepare_http(one_target(header)), std::runtime_error);
}

}  // namespace
}  // namespace perflab
