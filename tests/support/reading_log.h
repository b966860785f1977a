// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace perflab::test {

// Milliseconds since the epoch, as a stored run's started_at_ms.
inline int64_t wall_ms_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// `read()` every 20 ms with the wall clock, while it lives: the machine's own figure over any
// window of a run, not over the life of the process that runs it (whose start and end, long
// under a sanitizer or on a loaded machine, a probe does not see).
template <class T>
class ReadingLog {
  public:
    explicit ReadingLog(std::function<T()> read)
        : read_(std::move(read)), thread_([this](std::stop_token stop) {
              while (!stop.stop_requested()) {
                  T reading = read_();
                  {
                      std::lock_guard lock(mutex_);
                      readings_.emplace_back(wall_ms_now(), std::move(reading));
                  }
                  std::this_thread::sleep_for(std::chrono::milliseconds(20));
              }
          }) {}

    // The reading taken nearest to `wall_ms`, with its time ({0, T{}} when there is none).
    std::pair<int64_t, T> at(int64_t wall_ms) {
        std::lock_guard lock(mutex_);
        const auto nearest = std::min_element(
            readings_.begin(), readings_.end(), [wall_ms](const auto& a, const auto& b) {
                return std::abs(a.first - wall_ms) < std::abs(b.first - wall_ms);
            });
        return nearest == readings_.end() ? std::pair<int64_t, T>{} : *nearest;
    }

    // Every reading so far, oldest first, each with its wall-clock time.
    std::vector<std::pair<int64_t, T>> readings() {
        std::lock_guard lock(mutex_);
        return readings_;
    }

  private:
    std::function<T()> read_;
    std::mutex mutex_;
    std::vector<std::pair<int64_t, T>> readings_;
    std::jthread thread_;
};

}  // namespace perflab::test
