// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

namespace perflab {

// The longest record line either end of the agents' channel takes. A tick with every op's
// histograms is tens of KiB; the cap is far above that and bounds what a runaway peer (a
// library printing to stdout, a wrong program) costs the reader in memory.
inline constexpr size_t kMaxRecordLine = size_t(16) << 20;

// A line past the cap: the stream is not one of records.
class LineTooLong : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Whole lines out of a byte stream read in pieces. Each byte is searched for the newline once
// (the search resumes where the last one stopped) and taken lines are dropped in bulk, so a
// long line arriving in small pieces, or many short lines, cost linear time.
class LineBuffer {
  public:
    explicit LineBuffer(size_t max_line = kMaxRecordLine) : max_line_(max_line) {}
    // Where the reader appends what it read.
    std::string& input() { return data_; }
    // The next whole line without its newline, nullopt when none is whole yet. Throws
    // LineTooLong once the unfinished line holds more than the cap.
    std::optional<std::string> next();
    // Bytes held that are not yet a whole line.
    size_t pending() const { return data_.size() - begin_; }

  private:
    size_t max_line_;
    std::string data_;
    size_t begin_ = 0;    // the first byte not taken yet
    size_t scanned_ = 0;  // data_ up to here holds no newline after begin_
};

}  // namespace perflab
