// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace perflab {

// A file of recorded cache operations, one a line:
//
//   [TIMESTAMP] get KEY
//   [TIMESTAMP] set KEY SIZE
//
// TIMESTAMP: seconds, with a decimal fraction if wanted (e.g. 1733043600.125), never below the
// line before's; either every operation has one or none has. KEY: 1..250 bytes, no whitespace
// or control characters. SIZE: the value's bytes, 0..1048576. Words are separated by spaces or
// tabs; lines end with "\n" or "\r\n"; blank lines and lines starting with '#' are skipped.
//
// Loaded once and read by every thread: the keys lie back to back in one arena, each op is an
// offset into it, so a million ops cost their keys' bytes and 16 bytes each (24 timed).
class ReplayFile {
  public:
    struct Loaded {
        std::shared_ptr<const ReplayFile> file;
        std::string error;  // when file is null: "NAME line N: what is wrong"
    };
    static Loaded load(const std::string& path);
    // `name` stands for the file in errors.
    static Loaded parse(std::string_view text, const std::string& name);

    size_t size() const noexcept { return ops_.size(); }
    bool timed() const noexcept { return !offsets_.empty(); }
    bool is_set(size_t i) const noexcept { return ops_[i].set; }
    uint32_t value_bytes(size_t i) const noexcept { return ops_[i].value_bytes; }
    std::string_view key(size_t i) const noexcept {
        return {keys_.data() + ops_[i].key_at, ops_[i].key_len};
    }
    // Seconds from the first op's timestamp to op i's; 0 in a file without timestamps.
    double offset_s(size_t i) const noexcept { return timed() ? offsets_[i] : 0.0; }
    double span_s() const noexcept { return timed() ? offsets_.back() : 0.0; }
    uint64_t sets() const noexcept { return sets_; }
    uint64_t gets() const noexcept { return size() - sets_; }
    uint32_t max_value_bytes() const noexcept { return max_value_bytes_; }

  private:
    struct Op {
        uint64_t key_at = 0;
        uint32_t value_bytes = 0;
        uint8_t key_len = 0;
        bool set = false;
    };
    // An error text, or empty when the line was taken.
    std::string add_line(std::string_view line, double& first_time);

    std::string keys_;
    std::vector<Op> ops_;
    std::vector<double> offsets_;
    uint64_t sets_ = 0;
    uint32_t max_value_bytes_ = 0;
};

}  // namespace perflab
