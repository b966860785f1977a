// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>

#include "line_buffer.h"

namespace perflab {

// Lines from a file descriptor, each read waiting at most a given time.
class LineReader {
  public:
    explicit LineReader(int fd) : fd_(fd) {}
    // A whole line (without its newline), or nullopt when none came within timeout_ms.
    std::optional<std::string> next(int timeout_ms);
    // The input ended, or held a line over kMaxRecordLine: it is no stream of records.
    bool closed() const { return closed_; }

  private:
    std::optional<std::string> take_line();
    int fd_;
    LineBuffer lines_;
    bool closed_ = false;
};

}  // namespace perflab
