// SPDX-License-Identifier: MIT
#include "line_buffer.h"

#include <algorithm>

namespace perflab {

std::optional<std::string> LineBuffer::next() {
    const size_t end = data_.find('\n', std::max(begin_, scanned_));
    if (end == std::string::npos) {
        scanned_ = data_.size();
        // Taken lines go once they are most of the buffer: each byte is moved at most once
        // on average.
        if (begin_ > 0 && begin_ >= data_.size() / 2) {
            data_.erase(0, begin_);
            scanned_ -= begin_;
            begin_ = 0;
        }
        if (pending() > max_line_)
            throw LineTooLong("a line over " + std::to_string(max_line_ >> 20) +
                              " MiB without a newline");
        return std::nullopt;
    }
    std::string line = data_.substr(begin_, end - begin_);
    begin_ = scanned_ = end + 1;
    return line;
}

}  // namespace perflab
