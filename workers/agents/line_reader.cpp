// SPDX-License-Identifier: MIT
#include "line_reader.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace perflab {

std::optional<std::string> LineReader::take_line() {
    try {
        return lines_.next();
    } catch (const LineTooLong&) {
        closed_ = true;
        return std::nullopt;
    }
}

std::optional<std::string> LineReader::next(int timeout_ms) {
    if (auto line = take_line()) return line;
    if (closed_) return std::nullopt;
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, timeout_ms);
    if (ready < 0 && errno == EINTR) return std::nullopt;
    if (ready <= 0) {
        if (ready < 0) closed_ = true;
        return std::nullopt;
    }
    char buf[4096];
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n <= 0) {
        if (n == 0 || errno != EINTR) closed_ = true;
        return std::nullopt;
    }
    lines_.input().append(buf, size_t(n));
    return take_line();
}

}  // namespace perflab
