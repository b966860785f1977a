// SPDX-License-Identifier: MIT
#include "replay_file.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

namespace perflab {

namespace {

constexpr size_t kMaxKeyBytes = 250;          // memcached's key length limit
constexpr uint32_t kMaxValueBytes = 1 << 20;  // memcached's default item size limit
constexpr size_t kShownLine = 60;             // of a bad line, in its error

// Splits at spaces and tabs; false when there are more than `out` can hold.
bool split(std::string_view line, std::array<std::string_view, 4>& out, size_t& n) {
    n = 0;
    size_t pos = 0;
    for (;;) {
        pos = line.find_first_not_of(" \t", pos);
        if (pos == std::string_view::npos) return true;
        const size_t end = std::min(line.find_first_of(" \t", pos), line.size());
        if (n == out.size()) return false;
        out[n++] = line.substr(pos, end - pos);
        pos = end;
    }
}

bool valid_key(std::string_view key) {
    if (key.empty() || key.size() > kMaxKeyBytes) return false;
    for (const char c : key)
        if (static_cast<unsigned char>(c) < 0x21 || c == 0x7f) return false;
    return true;
}

std::string shown(std::string_view line) {
    return "\"" + std::string(line.substr(0, kShownLine)) + (line.size() > kShownLine ? "…" : "") +
           "\"";
}

}  // namespace

ReplayFile::Loaded ReplayFile::load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {nullptr, "cannot read \"" + path + "\""};
    std::stringstream text;
    text << in.rdbuf();
    return parse(text.str(), path);
}

ReplayFile::Loaded ReplayFile::parse(std::string_view text, const std::string& name) {
    auto file = std::make_shared<ReplayFile>();
    double first_time = NAN;
    size_t line_no = 0;
    size_t pos = 0;
    while (pos < text.size()) {
        ++line_no;
        const size_t eol = std::min(text.find('\n', pos), text.size());
        std::string_view line = text.substr(pos, eol - pos);
        pos = eol + 1;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.find_first_not_of(" \t") == std::string_view::npos || line.front() == '#')
            continue;
        if (auto error = file->add_line(line, first_time); !error.empty())
            return {nullptr, name + " line " + std::to_string(line_no) + ": " + error};
    }
    if (file->ops_.empty()) return {nullptr, name + ": no operations in it"};
    file->keys_.shrink_to_fit();
    file->ops_.shrink_to_fit();
    file->offsets_.shrink_to_fit();
    return {std::move(file), {}};
}

std::string ReplayFile::add_line(std::string_view line, double& first_time) {
    std::array<std::string_view, 4> w;
    size_t n = 0;
    const std::string expected =
        "expected \"[TIMESTAMP] get KEY\" or \"[TIMESTAMP] set KEY SIZE\", got " + shown(line);
    if (!split(line, w, n) || n < 2) return expected;
    const bool stamped = w[0] != "get" && w[0] != "set";
    double time = 0;
    if (stamped) {
        const auto [end, ec] = std::from_chars(w[0].data(), w[0].data() + w[0].size(), time);
        if (ec != std::errc() || end != w[0].data() + w[0].size() || !std::isfinite(time) ||
            time < 0)
            return expected;
    }
    if (!ops_.empty() && stamped != timed()) return "every line needs a timestamp, or none does";
    if (stamped) {
        if (ops_.empty()) first_time = time;
        if (!offsets_.empty() && time - first_time < offsets_.back())
            return "timestamp " + std::string(w[0]) + " is earlier than the line before's";
    }
    const size_t at = stamped ? 1 : 0;
    const std::string_view op = w[at];
    const bool set = op == "set";
    if ((op != "get" && !set) || n != at + (set ? 3 : 2)) return expected;
    if (!valid_key(w[at + 1]))
        return "key " + shown(w[at + 1]) + " is not 1..250 bytes without whitespace";
    uint32_t bytes = 0;
    if (set) {
        const auto& s = w[at + 2];
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), bytes);
        if (ec != std::errc() || end != s.data() + s.size() || bytes > kMaxValueBytes)
            return "size " + shown(s) + " is not a byte count up to " +
                   std::to_string(kMaxValueBytes);
    }
    ops_.push_back({keys_.size(), bytes, uint8_t(w[at + 1].size()), set});
    keys_.append(w[at + 1]);
    if (stamped) offsets_.push_back(time - first_time);
    sets_ += set;
    max_value_bytes_ = std::max(max_value_bytes_, bytes);
    return {};
}

}  // namespace perflab
