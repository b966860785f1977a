// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace perflab {

// An absolute http:// or https:// URL split into what a request needs.
struct Url {
    bool tls = false;
    std::string host;  // without brackets for IPv6
    uint16_t port = 0;
    std::string target;  // path and query, "/" when empty

    std::string origin() const;       // scheme://host:port: connections are shared per origin
    std::string host_header() const;  // host[:port], the port only when not the default
};

// Parses an absolute URL; nullopt with `why` set when it is malformed.
std::optional<Url> parse_url(const std::string& text, std::string& why);

}  // namespace perflab
