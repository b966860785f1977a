// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>
#include <sys/utsname.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <future>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "probe_runner.h"
#include "process.h"
#include "silent_server.h"
#include "ssh_probe.h"
#include "sshd_server.h"

namespace perflab {
namespace {

using namespace std::chrono_literals;

// The session a process belongs to (field 6 of /proc/PID/stat), -1 when it is gone. A process
// keeps its session when orphaned, so the session names what a remote loop left behind even
// after its parent died, and nothing of other tests' sshd sessions.
long session_of(const std::string& pid) {
    const std::string stat = test::read_file("/proc/" + pid + "/stat");
    const size_t end = stat.rfind(')');  // the command may hold spaces and parentheses
    if (end == std::string::npos) return -1;
    std::istringstream rest(stat.substr(end + 2));
    std::string state;
    long ppid = 0, pgrp = 0, session = -1;
    rest >> state >> ppid >> pgrp >> session;
    return session;
}

std::vector<std::string> processes_in_session(long session) {
    std::vector<std::string> out;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename();
        if (name.find_first_not_of("0123456789") == std::string::npos &&
            session_of(name) == session)
            out.push_back(name);
    }
    return out;
}

SshOptions options(const test::SshdServer& server) {
    SshOptions o;
    o.key_file = server.client_key();
    o.known_hosts = server.known_hosts();
    // A bound on a wait, not a figure: a loaded machine starts the remote shell in seconds.
    o.timeout_s = 30;
    return o;
}

SshTarget target(const test::SshdServer& server) {
    return *parse_ssh_target(server.target());
}

SshError::Kind connect_error(const test::SshdServer& server, const SshOptions& o,
                             std::string* message = nullptr, std::string* fingerprint = nullptr) {
    try {
        SshSession session(target(server), o);
        session.connect();
    } catch (const SshError& e) {
        if (message) *message = e.what();
        if (fingerprint) *fingerprint = e.fingerprint();
        return e.kind();
    }
    ADD_FAILURE() << "connected";
    return SshError::Kind::connect;
}

TEST(SshProbe, SamplesTheHostAndReadsItsProfile) {
    test::SshdServer server;
    SshProbe probe(target(server), options(server), true);
    probe.open();
    std::this_thread::sleep_for(1s);
    const ProbeReading r = probe.poll();
    ASSERT_TRUE(r.ready);
    ASSERT_FALSE(r.gap);
    for (const char* key :
         {"cpu_busy", "cpu0_busy", "load1", "mem_total", "net_rx_Bps", "ctx_switches_ps"})
        EXPECT_TRUE(r.values.contains(key)) << key;
    const HardwareProfile& hw = *probe.hardware_profile();
    utsname u{};
    uname(&u);
    EXPECT_EQ(hw.kernel, u.release);
    EXPECT_GT(hw.threads, 0);
    EXPECT_GT(hw.memory_total_bytes, 0u);
    EXPECT_FALSE(hw.os_name.empty());
}

TEST(SshSession, UnknownHostKeyCarriesItsFingerprint) {
    test::SshdServer server;
    auto o = options(server);
    o.known_hosts = server.dir().file("empty_known_hosts");
    std::string message, fingerprint;
    EXPECT_EQ(connect_error(server, o, &message, &fingerprint), SshError::Kind::unknown_host);
    EXPECT_EQ(fingerprint, server.host_fingerprint());
    EXPECT_NE(message.find(server.host_fingerprint()), std::string::npos) << message;
    EXPECT_NE(message.find("perflab hosts trust"), std::string::npos) << message;
}

TEST(SshSession, ChangedHostKeyIsRefused) {
    test::SshdServer server;
    auto o = options(server);
    o.known_hosts = server.make_wrong_known_hosts("stale_known_hosts");
    std::string message;
    EXPECT_EQ(connect_error(server, o, &message), SshError::Kind::changed_host);
    EXPECT_NE(message.find("HOST KEY CHANGED"), std::string::npos) << message;
    // Trusting does not overwrite a changed key either.
    try {
        trust_host(target(server), o, TrustMode::shown);
        ADD_FAILURE() << "trusted a changed key";
    } catch (const SshError& e) {
        EXPECT_EQ(e.kind(), SshError::Kind::changed_host);
    }
}

TEST(SshSession, WrongClientKeyIsAnAuthenticationError) {
    test::SshdServer server;
    auto o = options(server);
    o.key_file = server.make_unaccepted_key("other_key");
    std::string message;
    EXPECT_EQ(connect_error(server, o, &message), SshError::Kind::auth);
    EXPECT_NE(message.find("authentication refused"), std::string::npos) << message;
    o.key_file = server.dir().file("no_such_key");
    EXPECT_EQ(connect_error(server, o, &message), SshError::Kind::key);
    EXPECT_NE(message.find("cannot read key"), std::string::npos) << message;
}

TEST(SshSession, NoServerIsAConnectError) {
    test::SshdServer server;
    server.stop();
    EXPECT_EQ(connect_error(server, options(server)), SshError::Kind::connect);
}

TEST(SshSession, TrustRecordsTheKey) {
    test::SshdServer server;
    auto o = options(server);
    o.known_hosts = server.dir().file("sub/dir/known_hosts");
    const TrustResult first = trust_host(target(server), o, TrustMode::shown);
    EXPECT_EQ(first.fingerprint, server.host_fingerprint());
    EXPECT_FALSE(first.already_known);
    EXPECT_TRUE(first.recorded);
    EXPECT_NE(test::read_file(o.known_hosts).find("[127.0.0.1]:" + std::to_string(server.port())),
              std::string::npos);
    EXPECT_TRUE(trust_host(target(server), o, TrustMode::shown).already_known);
    SshSession session(target(server), o);
    EXPECT_NO_THROW(session.connect());
}

// What `ssh-keygen -l` reads in a known_hosts file: "SHA256:... [127.0.0.1]:PORT", one a line.
std::vector<std::string> listed_keys(const std::string& known_hosts) {
    const auto o = test::run({"ssh-keygen", "-l", "-E", "sha256", "-f", known_hosts});
    std::vector<std::string> out;
    std::istringstream in(o.out);
    for (std::string bits, fingerprint, host, type; in >> bits >> fingerprint >> host >> type;)
        out.push_back(fingerprint + " " + host);
    return out;
}

TEST(SshSession, TrustRecordsExactlyTheAcceptedKey) {
    test::SshdServer server;
    auto o = options(server);
    o.known_hosts = server.dir().file("trusted_known_hosts");
    const TrustResult shown = trust_host(target(server), o, TrustMode::look);
    EXPECT_EQ(shown.fingerprint, server.host_fingerprint());
    EXPECT_FALSE(shown.recorded);
    EXPECT_FALSE(std::filesystem::exists(o.known_hosts)) << "looking wrote the key";

    const TrustResult trusted =
        trust_host(target(server), o, TrustMode::accepted, shown.fingerprint);
    EXPECT_TRUE(trusted.recorded);
    EXPECT_EQ(trusted.fingerprint, shown.fingerprint);
    const std::string host = "[127.0.0.1]:" + std::to_string(server.port());
    EXPECT_EQ(listed_keys(o.known_hosts), std::vector<std::string>{shown.fingerprint + " " + host});
    // The very key of host_key.pub ("type base64 comment"), not just one with its fingerprint.
    const std::string pub = test::read_file(server.dir().file("host_key.pub"));
    const std::string key = pub.substr(0, pub.find(' ', pub.find(' ') + 1));
    EXPECT_EQ(test::read_file(o.known_hosts), host + " " + key + "\n");
    SshSession session(target(server), o);
    EXPECT_NO_THROW(session.connect());
}

TEST(SshSession, TrustRefusesAKeyOtherThanTheAccepted) {
    test::SshdServer server;
    auto o = options(server);
    o.known_hosts = server.dir().file("trusted_known_hosts");
    // Another host's line, which must survive untouched.
    const std::string pub = test::read_file(server.client_key() + ".pub");
    const std::string other_host =
        "[127.0.0.1]:1 " + pub.substr(0, pub.find(' ', pub.find(' ') + 1)) + "\n";
    server.dir().write("trusted_known_hosts", other_host);
    const TrustResult shown = trust_host(target(server), o, TrustMode::look);
    ASSERT_EQ(shown.fingerprint, server.host_fingerprint());
    // The host's key changes between the fingerprint shown and the trust.
    server.replace_host_key();
    ASSERT_NE(server.host_fingerprint(), shown.fingerprint);
    const std::string before = test::read_file(o.known_hosts);
    try {
        trust_host(target(server), o, TrustMode::accepted, shown.fingerprint);
        ADD_FAILURE() << "trusted a key nobody accepted";
    } catch (const SshError& e) {
        EXPECT_EQ(e.kind(), SshError::Kind::changed_host);
        const std::string message = e.what();
        EXPECT_NE(message.find(shown.fingerprint), std::string::npos) << message;
        EXPECT_NE(message.find(server.host_fingerprint()), std::string::npos) << message;
        EXPECT_EQ(e.fingerprint(), server.host_fingerprint());
    }
    EXPECT_EQ(test::read_file(o.known_hosts), before);
    EXPECT_EQ(connect_error(server, o), SshError::Kind::unknown_host);
}

// Options under which only the deadline (or a cancel) can end a wait on the host: libssh's own
// timeout for each wait is longer than any test runs.
SshOptions patient_options(const std::string& known_hosts, int deadline_s) {
    SshOptions o;
    o.known_hosts = known_hosts;
    o.timeout_s = 3600;
    o.deadline_s = deadline_s;
    return o;
}

TEST(SshSession, SilentHostFailsAtTheDeadline) {
    test::SilentServer silent;
    test::TempDir dir;
    const auto o = patient_options(dir.file("known_hosts"), 2);
    try {
        SshSession session(*parse_ssh_target(silent.target()), o);
        session.connect();
        ADD_FAILURE() << "connected to a host that never spoke";
    } catch (const SshError& e) {
        EXPECT_EQ(e.kind(), SshError::Kind::connect);
        const std::string message = e.what();
        EXPECT_NE(message.find("cannot connect: not done within the 2 s deadline"),
                  std::string::npos)
            << message;
        EXPECT_NE(message.find(silent.target()), std::string::npos) << message;
    }
    EXPECT_EQ(silent.accepted(), 1);
}

TEST(SshSession, CancelFromAnotherThreadEndsABlockedConnect) {
    test::SilentServer silent;
    test::TempDir dir;
    auto o = patient_options(dir.file("known_hosts"), 3600);
    o.cancel = std::make_shared<SshCancel>();
    auto connecting = std::async(std::launch::async, [&] {
        SshSession session(*parse_ssh_target(silent.target()), o);
        session.connect();
    });
    ASSERT_TRUE(silent.wait_for_connections(1, 30000));
    o.cancel->cancel();
    ASSERT_EQ(connecting.wait_for(60s), std::future_status::ready) << "the cancel did not reach it";
    try {
        connecting.get();
        ADD_FAILURE() << "connected to a host that never spoke";
    } catch (const SshError& e) {
        EXPECT_EQ(e.kind(), SshError::Kind::cancelled);
        EXPECT_NE(std::string(e.what()).find("cancelled"), std::string::npos) << e.what();
    }
    // Cancelled for good: a session made with the same options does not even connect.
    SshSession again(*parse_ssh_target(silent.target()), o);
    try {
        again.connect();
        ADD_FAILURE() << "connected after the cancel";
    } catch (const SshError& e) {
        EXPECT_EQ(e.kind(), SshError::Kind::cancelled);
    }
    EXPECT_EQ(silent.accepted(), 1);
}

TEST(SshSession, CommandThatNeverEndsFailsAtTheDeadline) {
    test::SshdServer server;
    auto o = patient_options(server.known_hosts(), 2);
    o.key_file = server.client_key();
    SshSession session(target(server), o);
    session.connect();
    // `cat` waits for stdin, which stays open while the channel does: no output, no end.
    try {
        session.run("cat");
        ADD_FAILURE() << "a command that never ends returned";
    } catch (const SshError& e) {
        EXPECT_NE(std::string(e.what()).find("not done within the 2 s deadline"), std::string::npos)
            << e.what();
    }
}

// A host too busy to answer within one wait: its sshd stopped (SIGSTOP) for longer than two
// waits of timeout_s as the command is asked for, then let go. The command still runs, as it
// would have on time; only the deadline would have failed it. (The stall is the fault, as a
// loaded host makes it; nothing here is timed.)
TEST(SshSession, AHostSlowerThanOneWaitStillRunsTheCommand) {
    test::SshdServer server;
    SshOptions o = options(server);
    o.timeout_s = 1;
    o.deadline_s = 60;
    SshSession session(target(server), o);
    session.connect();
    const std::vector<pid_t> sshd = test::descendants(server.pid());
    ASSERT_FALSE(sshd.empty());
    for (const pid_t pid : sshd)
        ASSERT_EQ(kill(pid, SIGSTOP), 0);
    auto ran = std::async(std::launch::async, [&] { return session.run("echo ran"); });
    std::this_thread::sleep_for(3s);
    for (const pid_t pid : sshd)
        kill(pid, SIGCONT);
    EXPECT_EQ(ran.get(), "ran\n");
}

TEST(ProbeRunner, StopWhileProbesConnectCancelsThem) {
    test::SilentServer silent;
    test::TempDir dir;
    ProbeSpec spec;
    spec.type = ProbeSpec::Type::ssh;
    spec.target = silent.target();
    ProbeOptions options;
    options.known_hosts = dir.file("known_hosts");
    options.cancel = std::make_shared<SshCancel>();
    ProbeRunner runner({spec}, 1000, options);
    auto opening = std::async(std::launch::async, [&] { runner.open(); });
    ASSERT_TRUE(silent.wait_for_connections(1, 30000));
    options.cancel->cancel();
    ASSERT_EQ(opening.wait_for(60s), std::future_status::ready) << "the cancel did not reach it";
    try {
        opening.get();
        ADD_FAILURE() << "a probe opened on a host that never spoke";
    } catch (const SshError& e) {
        EXPECT_EQ(e.kind(), SshError::Kind::cancelled) << e.what();
    }
}

TEST(SshProbe, RemoteLoopEndsWithTheProbe) {
    test::SshdServer server;
    int pid = 0;
    long session = -1;
    {
        SshProbe probe(target(server), options(server));
        probe.open();
        pid = probe.remote_pid();
        ASSERT_GT(pid, 0);
        session = session_of(std::to_string(pid));
        ASSERT_GT(session, 0);
        EXPECT_TRUE(test::process_alive(pid));
        EXPECT_NE(test::read_file("/proc/" + std::to_string(pid) + "/cmdline").find("@@end"),
                  std::string::npos);
        probe.close();
    }
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (test::process_alive(pid) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(20ms);
    EXPECT_FALSE(test::process_alive(pid));
    // Nothing of the loop's session survives it (its `head`s, a sleep), and tests running
    // beside this one, with remote loops of their own, do not count.
    std::vector<std::string> left;
    while (!(left = processes_in_session(session)).empty() &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(20ms);
    EXPECT_TRUE(left.empty()) << "left behind: " << left.front();
}

TEST(SshProbe, DroppedConnectionGivesGapsThenReconnects) {
    test::SshdServer server;
    SshProbe probe(target(server), options(server));
    probe.open();
    std::this_thread::sleep_for(200ms);
    EXPECT_FALSE(probe.poll().gap);
    server.stop();
    const ProbeReading lost = probe.poll();
    EXPECT_TRUE(lost.gap);
    EXPECT_TRUE(lost.values.empty());
    ASSERT_EQ(lost.events.size(), 1u);
    EXPECT_EQ(lost.events[0].kind, "error");
    EXPECT_TRUE(probe.poll().gap);  // still down
    server.start();
    bool reconnected = false;
    int gaps = 0;
    const auto deadline = std::chrono::steady_clock::now() + 15s;
    while (!reconnected && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(250ms);
        const ProbeReading r = probe.poll();
        gaps += r.gap;
        reconnected = !r.gap;
    }
    EXPECT_TRUE(reconnected);
    EXPECT_GE(gaps, 1);  // the reconnecting tick itself is not bridged
}

}  // namespace
}  // namespace perflab
