// SPDX-License-Identifier: MIT
// How long the GUI thread's event loop stalls while the window shows a run at full engine
// speed, with this host and the memcached probed as a user would (not a test: no assertion,
// not in ctest). A 5 ms timer on the GUI thread measures how late each of its ticks comes;
// the window's memory (RSS, and malloc's bytes in use) is read every 10 s. A stall over 50 ms
// is split into the GUI thread's own CPU time in it (work the window did) and the rest (time
// the thread was ready but the two cores ran the engine and memcached). The slowest events the
// GUI thread handled are listed with their receiver and own CPU time, to say what a stall was
// made of, and the thread's CPU is summed by receiver and event type, to say where it goes.
// Usage: gui_stall_bench [SECONDS] [CONNECTIONS] [TICK_MS]   (defaults: 60, 50, 1000;
// QT_QPA_PLATFORM=offscreen works, xvfb-run shows the real painting cost). A short tick
// packs an hour's 3600 ticks into less time: 900 s at 250 ms.
#include <malloc.h>
#include <sys/resource.h>
#include <time.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "main_window.h"
#include "memcached_server.h"
#include "metatypes.h"
#include "model/spec.h"
#include "process.h"
#include "resources.h"

using namespace perflab;

namespace {

constexpr int kTimerMs = 5;

long rss_kib() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return 0;
}

// What malloc has handed out and not taken back: RSS less the libraries, fonts and freed but
// unreturned pages, so growth here is the program's own.
long heap_in_use_kib() {
    return long(mallinfo2().uordblks / 1024);
}

double thread_cpu_ms() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

long involuntary_switches() {
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return usage.ru_nivcsw;
}

// Times each event the GUI thread dispatches from its event loop (not the ones sent from
// inside another's handling) and keeps the slowest.
class TimedApplication : public QApplication {
  public:
    using QApplication::QApplication;
    struct Slow {
        double ms;
        double cpu_ms;  // the GUI thread's own CPU time in it
        double at_s;
        QString what;
    };
    struct Cost {
        double cpu_ms = 0;
        long count = 0;
    };
    std::vector<Slow> slowest;       // the 8 slowest, slowest first
    std::map<QString, Cost> cpu_by;  // own CPU time by receiver class and event type
    QElapsedTimer clock;             // started with the run: events before it are not timed

    bool notify(QObject* receiver, QEvent* event) override {
        if (depth_ > 0 || !clock.isValid()) return QApplication::notify(receiver, event);
        ++depth_;
        // Named before its handling, which may delete the receiver and the event.
        const QString kind = QStringLiteral("%1 event %2")
                                 .arg(QString::fromLatin1(receiver->metaObject()->className()))
                                 .arg(int(event->type()));
        const QString name = receiver->objectName();
        const qint64 start = clock.nsecsElapsed();
        const double cpu_start = thread_cpu_ms();
        const bool done = QApplication::notify(receiver, event);
        const double ms = double(clock.nsecsElapsed() - start) / 1e6;
        const double cpu_ms = thread_cpu_ms() - cpu_start;
        --depth_;
        Cost& cost = cpu_by[kind];
        cost.cpu_ms += cpu_ms;
        ++cost.count;
        if (slowest.size() < kKept || ms > slowest.back().ms) {
            Slow s{ms, cpu_ms, double(start) / 1e9,
                   name.isEmpty() ? kind : QStringLiteral("%1 \"%2\"").arg(kind, name)};
            slowest.insert(
                std::upper_bound(slowest.begin(), slowest.end(), s,
                                 [](const Slow& a, const Slow& b) { return a.ms > b.ms; }),
                s);
            if (slowest.size() > kKept) slowest.pop_back();
        }
        return done;
    }

  private:
    static constexpr size_t kKept = 8;
    int depth_ = 0;
};

struct Stall {
    double at_s;
    double ms;
    double cpu_ms;   // the GUI thread's own CPU time in it
    long preempted;  // times the kernel took the core from it in the meantime
};

SpecResult full_speed_spec(const std::string& server, int seconds, int connections, int tick_ms) {
    const nlohmann::json j = {{"name", "gui stall bench"},
                              {"kind", "cache"},
                              {"tick_ms", tick_ms},
                              {"phases", {{{"duration_s", seconds}, {"concurrency", connections}}}},
                              {"probes", {{{"local", true}}, {{"memcached", server}}}},
                              {"cache",
                               {{"servers", {server}},
                                {"workload", "cache-aside"},
                                {"keys", {{"count", 100000}}},
                                {"value_size", {{"min", 100}, {"max", 1000}}}}}};
    return parse_spec(j);
}

}  // namespace

int main(int argc, char** argv) {
    TimedApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("PerfLabBench"));
    QStandardPaths::setTestModeEnabled(true);  // settings and the run store away from the user's
    register_metatypes();
    init_resources();
    const int seconds = argc > 1 ? std::atoi(argv[1]) : 60;
    const int connections = argc > 2 ? std::atoi(argv[2]) : 50;
    const int tick_ms = argc > 3 ? std::atoi(argv[3]) : 1000;

    // The run is stored as any GUI run is, in a database of its own.
    test::TempDir data;
    setenv("XDG_DATA_HOME", data.path().c_str(), 1);
    test::MemcachedServer server(256);
    MainWindow window;
    window.resize(1400, 900);
    window.show();

    std::vector<double> late_ms, busy_ms;
    std::pair<double, double> busiest{0, 0};  // (s into the run, ms of CPU)
    std::vector<Stall> long_stalls;           // over 50 ms
    std::vector<long> rss, heap;
    const QElapsedTimer& clock = app.clock;  // since the run's start, as the events' times
    qint64 last = -1;
    double last_cpu = 0;
    long last_switches = 0;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        const double cpu = thread_cpu_ms();
        const long switches = involuntary_switches();
        if (last >= 0) {
            late_ms.push_back(std::max(0.0, double(now - last) / 1e6 - kTimerMs));
            busy_ms.push_back(cpu - last_cpu);
            if (busy_ms.back() > busiest.second) busiest = {double(now) / 1e9, busy_ms.back()};
            if (late_ms.back() > 50)
                long_stalls.push_back(
                    {double(now) / 1e9, late_ms.back(), cpu - last_cpu, switches - last_switches});
        }
        last = now;
        last_cpu = cpu;
        last_switches = switches;
    });
    QTimer memory;
    const auto sample_memory = [&] {
        rss.push_back(rss_kib());
        heap.push_back(heap_in_use_kib());
    };
    QObject::connect(&memory, &QTimer::timeout, sample_memory);
    QObject::connect(&window, &MainWindow::runFinished, &app, [&] {
        probe.stop();
        QTimer::singleShot(200, &app, &QApplication::quit);
    });

    const SpecResult spec = full_speed_spec(server.endpoint(), seconds, connections, tick_ms);
    if (!spec) {
        std::fprintf(stderr, "%s\n", spec.error_text().c_str());
        return 2;
    }
    QString error;
    if (!window.startRun(*spec.spec, &error)) {
        std::fprintf(stderr, "cannot start: %s\n", qPrintable(error));
        return 2;
    }
    app.clock.start();
    probe.start(kTimerMs);
    memory.start(10'000);
    sample_memory();
    app.exec();

    if (late_ms.empty()) return 1;
    std::sort(late_ms.begin(), late_ms.end());
    const auto at = [&](double p) { return late_ms[size_t(p * double(late_ms.size() - 1))]; };
    const auto over =
        std::count_if(late_ms.begin(), late_ms.end(), [](double v) { return v > 50; });
    std::printf(
        "event loop during a %d s run at full speed (%d connections, %d ms ticks): %zu timer "
        "ticks\n",
        seconds, connections, tick_ms, late_ms.size());
    std::printf("stall ms: p50 %.2f  p99 %.2f  p99.9 %.2f  max %.2f; over 50 ms: %ld\n", at(0.5),
                at(0.99), at(0.999), late_ms.back(), long(over));
    std::sort(busy_ms.begin(), busy_ms.end());
    std::printf(
        "GUI thread's own CPU time between two timer ticks: p99.9 %.2f  max %.2f ms (at %.1f s)\n",
        busy_ms[size_t(0.999 * double(busy_ms.size() - 1))], busy_ms.back(), busiest.first);
    for (const Stall& s : long_stalls)
        std::printf(
            "stall of %.1f ms at %.1f s: %.1f ms of it the GUI thread's CPU, preempted %ld "
            "times\n",
            s.ms, s.at_s, s.cpu_ms, s.preempted);
    std::printf(
        "slowest events (wall ms, own CPU ms, s into the run, receiver and QEvent type):\n");
    for (const auto& s : app.slowest)
        std::printf("  %6.1f ms (CPU %5.1f) at %5.1f s: %s\n", s.ms, s.cpu_ms, s.at_s,
                    qPrintable(s.what));
    std::vector<std::pair<QString, TimedApplication::Cost>> costs(app.cpu_by.begin(),
                                                                  app.cpu_by.end());
    std::sort(costs.begin(), costs.end(),
              [](const auto& a, const auto& b) { return a.second.cpu_ms > b.second.cpu_ms; });
    std::printf(
        "GUI thread's CPU by receiver and event (ms per second of run, events, mean ms):\n");
    for (size_t i = 0; i < std::min<size_t>(costs.size(), 8); ++i)
        std::printf("  %6.2f ms/s  %6ld  %6.2f ms: %s\n", costs[i].second.cpu_ms / seconds,
                    costs[i].second.count, costs[i].second.cpu_ms / double(costs[i].second.count),
                    qPrintable(costs[i].first));
    std::printf("window RSS (KiB) every 10 s:");
    for (const long r : rss)
        std::printf(" %ld", r);
    std::printf("\nheap in use (KiB) every 10 s:");
    for (const long h : heap)
        std::printf(" %ld", h);
    std::printf("\n");
    return 0;
}
