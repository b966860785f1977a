// SPDX-License-Identifier: MIT
#include "signal_watch.h"

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <ctime>

namespace perflab {

namespace {
sigset_t stop_signals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    return set;
}
}  // namespace

SignalWatch::SignalWatch(std::function<void()> on_signal) : on_signal_(std::move(on_signal)) {
    const sigset_t set = stop_signals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    thread_ = std::thread([this, set] {
        int received = 0;
        const timespec poll{0, 100'000'000};
        while (!done_.load()) {
            if (sigtimedwait(&set, nullptr, &poll) < 0) continue;
            if (received++ > 1) _exit(130);
            if (on_signal_) on_signal_();
        }
    });
}

SignalWatch::~SignalWatch() {
    done_.store(true);
    thread_.join();
}

}  // namespace perflab
