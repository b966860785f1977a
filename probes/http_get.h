// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace perflab {

// An http:// address taken apart: "http://127.0.0.1:9100/metrics", "http://[::1]:9113/".
struct HttpUrl {
    std::string host;
    int port = 80;
    std::string path = "/";  // with the query
};

std::optional<HttpUrl> parse_http_url(std::string_view text);

// The body of a GET answered 200, read to the connection's close: an HTTP/1.0 request, so no
// chunked encoding, and no Accept-Encoding, so no gzip (what exporters send otherwise). Throws
// std::runtime_error naming what failed: no connection, a status other than 200, a timeout,
// a body over max_bytes.
std::string http_get(const HttpUrl& url, std::chrono::milliseconds timeout,
                     size_t max_bytes = 32u << 20);

}  // namespace perflab
