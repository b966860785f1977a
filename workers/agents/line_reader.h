// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>

namespace perflab {

// Lines from a file descriptor, each read waiting at most a given time.
class LineReader {
  public:
    explicit LineReader(int fd) : fd_(fd) {}
    // A whole line (without its newline), or nullopt when none came within timeout_ms.
    std::optional<std::string> next(int timeout_ms);
    bool closed() const { return closed_; }  // the input ended

  private:
    std::optional<std::string> take_line();
    int fd_;
    std::string buffer_;
    bool closed_ = false;
};

}  // namespace perflab
