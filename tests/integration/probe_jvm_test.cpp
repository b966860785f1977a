// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <mutex>
#include <thread>

#include "jvm_probe.h"
#include "probe_runner.h"
#include "process.h"
#include "sshd_server.h"

namespace perflab {
namespace {

using namespace std::chrono_literals;

class Collector : public RunObserver {
  public:
    void on_probe_sample(const ProbeSample& s) override {
        std::lock_guard lock(mutex_);
        samples_.push_back(s);
    }
    void on_event(const RunEvent& e) override {
        std::lock_guard lock(mutex_);
        events_.push_back(e);
    }
    std::vector<ProbeSample> samples() {
        std::lock_guard lock(mutex_);
        return samples_;
    }
    std::vector<RunEvent> events() {
        std::lock_guard lock(mutex_);
        return events_;
    }

  private:
    std::mutex mutex_;
    std::vector<ProbeSample> samples_;
    std::vector<RunEvent> events_;
};

// The demo program compiled once per test binary run, then started per test.
class JvmProbeTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        classes_ = new test::TempDir;
        const auto o = test::run(
            {"javac", "-d", classes_->path(),
             std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/probes/PerflabGcDemo.java"});
        ASSERT_EQ(o.code, 0) << o.err;
    }
    static void TearDownTestSuite() { delete classes_; }

    void SetUp() override {
        trigger_ = dir_.file("gc-now");
        jvm_ = start_demo();
    }

    // The demo JVM, once its process is java (a pattern can find it) and jstat can read it.
    test::Process start_demo() {
        test::Process jvm({"java", "-Xmx64m", "-Xms64m", "-XX:+UseG1GC", "-cp", classes_->path(),
                           "PerflabGcDemo", trigger_});
        const std::string pid = std::to_string(jvm.pid());
        const auto deadline = std::chrono::steady_clock::now() + 20s;
        while (test::run({"jstat", "-gcutil", pid}).code != 0 &&
               std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(50ms);
        EXPECT_EQ(test::run({"jstat", "-gcutil", pid}).code, 0) << "the demo JVM did not start";
        return jvm;
    }

    // Polls through a ProbeRunner at 500 ms until `done` holds or `timeout` passes.
    template <typename Done>
    bool run_until(ProbeRunner& runner, Collector& c, Done done, std::chrono::seconds timeout) {
        runner.add_observer(&c);
        runner.open();
        runner.start(ProbeRunner::Clock::now());
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (!done() && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(100ms);
        runner.stop();
        return done();
    }

    static inline test::TempDir* classes_ = nullptr;
    test::TempDir dir_;
    std::string trigger_;
    test::Process jvm_;
};

bool has_gc_event(const std::vector<RunEvent>& events) {
    for (const auto& e : events)
        if (e.kind == "gc") return true;
    return false;
}

TEST_F(JvmProbeTest, YoungCollectionsRiseAndSystemGcIsAFullGcEvent) {
    JvmTarget t;
    t.match = "PerflabGcDemo " + trigger_;
    std::vector<std::unique_ptr<Probe>> probes;
    probes.push_back(std::make_unique<JvmProbe>(t, 500));
    auto* jvm = static_cast<JvmProbe*>(probes.back().get());
    ProbeRunner runner(std::move(probes), 500);
    Collector c;
    const bool full_gc = run_until(
        runner, c,
        [&] {
            // Ask for the full collection once young ones have been seen.
            const auto s = c.samples();
            if (!s.empty() && s.back().values.value("young_gc", 0) > 0)
                std::ofstream(trigger_) << "";
            return has_gc_event(c.events());
        },
        20s);
    EXPECT_EQ(jvm->pid(), jvm_.pid());
    EXPECT_NE(jvm->hardware_profile()->server_notes.find("-Xmx64m"), std::string::npos);
    ASSERT_TRUE(full_gc) << "no full GC event";
    const auto samples = c.samples();
    ASSERT_GE(samples.size(), 2u);
    uint64_t young_delta = 0, full_delta = 0;
    for (const auto& s : samples) {
        EXPECT_EQ(s.kind, "jvm");
        EXPECT_FALSE(s.gap);
        young_delta += s.values.value("young_gc_delta", 0);
        full_delta += s.values.value("full_gc_delta", 0);
        EXPECT_TRUE(s.values.contains("eden_pct"));
        EXPECT_TRUE(s.values.contains("old_pct"));
    }
    EXPECT_GT(samples.back().values["young_gc"].get<uint64_t>(),
              samples.front().values["young_gc"].get<uint64_t>());
    EXPECT_GT(young_delta, 0u);
    EXPECT_GE(full_delta, 1u);
}

TEST_F(JvmProbeTest, OverSshByPidAndJstatEndsWithTheProbe) {
    test::SshdServer server;
    JvmTarget t;
    t.ssh = parse_ssh_target(server.target());
    t.ssh_options.key_file = server.client_key();
    t.ssh_options.known_hosts = server.known_hosts();
    t.pid = jvm_.pid();
    const std::string jstat_line = "jstat -gcutil " + std::to_string(jvm_.pid());
    {
        JvmProbe probe(t, 500);
        probe.open();
        EXPECT_EQ(test::run({"pgrep", "-f", jstat_line}).code, 0);
        std::this_thread::sleep_for(1200ms);
        const ProbeReading r = probe.poll();
        EXPECT_TRUE(r.ready);
        EXPECT_FALSE(r.gap);
        EXPECT_TRUE(r.values.contains("young_gc"));
        EXPECT_FALSE(probe.hardware_profile()->kernel.empty());
    }
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (test::run({"pgrep", "-f", jstat_line}).code == 0 &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(100ms);
    EXPECT_NE(test::run({"pgrep", "-f", jstat_line}).code, 0) << "jstat left behind";
}

TEST_F(JvmProbeTest, NoSuchProcessIsAClearError) {
    JvmTarget t;
    t.match = "no-such-jvm-anywhere-4711";
    JvmProbe probe(t, 500);
    try {
        probe.open();
        FAIL() << "opened";
    } catch (const ProbeError& e) {
        EXPECT_NE(std::string(e.what()).find("no such java process"), std::string::npos)
            << e.what();
    }
}

TEST_F(JvmProbeTest, TwoMatchingJvmsAreRefusedListingBoth) {
    test::Process second = start_demo();
    JvmTarget t;
    t.match = "PerflabGcDemo " + trigger_;
    JvmProbe probe(t, 500);
    try {
        probe.open();
        FAIL() << "opened pid " << probe.pid() << " of two";
    } catch (const ProbeError& e) {
        const std::string text = e.what();
        EXPECT_NE(text.find("2 java processes match"), std::string::npos) << text;
        for (const pid_t pid : {jvm_.pid(), second.pid()})
            EXPECT_NE(text.find("\n  " + std::to_string(pid) + " java -Xmx64m"), std::string::npos)
                << text;
    }
    // The command line says the same and exits 2: bad input, nothing sampled.
    const auto cli =
        test::run({PERFLAB_BINARY, "probe", "jvm:PerflabGcDemo " + trigger_, "--count", "1"}, 60);
    EXPECT_EQ(cli.code, 2) << cli.out << cli.err;
    EXPECT_NE(cli.err.find(std::to_string(second.pid())), std::string::npos) << cli.err;
    EXPECT_TRUE(cli.out.empty()) << cli.out;
}

TEST_F(JvmProbeTest, PidThatIsNotAJvmIsAOneLineError) {
    test::Process sleeper({"sleep", "60"});
    JvmTarget t;
    t.pid = sleeper.pid();
    JvmProbe probe(t, 500);
    try {
        probe.open();
        FAIL() << "opened a probe on sleep";
    } catch (const ProbeError& e) {
        const std::string text = e.what();
        EXPECT_NE(text.find("pid " + std::to_string(sleeper.pid()) + " is not a JVM"),
                  std::string::npos)
            << text;
        EXPECT_EQ(text.find('\n'), std::string::npos) << text;
        EXPECT_EQ(text.find("\tat "), std::string::npos) << text;
        EXPECT_EQ(text.find("Exception"), std::string::npos) << text;
    }
    const auto cli = test::run(
        {PERFLAB_BINARY, "probe", "jvm:" + std::to_string(sleeper.pid()), "--count", "1"}, 60);
    EXPECT_EQ(cli.code, 2) << cli.err;
    EXPECT_EQ(std::count(cli.err.begin(), cli.err.end(), '\n'), 1) << cli.err;
}

}  // namespace
}  // namespace perflab
