// SPDX-License-Identifier: MIT
// `perflab run` with "redis": {"tls": ...} against a redis-server listening with TLS, as a
// user runs it: certificates made by the openssl tool for the test (a CA, the server's for
// 127.0.0.1, a client's: Redis asks for one by default), the counts read from the server's
// own commandstats over its plain port. A certificate the spec's CA did not sign, or that
// names another server, fails the run before its first op, saying so (exit 1); TLS keys
// that are wrong are bad input (exit 2). A Redis Cluster over TLS reads its slot map over TLS.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "process.h"
#include "redis_server.h"

namespace perflab::test {
namespace {

using nlohmann::json;
constexpr auto npos = std::string::npos;

void openssl(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"openssl"};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto out = run(argv, 60);
    ASSERT_EQ(out.code, 0) << out.err;
}

// A CA and, signed by it, a certificate for `name` with its key (P-256: quick to make).
struct Certificates {
    TempDir dir;
    std::string file(const std::string& name) const { return dir.file(name); }

    void make_ca(const std::string& ca) {
        openssl({"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                 "-nodes", "-keyout", file(ca + ".key"), "-out", file(ca + ".crt"), "-days", "2",
                 "-subj", "/CN=" + ca});
    }
    void make_signed(const std::string& name, const std::string& ca, const std::string& san) {
        openssl({"req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                 "-keyout", file(name + ".key"), "-out", file(name + ".csr"), "-subj",
                 "/CN=" + name});
        dir.write(name + ".ext",
                  san.empty() ? "basicConstraints=CA:FALSE\n" : "subjectAltName=" + san + "\n");
        openssl({"x509", "-req", "-in", file(name + ".csr"), "-CA", file(ca + ".crt"), "-CAkey",
                 file(ca + ".key"), "-CAcreateserial", "-out", file(name + ".crt"), "-days", "2",
                 "-extfile", file(name + ".ext")});
    }
};

class RedisTls : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(certs_.make_ca("ca"));
        ASSERT_NO_FATAL_FAILURE(certs_.make_ca("other-ca"));
        ASSERT_NO_FATAL_FAILURE(certs_.make_signed("server", "ca", "IP:127.0.0.1"));
        ASSERT_NO_FATAL_FAILURE(certs_.make_signed("client", "ca", ""));
        tls_port_ = free_port();
        server_ = std::make_unique<RedisServer>(std::vector<std::string>{
            "--tls-port", std::to_string(tls_port_), "--tls-cert-file", certs_.file("server.crt"),
            "--tls-key-file", certs_.file("server.key"), "--tls-ca-cert-file",
            certs_.file("ca.crt")});
    }

    std::string tls_endpoint() const { return "127.0.0.1:" + std::to_string(tls_port_); }

    json tls(const std::string& ca = "ca") const {
        return {{"ca", certs_.file(ca + ".crt")},
                {"cert", certs_.file("client.crt")},
                {"key", certs_.file("client.key")}};
    }

    json spec(const std::string& server, const json& tls, uint64_t ops = 2000) const {
        return {{"name", "redis tls"},
                {"kind", "cache"},
                {"tick_ms", 200},
                {"phases", {{{"ops", ops}, {"concurrency", 2}}}},
                {"cache",
                 {{"servers", {server}},
                  {"protocol", "redis"},
                  {"workload", "cache-aside"},
                  {"keys", {{"count", 500}}},
                  {"value_size", {{"min", 100}, {"max", 4000}}},
                  {"ttl_s", 60},
                  {"pipeline", 16},
                  {"timeout_ms", 5000},
                  {"redis", {{"tls", tls}}}}}};
    }

    Certificates certs_;
    uint16_t tls_port_ = 0;
    std::unique_ptr<RedisServer> server_;
};

TEST_F(RedisTls, CountsOverTlsAreTheServers) {
    // The run has only the TLS port: a plain RESP command there is no reply.
    for (const int hello : {2, 3}) {
        json s = spec(tls_endpoint(), tls());
        s["cache"]["redis"]["hello"] = hello;
        const uint64_t gets = server_->calls("get"), sets = server_->calls("set");
        const uint64_t hits = server_->info_number("stats", "keyspace_hits");
        const uint64_t misses = server_->info_number("stats", "keyspace_misses");
        const auto r = perflab_run(s, {"--json"});
        ASSERT_EQ(r.code, 0) << r.err;
        const json j = json::parse(r.out);
        EXPECT_EQ(j["ops"]["get"]["count"].get<uint64_t>(), 2000u) << "RESP" << hello;
        EXPECT_EQ(j["ops"]["get"]["count"].get<uint64_t>(), server_->calls("get") - gets);
        EXPECT_EQ(j["ops"]["set"]["count"].get<uint64_t>(), server_->calls("set") - sets);
        EXPECT_EQ(j["hits"].get<uint64_t>(), server_->info_number("stats", "keyspace_hits") - hits);
        EXPECT_EQ(j["misses"].get<uint64_t>(),
                  server_->info_number("stats", "keyspace_misses") - misses);
        EXPECT_EQ(j["errors"], json::object()) << r.out;
    }
}

TEST_F(RedisTls, ACertificateOfAnotherCaFailsTheRunSayingWhy) {
    const auto r = perflab_run(spec(tls_endpoint(), tls("other-ca")));
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("cache.redis: " + tls_endpoint() +
                         ": TLS handshake: certificate verify "
                         "failed"),
              npos)
        << r.err;
    EXPECT_EQ(server_->calls("get"), 0u);
}

TEST_F(RedisTls, ACertificateForAnotherNameFailsTheRun) {
    json t = tls();
    t["server_name"] = "cache.example";
    const auto r = perflab_run(spec(tls_endpoint(), t));
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("certificate verify failed: hostname mismatch"), npos) << r.err;
    // Told not to verify, the same run goes.
    t["verify"] = false;
    const auto unverified = perflab_run(spec(tls_endpoint(), t, 200), {"--json"});
    ASSERT_EQ(unverified.code, 0) << unverified.err;
    EXPECT_EQ(json::parse(unverified.out)["ops"]["get"]["count"].get<uint64_t>(), 200u);
}

TEST_F(RedisTls, TlsToAPlainPortFailsTheRunSayingWhy) {
    const auto r = perflab_run(spec(server_->endpoint(), tls()));
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("cache.redis: " + server_->endpoint() + ": TLS handshake: "), npos)
        << r.err;
}

TEST_F(RedisTls, BadTlsKeysAreBadInput) {
    json missing = tls();
    missing["ca"] = certs_.file("no-such-ca.crt");
    missing.erase("key");
    missing["colour"] = "red";
    const auto r = perflab_run(spec(tls_endpoint(), missing));
    EXPECT_EQ(r.code, 2) << r.err;
    for (const std::string& says :
         {"cache.redis.tls.ca: cannot read \"" + certs_.file("no-such-ca.crt") + "\"",
          std::string("cache.redis.tls.key: required with \"cert\""),
          std::string("cache.redis.tls.colour: unknown key")})
        EXPECT_NE(r.err.find(says), npos) << says << " not in:\n" << r.err;

    const auto word = perflab_run(spec(tls_endpoint(), "yes"));
    EXPECT_EQ(word.code, 2) << word.err;
    EXPECT_NE(word.err.find("cache.redis.tls: expected true, false or an object, got string"), npos)
        << word.err;
}

// A three-node cluster whose nodes speak TLS to clients and to each other (tls-cluster): the
// slot map is read over TLS from the seed, names the nodes' TLS ports, and every node's own
// commandstats (read over their plain ports) add up to the run's counts.
TEST_F(RedisTls, AClusterOverTlsCountsAsItsNodes) {
    std::vector<uint16_t> tls_ports;
    const RedisCluster cluster(3, [&](size_t) {
        tls_ports.push_back(free_port());
        return std::vector<std::string>{"--tls-port",         std::to_string(tls_ports.back()),
                                        "--tls-cert-file",    certs_.file("server.crt"),
                                        "--tls-key-file",     certs_.file("server.key"),
                                        "--tls-ca-cert-file", certs_.file("ca.crt"),
                                        "--tls-cluster",      "yes"};
    });
    json s = spec("127.0.0.1:" + std::to_string(tls_ports[0]), tls(), 3000);
    s["cache"]["redis"]["cluster"] = true;
    const auto r = perflab_run(s, {"--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["ops"]["get"]["count"].get<uint64_t>(), 3000u);
    EXPECT_EQ(j["ops"]["get"]["count"].get<uint64_t>(), cluster.command_stat("get", "calls"));
    EXPECT_EQ(j["ops"]["set"]["count"].get<uint64_t>(), cluster.command_stat("set", "calls"));
    EXPECT_EQ(j["hits"].get<uint64_t>(), cluster.info_sum("stats", "keyspace_hits"));
    EXPECT_EQ(j["errors"], json::object()) << r.out;
    for (size_t i = 0; i < cluster.size(); ++i)
        EXPECT_GT(command_stat(cluster.node(i), "get", "calls"), 0u) << "node " << i;

    // A certificate the spec's CA did not sign fails it at the slot map, naming the seed.
    const auto refused = perflab_run([&] {
        json other = s;
        other["cache"]["redis"]["tls"] = tls("other-ca");
        return other;
    }());
    EXPECT_EQ(refused.code, 1) << refused.err;
    EXPECT_NE(refused.err.find("127.0.0.1:" + std::to_string(tls_ports[0]) + ": "), npos)
        << refused.err;
    EXPECT_NE(refused.err.find("certificate verify failed"), npos) << refused.err;
}

}  // namespace
}  // namespace perflab::test
