// SPDX-License-Identifier: MIT
#include "http_request.h"

#include <strings.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace perflab {

namespace {

std::string field(size_t i, const std::string& name) {
    return "http.targets[" + std::to_string(i) + "]." + name;
}

bool has_line_break(const std::string& s) {
    return s.find_first_of("\r\n") != std::string::npos;
}

bool same_name(const std::string& a, const char* b) {
    return strcasecmp(a.c_str(), b) == 0;
}

std::string read_body(const std::string& path, size_t i) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(field(i, "body_file") + ": cannot read \"" + path + "\"");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

size_t origin_index(std::vector<Url>& origins, const Url& url) {
    for (size_t i = 0; i < origins.size(); ++i)
        if (origins[i].origin() == url.origin()) return i;
    origins.push_back(url);
    return origins.size() - 1;
}

PreparedTarget prepare(const HttpTarget& t, size_t i, bool keepalive, std::vector<Url>& origins) {
    std::string why;
    const auto url = parse_url(t.url, why);
    if (!url) throw std::runtime_error(field(i, "url") + ": \"" + t.url + "\": " + why);
    const std::string body = t.body_file.empty() ? t.body : read_body(t.body_file, i);
    PreparedTarget p;
    p.name = t.method + " " + t.url;
    p.origin = origin_index(origins, *url);
    p.body_size = body.size();
    p.head = t.method == "HEAD";
    p.idempotent = t.method == "GET" || t.method == "HEAD" || t.method == "PUT" ||
                   t.method == "DELETE" || t.method == "OPTIONS" || t.method == "TRACE";
    bool host = false, agent = false;
    std::string head = t.method + " " + url->target + " HTTP/1.1\r\n";
    std::string extra;
    for (const auto& [name, value] : t.headers) {
        if (name.empty() || has_line_break(name) || name.find(':') != std::string::npos ||
            has_line_break(value))
            throw std::runtime_error(field(i, "headers." + name) + ": not a valid header");
        if (same_name(name, "content-length") || same_name(name, "connection") ||
            same_name(name, "transfer-encoding"))
            throw std::runtime_error(field(i, "headers." + name) + ": set by PerfLab itself");
        host = host || same_name(name, "host");
        agent = agent || same_name(name, "user-agent");
        extra += name + ": " + value + "\r\n";
    }
    if (!host) head += "Host: " + url->host_header() + "\r\n";
    if (!agent) head += "User-Agent: perflab\r\n";
    head += extra;
    if (!body.empty() || t.method == "POST" || t.method == "PUT" || t.method == "PATCH")
        head += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    if (!keepalive) head += "Connection: close\r\n";
    p.bytes = head + "\r\n" + body;
    return p;
}

}  // namespace

std::vector<std::string> HttpPlan::names() const {
    std::vector<std::string> out;
    for (const auto& t : targets)
        out.push_back(t.name);
    return out;
}

bool HttpPlan::any_tls() const {
    return std::any_of(origins.begin(), origins.end(), [](const Url& u) { return u.tls; });
}

HttpPlan prepare_http(const HttpSpec& spec) {
    if (spec.targets.empty()) throw std::runtime_error("http.targets: at least one target needed");
    HttpPlan plan;
    plan.spec = spec;
    for (size_t i = 0; i < spec.targets.size(); ++i)
        plan.targets.push_back(prepare(spec.targets[i], i, spec.keepalive, plan.origins));
    return plan;
}

}  // namespace perflab
