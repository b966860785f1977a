// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <mutex>
#include <string>

namespace perflab {

// The first of many threads' errors, kept once: after it, noting another costs one atomic
// load, and its text is never built.
class FirstError {
  public:
    template <class MakeText>
    void note(MakeText&& make_text) {
        if (set_.load(std::memory_order_acquire)) return;
        std::lock_guard lock(mutex_);
        if (set_.load(std::memory_order_relaxed)) return;
        text_ = make_text();
        set_.store(true, std::memory_order_release);
    }
    std::string text() const {
        std::lock_guard lock(mutex_);
        return text_;
    }

  private:
    std::atomic<bool> set_{false};
    mutable std::mutex mutex_;
    std::string text_;
};

}  // namespace perflab
