// SPDX-License-Identifier: MIT
#include "url.h"

#include <cctype>
#include <charconv>

namespace perflab {

namespace {

bool valid_host_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
}

std::string bracketed(const std::string& host) {
    return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

}  // namespace

std::string Url::origin() const {
    return std::string(tls ? "https://" : "http://") + bracketed(host) + ":" + std::to_string(port);
}

std::string Url::host_header() const {
    const bool default_port = port == (tls ? 443 : 80);
    return default_port ? bracketed(host) : bracketed(host) + ":" + std::to_string(port);
}

std::optional<Url> parse_url(const std::string& text, std::string& why) {
    Url u;
    std::string rest;
    if (text.rfind("http://", 0) == 0) {
        rest = text.substr(7);
    } else if (text.rfind("https://", 0) == 0) {
        u.tls = true;
        rest = text.substr(8);
    } else {
        why = "scheme must be http:// or https://";
        return std::nullopt;
    }
    if (rest.find_first_of(" \t\r\n") != std::string::npos) {
        why = "contains whitespace";
        return std::nullopt;
    }
    const size_t path_at = rest.find_first_of("/?");
    std::string authority = rest.substr(0, path_at);
    u.target = path_at == std::string::npos ? "/" : rest.substr(path_at);
    if (u.target[0] == '?') u.target.insert(0, "/");
    if (authority.find('@') != std::string::npos) {
        why = "user info in URLs is not supported";
        return std::nullopt;
    }
    std::string port_text;
    if (!authority.empty() && authority[0] == '[') {
        const size_t close = authority.find(']');
        if (close == std::string::npos) {
            why = "unclosed '[' in the host";
            return std::nullopt;
        }
        u.host = authority.substr(1, close - 1);
        const std::string after = authority.substr(close + 1);
        if (!after.empty() && after[0] != ':') {
            why = "unexpected text after the IPv6 address";
            return std::nullopt;
        }
        if (!after.empty()) port_text = after.substr(1);
        if (u.host.empty() ||
            u.host.find_first_not_of("0123456789abcdefABCDEF:.") != std::string::npos) {
            why = "not an IPv6 address";
            return std::nullopt;
        }
    } else {
        const size_t colon = authority.find(':');
        u.host = authority.substr(0, colon);
        if (colon != std::string::npos) port_text = authority.substr(colon + 1);
        for (char c : u.host)
            if (!valid_host_char(c)) {
                why = "invalid character in the host";
                return std::nullopt;
            }
    }
    if (u.host.empty()) {
        why = "missing host";
        return std::nullopt;
    }
    u.port = u.tls ? 443 : 80;
    if (authority.find(':') != std::string::npos && authority.back() == ':') {
        why = "missing port after ':'";
        return std::nullopt;
    }
    if (!port_text.empty()) {
        unsigned value = 0;
        const auto* end = port_text.data() + port_text.size();
        const auto [p, ec] = std::from_chars(port_text.data(), end, value);
        if (ec != std::errc() || p != end || value == 0 || value > 65535) {
            why = "port must be a number in 1..65535";
            return std::nullopt;
        }
        u.port = uint16_t(value);
    }
    return u;
}

}  // namespace perflab
