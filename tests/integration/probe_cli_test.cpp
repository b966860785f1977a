// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "memcached_server.h"
#include "process.h"
#include "silent_server.h"
#include "sshd_server.h"

namespace perflab {
namespace {

test::Output perflab(std::vector<std::string> args) {
    args.insert(args.begin(), PERFLAB_BINARY);
    return test::run(args, 60);
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

TEST(ProbeCli, LocalPrintsALinePerTick) {
    const auto o = perflab({"probe", "local", "--count", "2", "--interval-ms", "300"});
    ASSERT_EQ(o.code, 0) << o.err;
    const auto l = lines(o.out);
    ASSERT_EQ(l.size(), 2u) << o.out;
    for (const auto& line : l) {
        EXPECT_NE(line.find(" local cpu:"), std::string::npos) << line;
        EXPECT_NE(line.find(" self:"), std::string::npos) << line;
    }
}

TEST(ProbeCli, JsonIsOneObjectPerSample) {
    const auto o = perflab({"probe", "local", "--count", "1", "--interval-ms", "300", "--json"});
    ASSERT_EQ(o.code, 0) << o.err;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["kind"], "host");
    EXPECT_EQ(j["source"], "local");
    EXPECT_GE(j["t_ms"].get<int>(), 250);
    EXPECT_TRUE(j["values"].contains("cpu_busy"));
}

TEST(ProbeCli, BadTargetsExitTwo) {
    auto o = perflab({"probe", "nonsense"});
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("bad target"), std::string::npos) << o.err;
    o = perflab({"probe", "memcached:127.0.0.1:" + std::to_string(test::free_port())});
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("cannot connect"), std::string::npos) << o.err;
    o = perflab({"probe", "me@host:99999"});
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("user@host"), std::string::npos) << o.err;
    o = perflab({"hosts", "trust", "no-user-here"});
    EXPECT_EQ(o.code, 2);
}

TEST(ProbeCli, UnknownHostThenTrustThenProbe) {
    test::SshdServer server;
    const std::string known = server.dir().file("cli_known_hosts");
    auto o = perflab({"probe", server.target(), "--key", server.client_key(), "--known-hosts",
                      known, "--count", "1"});
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find(server.host_fingerprint()), std::string::npos) << o.err;

    // Without --yes or --fingerprint: the fingerprint is shown, nothing is recorded.
    o = perflab({"hosts", "trust", server.target(), "--known-hosts", known});
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.out.find(server.host_fingerprint()), std::string::npos) << o.out;
    EXPECT_NE(o.err.find("--fingerprint " + server.host_fingerprint()), std::string::npos) << o.err;
    EXPECT_FALSE(std::filesystem::exists(known));

    o = perflab({"hosts", "trust", server.target(), "--known-hosts", known, "--yes"});
    ASSERT_EQ(o.code, 0) << o.err;
    EXPECT_NE(o.out.find(server.host_fingerprint()), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("recorded in " + known), std::string::npos) << o.out;

    o = perflab({"probe", server.target(), "--key", server.client_key(), "--known-hosts", known,
                 "--count", "1", "--interval-ms", "300"});
    ASSERT_EQ(o.code, 0) << o.err;
    EXPECT_NE(o.out.find(server.target() + " cpu:"), std::string::npos) << o.out;
}

// The fingerprint `hosts trust` prints on its first line: "HOST:PORT SHA256:...".
std::string printed_fingerprint(const std::string& out) {
    const size_t start = out.find("SHA256:");
    return start == std::string::npos ? "" : out.substr(start, out.find('\n', start) - start);
}

TEST(ProbeCli, TrustWithAFingerprintRecordsOnlyThatKey) {
    test::SshdServer server;
    const std::string known = server.dir().file("cli_known_hosts");
    server.dir().write("cli_known_hosts", "# PerfLab's hosts\n");
    auto o = perflab({"hosts", "trust", server.target(), "--known-hosts", known});
    const std::string shown = printed_fingerprint(o.out);
    ASSERT_EQ(shown, server.host_fingerprint()) << o.out;

    // The host shows another key by the time the user answers.
    server.replace_host_key();
    const std::string before = test::read_file(known);
    o = perflab(
        {"hosts", "trust", server.target(), "--known-hosts", known, "--fingerprint", shown});
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("HOST KEY CHANGED"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find(shown), std::string::npos) << o.err;
    EXPECT_NE(o.err.find(server.host_fingerprint()), std::string::npos) << o.err;
    EXPECT_EQ(test::read_file(known), before);
    o = perflab({"hosts", "trust", server.target(), "--known-hosts", known, "--fingerprint",
                 "not-a-fingerprint"});
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("--fingerprint"), std::string::npos) << o.err;
    EXPECT_EQ(test::read_file(known), before);

    o = perflab({"hosts", "trust", server.target(), "--known-hosts", known, "--fingerprint",
                 server.host_fingerprint()});
    ASSERT_EQ(o.code, 0) << o.err;
    EXPECT_NE(o.out.find("recorded in " + known), std::string::npos) << o.out;
    const auto listed = test::run({"ssh-keygen", "-l", "-E", "sha256", "-f", known});
    EXPECT_NE(listed.out.find(server.host_fingerprint()), std::string::npos) << listed.out;
    EXPECT_EQ(listed.out.find(shown), std::string::npos) << listed.out;
    o = perflab({"probe", server.target(), "--key", server.client_key(), "--known-hosts", known,
                 "--count", "1", "--interval-ms", "300"});
    EXPECT_EQ(o.code, 0) << o.err;
}

TEST(ProbeCli, ChangedHostKeyExitsTwo) {
    test::SshdServer server;
    const auto o = perflab({"probe", server.target(), "--key", server.client_key(), "--known-hosts",
                            server.make_wrong_known_hosts("stale"), "--count", "1"});
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("HOST KEY CHANGED"), std::string::npos) << o.err;
}

TEST(ProbeCli, RunRefusesToStartWhenAProbeCannot) {
    test::MemcachedServer server(8);
    test::TempDir dir;
    const nlohmann::json spec = {
        {"kind", "cache"},
        {"phases", {{{"duration_s", 1}, {"concurrency", 1}}}},
        {"cache", {{"servers", {server.endpoint()}}}},
        {"probes", {{{"memcached", "127.0.0.1:" + std::to_string(test::free_port())}}}}};
    dir.write("spec.json", spec.dump());
    const auto o = perflab({"run", dir.file("spec.json"), "--no-store"});
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("probe: memcached 127.0.0.1:"), std::string::npos) << o.err;
    EXPECT_EQ(server.stat("cmd_get") + server.stat("cmd_set"), 0u) << "load ran anyway";
}

TEST(ProbeCli, CtrlCWhileAProbeConnectsEndsTheRunAtOnce) {
    test::MemcachedServer server(8);
    test::SilentServer silent;
    test::TempDir dir;
    const nlohmann::json spec = {{"kind", "cache"},
                                 {"phases", {{{"duration_s", 1}, {"concurrency", 1}}}},
                                 {"cache", {{"servers", {server.endpoint()}}}},
                                 {"probes", {{{"ssh", silent.target()}}}}};
    dir.write("spec.json", spec.dump());
    test::Process run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store"}, dir.file("out"),
                      dir.file("err"));
    ASSERT_TRUE(silent.wait_for_connections(1, 30000));
    run.signal(SIGINT);
    EXPECT_EQ(run.wait(), 1);
    const std::string err = test::read_file(dir.file("err"));
    EXPECT_NE(err.find("stopped while the probes connected; nothing ran"), std::string::npos)
        << err;
    EXPECT_EQ(server.stat("cmd_get") + server.stat("cmd_set"), 0u) << "load ran anyway";
}

TEST(ProbeCli, RunPrintsLocalProbeLinesOnItsClock) {
    test::MemcachedServer server(8);
    test::TempDir dir;
    const nlohmann::json spec = {{"kind", "cache"},
                                 {"tick_ms", 500},
                                 {"phases", {{{"duration_s", 2}, {"concurrency", 1}}}},
                                 {"cache", {{"servers", {server.endpoint()}}}},
                                 {"probes", {{{"local", true}}}}};
    dir.write("spec.json", spec.dump());
    const auto o = perflab({"run", dir.file("spec.json"), "--no-store"});
    ASSERT_EQ(o.code, 0) << o.err;
    int probe_lines = 0;
    for (const auto& l : lines(o.out))
        probe_lines += l.find(" local cpu:") != std::string::npos;
    // A line per 500-ms tick of the 2-s run, and the last sample, to the run's end.
    EXPECT_GE(probe_lines, 4) << o.out;
    EXPECT_LE(probe_lines, 5) << o.out;
}

}  // namespace
}  // namespace perflab
