// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "nginx_server.h"
#include "process.h"
#include "process_probe.h"
#include "reading_log.h"
#include "sshd_server.h"

namespace perflab {
namespace {

using namespace std::chrono_literals;

// A field of /proc/PID/status, e.g. "Threads" or "VmRSS" (its number, kB for sizes).
double proc_status(pid_t pid, const std::string& field) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(in, line);)
        if (line.starts_with(field + ":")) return std::stod(line.substr(field.size() + 1));
    ADD_FAILURE() << "no " << field << " in /proc/" << pid << "/status";
    return -1;
}

nlohmann::json http_spec(const std::string& url, double seconds, const nlohmann::json& probe) {
    return {{"name", "process probe"},
            {"kind", "http"},
            {"tick_ms", 500},
            {"phases", {{{"duration_s", seconds}, {"rate", 50}}}},
            {"http", {{"targets", {{{"url", url}}}}, {"threads", 1}}},
            {"probes", {probe}}};
}

// PerflabHotThreads compiled and started, up once it printed "ready" (its three threads run).
struct HotJvm {
    test::TempDir dir;
    std::string token = "perflab-hot-" + std::to_string(::getpid());
    test::Process process;

    HotJvm() {
        const auto c = test::run(
            {"javac", "-d", dir.path(),
             std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/jvm/PerflabHotThreads.java"});
        EXPECT_EQ(c.code, 0) << c.err;
        process = test::Process(
            {"java", "-Xmx32m", "-Xms32m", "-cp", dir.path(), "PerflabHotThreads", token},
            dir.file("out"), dir.file("err"));
        EXPECT_TRUE(test::wait_until(
            [&] { return test::read_file(dir.file("out")).find("ready") != std::string::npos; },
            20s))
            << "the JVM did not start: " << test::read_file(dir.file("err"));
    }
};

// The stat file of the thread of process `pid` named `name` (its comm, which a JVM sets to the
// Java thread's name).
std::filesystem::path thread_stat(pid_t pid, const std::string& name) {
    const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
    for (const auto& task : std::filesystem::directory_iterator(tasks)) {
        std::string comm;
        std::getline(std::ifstream(task.path() / "comm"), comm);
        if (comm == name) return task.path() / "stat";
    }
    ADD_FAILURE() << "no thread " << name << " in " << tasks;
    return {};
}

// utime + stime of a /proc/PID/task/TID/stat, in clock ticks.
double thread_cpu_ticks(const std::filesystem::path& stat) {
    std::ifstream in(stat);
    std::string line;
    std::getline(in, line);
    // After the command's closing parenthesis: state, then 10 fields, then utime, stime.
    std::istringstream fields(line.substr(line.rfind(')') + 2));
    std::string field;
    double utime = 0, stime = 0;
    for (int i = 0; i < 11; ++i)
        fields >> field;
    fields >> utime >> stime;
    return utime + stime;
}

// A thread's CPU time read every 20 ms: the share of a core the machine gave that thread over
// any window of a run.
class ThreadCpuLog {
  public:
    ThreadCpuLog(pid_t pid, const std::string& name)
        : log_([stat = thread_stat(pid, name)] { return thread_cpu_ticks(stat); }) {}
    // % of one core from `from_ms` to `to_ms` (wall clock).
    double share(int64_t from_ms, int64_t to_ms) {
        const double hz = double(sysconf(_SC_CLK_TCK));
        const auto a = log_.at(from_ms), b = log_.at(to_ms);
        return 100.0 * (b.second - a.second) / hz / (double(b.first - a.first) / 1000.0);
    }

  private:
    test::ReadingLog<double> log_;
};

// The hot-threads table a report JSON gives for the whole run.
std::vector<nlohmann::json> run_threads(const nlohmann::json& exported) {
    std::vector<nlohmann::json> out;
    for (const auto& t : exported.at("hot_threads").at("run"))
        out.push_back(t);
    return out;
}

TEST(ProcessProbe, HotJavaThreadsTopTheTableByTheirJvmNames) {
    HotJvm jvm;
    test::NginxServer nginx;
    test::TempDir dir;
    ThreadCpuLog alpha(jvm.process.pid(), "hot-alpha"), beta(jvm.process.pid(), "hot-beta");
    const nlohmann::json probe = {{"process", {{"match", "PerflabHotThreads " + jvm.token}}}};
    dir.write("spec.json", http_spec(nginx.url("/ok"), 4, probe).dump());
    const std::string db = dir.file("runs.db");
    const auto run = test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db}, 120);
    ASSERT_EQ(run.code, 0) << run.out << run.err;
    // Read right after the run: the JVM's threads are as many, its heap as large.
    const double threads = proc_status(jvm.process.pid(), "Threads");
    const double rss = proc_status(jvm.process.pid(), "VmRSS") * 1024;
    const auto e = test::run({PERFLAB_BINARY, "export", "1", "--db", db, "--format", "json"}, 60);
    ASSERT_EQ(e.code, 0) << e.err;
    const auto exported = nlohmann::json::parse(e.out);

    std::vector<nlohmann::json> samples;
    for (const auto& s : exported.at("probe_samples"))
        if (s.at("kind") == "process" && !s.at("gap").get<bool>()) samples.push_back(s);
    ASSERT_GE(samples.size(), 3u) << exported.at("probe_samples").dump();
    const auto& last = samples.back().at("values");
    EXPECT_EQ(last.at("pid").get<long>(), long(jvm.process.pid()));
    // JIT compiler threads come and go with the JVM's work: a couple either way.
    EXPECT_NEAR(last.at("threads").get<double>(), threads, 2) << last.dump();
    EXPECT_NEAR(last.at("rss").get<double>(), rss, rss * 0.1) << last.dump();
    EXPECT_GT(last.at("open_files").get<double>(), 0);
    EXPECT_TRUE(last.contains("ctx_voluntary_ps")) << last.dump();
    EXPECT_TRUE(last.contains("ctx_involuntary_ps")) << last.dump();
    // The process's CPU holds its top threads' (the two spinners among them), read at the same
    // moment; each thread's rounded to a clock tick: 10 points of slack.
    double threads_cpu = 0;
    for (const auto& [key, v] : last.items())
        if (key.starts_with("thread.")) threads_cpu += v.get<double>();
    EXPECT_GE(last.at("cpu_user_pct").get<double>() + last.at("cpu_system_pct").get<double>() + 10,
              threads_cpu)
        << last.dump();

    const auto table = run_threads(exported);
    ASSERT_GE(table.size(), 2u) << exported.at("hot_threads").dump();
    std::cout << "hot threads over the run:\n";
    for (const auto& t : table)
        std::cout << "  " << t.at("thread").get<std::string>() << " " << t.at("mean_cpu_pct")
                  << "% in " << t.at("samples") << "/" << t.at("process_samples") << "\n";
    const std::set<std::string> top = {table[0].at("thread").get<std::string>(),
                                       table[1].at("thread").get<std::string>()};
    EXPECT_EQ(top, (std::set<std::string>{"hot-alpha", "hot-beta"}));
    // A spinner's mean is the share of a core the machine gave it over the samples (its own
    // /proc/PID/task/TID/stat over the same window), within 15 points: about a core on a quiet
    // machine, less beside other work. The first sample covers the tick before its time.
    const int64_t started = exported.at("run").at("started_at_ms").get<int64_t>();
    const int64_t from = started + samples.front().at("t_ms").get<int64_t>() - 500;
    const int64_t to = started + samples.back().at("t_ms").get<int64_t>();
    for (int i = 0; i < 2; ++i) {
        ThreadCpuLog& own = table[i].at("thread") == "hot-alpha" ? alpha : beta;
        const double machine = own.share(from, to);
        EXPECT_NEAR(table[i].at("mean_cpu_pct").get<double>(), machine, 15)
            << table[i].dump() << " (the thread's own figure: " << machine << "%)";
        EXPECT_GT(machine, 5) << table[i].dump();
    }
    for (const auto& t : table) {
        if (t.at("thread") == "cold") {
            EXPECT_LT(t.at("mean_cpu_pct").get<double>(),
                      table[1].at("mean_cpu_pct").get<double>());
        }
    }

    const auto md = test::run({PERFLAB_BINARY, "export", "1", "--db", db, "--format", "md"}, 60);
    ASSERT_EQ(md.code, 0) << md.err;
    EXPECT_NE(md.out.find("## Hot threads"), std::string::npos) << md.out;
    EXPECT_NE(md.out.find("| hot-alpha |"), std::string::npos) << md.out;
}

TEST(ProcessProbe, ByPidReadsTheSameProcess) {
    HotJvm jvm;
    test::NginxServer nginx;
    test::TempDir dir;
    const nlohmann::json probe = {{"process", {{"pid", jvm.process.pid()}, {"top", 2}}}};
    dir.write("spec.json", http_spec(nginx.url("/ok"), 2, probe).dump());
    const std::string db = dir.file("runs.db");
    const auto run = test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db}, 120);
    ASSERT_EQ(run.code, 0) << run.out << run.err;
    const auto e = test::run({PERFLAB_BINARY, "export", "1", "--db", db, "--format", "json"}, 60);
    ASSERT_EQ(e.code, 0) << e.err;
    const auto exported = nlohmann::json::parse(e.out);
    size_t seen = 0;
    for (const auto& s : exported.at("probe_samples")) {
        if (s.at("kind") != "process" || s.at("gap").get<bool>()) continue;
        ++seen;
        size_t named = 0;
        for (const auto& [key, v] : s.at("values").items())
            named += key.starts_with("thread.") ? 1 : 0;
        EXPECT_EQ(named, 2u) << s.dump();
    }
    // A loaded machine may give the 2-s run only one reading after the probe's baseline.
    EXPECT_GE(seen, 1u);
}

// Polls until a reading is ready (the loop's first tick after the baseline), or 20 s pass.
ProbeReading next_reading(ProcessProbe& probe) {
    ProbeReading r;
    test::wait_until(
        [&] {
            r = probe.poll();
            return r.ready;
        },
        20s);
    return r;
}

TEST(ProcessProbe, ViaSshNamesTheJvmThreadsOnTheHost) {
    HotJvm jvm;
    test::SshdServer server;
    ProcessTarget t;
    t.ssh = parse_ssh_target(server.target());
    t.ssh_options.key_file = server.client_key();
    t.ssh_options.known_hosts = server.known_hosts();
    t.match = "PerflabHotThreads " + jvm.token;
    t.top = 2;
    ProcessProbe probe(t, 500);
    probe.open();
    EXPECT_EQ(probe.pid(), long(jvm.process.pid()));
    const ProbeReading r = next_reading(probe);
    ASSERT_TRUE(r.ready);
    EXPECT_FALSE(r.gap);
    EXPECT_TRUE(r.values.contains("thread.hot-alpha.cpu_pct")) << r.values.dump();
    EXPECT_TRUE(r.values.contains("thread.hot-beta.cpu_pct")) << r.values.dump();
}

TEST(ProcessProbe, AProcessThatExitsIsAGapAndAnEvent) {
    HotJvm jvm;
    ProcessTarget t;
    t.pid = jvm.process.pid();
    ProcessProbe probe(t, 500);
    probe.open();
    ASSERT_FALSE(next_reading(probe).gap);
    jvm.process.stop();
    // A reading the loop took before the exit may come first.
    ProbeReading r;
    EXPECT_TRUE(test::wait_until(
        [&] {
            r = probe.poll();
            return r.gap;
        },
        20s));
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_NE(r.events[0].text.find("exited"), std::string::npos) << r.events[0].text;
}

TEST(ProcessProbe, NeitherMatchNorPidExitsTwoNamingIt) {
    test::TempDir dir;
    dir.write("spec.json", http_spec("http://127.0.0.1:9/", 1, {{"process", {{"top", 3}}}}).dump());
    const auto o =
        test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store", "-q"}, 60);
    EXPECT_EQ(o.code, 2) << o.out << o.err;
    EXPECT_NE(o.err.find("probes[0].process"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("\"pid\" and \"match\""), std::string::npos) << o.err;
}

TEST(ProcessProbe, APidThatDoesNotExistExitsTwoNamingIt) {
    test::TempDir dir;
    // Above any pid_max Linux allows (2^22): never a process.
    dir.write("spec.json",
              http_spec("http://127.0.0.1:9/", 1, {{"process", {{"pid", 2147483647}}}}).dump());
    const auto o =
        test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store", "-q"}, 60);
    EXPECT_EQ(o.code, 2) << o.out << o.err;
    EXPECT_NE(o.err.find("pid 2147483647: no such process"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace perflab
