// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace perflab {

// One RESP reply of the kinds the probe's requests get: a simple string ('+'), an error ('-'),
// or a bulk string ('$', nil when `nil`). (Not named RespReply: the cache driver's reply has
// that name in this namespace, and two classes of one name break the one-definition rule —
// UBSan caught their members mixed up in one binary.)
struct RedisProbeReply {
    char type = 0;
    std::string text;
    bool nil = false;
};

// The reply at the start of `buffer` and the bytes it took; nullopt while it is incomplete.
// Throws std::runtime_error on bytes that are not such a reply.
std::optional<std::pair<RedisProbeReply, size_t>> read_resp_reply(std::string_view buffer);

// A RESP request of bulk strings, as redis-cli sends one.
std::string resp_command(std::initializer_list<std::string_view> words);

// `INFO`'s "name:value" lines, its "# Section" headings left out.
std::map<std::string, std::string> parse_redis_info(std::string_view text);

// The sample values from two INFO replies `seconds` apart (see RedisProbe).
nlohmann::json redis_values(const std::map<std::string, std::string>& before,
                            const std::map<std::string, std::string>& after, double seconds);

}  // namespace perflab
