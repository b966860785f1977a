// SPDX-License-Identifier: MIT
#include "response_check.h"

#include <algorithm>

namespace perflab {

ResponseCheck::ResponseCheck(const HttpExpect& e)
    : status_(e.status), contains_(e.body_contains), max_bytes_(e.max_bytes) {
    // The spec was validated: the expression compiles and the path parses.
    if (e.body_regex) regex_.emplace(*e.body_regex, std::regex::ECMAScript | std::regex::optimize);
    if (e.json_path) {
        std::string ignored;
        path_ = parse_json_path(*e.json_path, ignored);
    }
    if (e.json_equals) equals_ = nlohmann::json::parse(*e.json_equals);
}

bool ResponseCheck::json_matches(std::string_view body) const {
    const auto doc = nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
    if (doc.is_discarded()) return false;
    const nlohmann::json* value = find_json(doc, *path_);
    return value && (!equals_ || *value == *equals_);
}

unsigned ResponseCheck::failures(int status, const BodyReader& reader, uint64_t body_bytes) const {
    const std::string_view body = reader.body();
    const auto bit = [](CheckKind k) { return 1u << unsigned(k); };
    unsigned failed = 0;
    if (!status_.empty() && std::find(status_.begin(), status_.end(), status) == status_.end())
        failed |= bit(CheckKind::status);
    if (contains_ && !reader.contains()) failed |= bit(CheckKind::body_contains);
    if (regex_ && !std::regex_search(body.begin(), body.end(), *regex_))
        failed |= bit(CheckKind::body_regex);
    if (path_ && !json_matches(body)) failed |= bit(CheckKind::json);
    if (max_bytes_ && body_bytes > *max_bytes_) failed |= bit(CheckKind::max_bytes);
    return failed;
}

void BodyReader::start(const ResponseCheck* check, bool keep) {
    check_ = check;
    kept_.clear();
    keep_ = keep || (check && check->keeps_body());
    searching_ = check && !keep_ && check->contains();
    found_ = false;
}

void BodyReader::feed(std::string_view chunk) {
    if (keep_) {
        kept_.append(chunk.data(), chunk.size());
        return;
    }
    if (!searching_) return;
    const std::string& text = *check_->contains();
    kept_.append(chunk.data(), chunk.size());
    if (kept_.find(text) != std::string::npos) {
        found_ = true;
        searching_ = false;
        kept_.clear();
        return;
    }
    // The text may begin in this chunk's last bytes and end in the next.
    const size_t tail = text.size() - 1;
    if (kept_.size() > tail) kept_.erase(0, kept_.size() - tail);
}

bool BodyReader::contains() const {
    if (keep_) return kept_.find(*check_->contains()) != std::string::npos;
    return found_;
}

}  // namespace perflab
