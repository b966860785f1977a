// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <mutex>
#include <set>

namespace perflab {

// Ends SSH work from another thread: Stop pressed, or Ctrl-C, while probes connect to a host
// that does not answer. Sessions made with the same SshCancel (SshOptions::cancel) register
// their sockets here; cancel() shuts those sockets down, so a libssh call blocked on one
// returns at once with an error, and every later step of those sessions fails as cancelled.
// Only the sockets are touched from the cancelling thread, never libssh, which is not
// thread-safe.
class SshCancel {
  public:
    void cancel();  // any thread; idempotent
    bool cancelled() const { return cancelled_.load(); }

    // While added, cancel() shuts `fd` down; an fd added after cancel() is shut down at once.
    void add(int fd);
    void remove(int fd);  // before `fd` is closed, so that its number is never shut down reused

  private:
    std::mutex mutex_;
    std::set<int> fds_;
    std::atomic<bool> cancelled_{false};
};

}  // namespace perflab
