// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <functional>
#include <thread>

namespace perflab {

// Turns SIGINT and SIGTERM into a call on a thread of its own (the handler context allows
// almost nothing). The first two signals call on_signal (a run stops, then stops waiting for
// replies in flight); a third one exits at once.
// Construct before any other thread starts, so every thread inherits the blocked mask.
class SignalWatch {
  public:
    explicit SignalWatch(std::function<void()> on_signal);
    ~SignalWatch();
    SignalWatch(const SignalWatch&) = delete;
    SignalWatch& operator=(const SignalWatch&) = delete;

  private:
    std::function<void()> on_signal_;
    std::atomic<bool> done_{false};
    std::thread thread_;
};

}  // namespace perflab
