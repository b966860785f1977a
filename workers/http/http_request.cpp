// SPDX-License-Identifier: MIT
#include "http_request.h"

#include <strings.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "model/template_syntax.h"
#include "request_template.h"
#include "response_check.h"

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

void check_headers(const HttpTarget& t, size_t i) {
    for (const auto& [name, value] : t.headers) {
        if (name.empty() || has_line_break(name) || name.find(':') != std::string::npos ||
            has_line_break(value))
            throw std::runtime_error(field(i, "headers." + name) + ": not a valid header");
        if (same_name(name, "content-length") || same_name(name, "connection") ||
            same_name(name, "transfer-encoding"))
            throw std::runtime_error(field(i, "headers." + name) + ": set by PerfLab itself");
    }
}

bool has_header(const HttpTarget& t, const char* wanted) {
    return std::any_of(t.headers.begin(), t.headers.end(),
                       [&](const auto& h) { return same_name(h.first, wanted); });
}

// Host and User-Agent unless the spec gives them, then Content-Type.
std::string default_headers(const HttpTarget& t, const Url& url) {
    std::string out;
    if (!has_header(t, "host")) out += "Host: " + url.host_header() + "\r\n";
    if (!has_header(t, "user-agent")) out += "User-Agent: perflab\r\n";
    if (!t.content_type.empty()) out += "Content-Type: " + t.content_type + "\r\n";
    return out;
}

bool needs_length(const HttpTarget& t) {
    return t.method == "POST" || t.method == "PUT" || t.method == "PATCH";
}

bool templated(const HttpTarget& t) {
    return !t.body_template.empty() || looks_templated(t.url) ||
           std::any_of(t.headers.begin(), t.headers.end(),
                       [](const auto& h) { return looks_templated(h.second); });
}

void compile(const HttpTarget& t, size_t i, bool keepalive, const Url& url,
             const std::string& url_rest, ProgramBuilder& b) {
    std::string error;
    const auto fail = [&](const std::string& name) {
        throw std::runtime_error(field(i, name) + ": " + error);
    };
    b.head_text(t.method + " ");
    if (!b.head(url.target + url_rest, error)) fail("url");
    b.head_text(" HTTP/1.1\r\n" + default_headers(t, url));
    for (const auto& [name, value] : t.headers) {
        b.head_text(name + ": ");
        if (!b.head(value, error)) fail("headers." + name);
        b.head_text("\r\n");
    }
    if (!keepalive) b.head_text("Connection: close\r\n");
    if (!t.body_template.empty()) {
        if (!b.body(t.body_template, error)) fail("body_template");
    } else {
        b.body_text(t.body_file.empty() ? t.body : read_body(t.body_file, i));
    }
    b.content_length(needs_length(t));
}

PreparedTarget prepare(const HttpTarget& t, size_t i, bool keepalive, std::vector<Url>& origins,
                       ProgramBuilder::Files& files, const Environment& env,
                       const std::vector<std::string>& vars) {
    std::string why;
    // A templated URL varies its path and query alone (the spec checked it): its origin and
    // the path's start come from the text before the first template.
    const size_t open = t.url.find("{{");
    const std::string fixed = t.url.substr(0, open);
    const auto url = parse_url(fixed, why);
    if (!url) throw std::runtime_error(field(i, "url") + ": \"" + t.url + "\": " + why);
    check_headers(t, i);
    PreparedTarget p;
    p.name = t.method + " " + t.url;
    p.origin = origin_index(origins, *url);
    p.head = t.method == "HEAD";
    p.idempotent = t.method == "GET" || t.method == "HEAD" || t.method == "PUT" ||
                   t.method == "DELETE" || t.method == "OPTIONS" || t.method == "TRACE";
    if (t.expect) p.check = std::make_shared<const ResponseCheck>(*t.expect);
    if (templated(t)) {
        ProgramBuilder b(files, env, &vars);
        compile(t, i, keepalive, *url, open == std::string::npos ? "" : t.url.substr(open), b);
        p.program = b.finish();
        return p;
    }
    const std::string body = t.body_file.empty() ? t.body : read_body(t.body_file, i);
    p.body_size = body.size();
    std::string head = t.method + " " + url->target + " HTTP/1.1\r\n" + default_headers(t, *url);
    for (const auto& [name, value] : t.headers)
        head += name + ": " + value + "\r\n";
    if (!body.empty() || needs_length(t))
        head += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    if (!keepalive) head += "Connection: close\r\n";
    p.bytes = head + "\r\n" + body;
    return p;
}

std::vector<std::string> capture_names(const HttpSpec& spec) {
    std::vector<std::string> out;
    for (const auto& step : spec.session)
        if (step.capture && std::find(out.begin(), out.end(), step.capture->name) == out.end())
            out.push_back(step.capture->name);
    return out;
}

std::vector<PreparedStep> prepare_steps(const HttpPlan& plan) {
    std::vector<PreparedStep> out;
    for (size_t i = 0; i < plan.spec.session.size(); ++i) {
        const SessionStep& s = plan.spec.session[i];
        if (s.target >= plan.targets.size())
            throw std::runtime_error("http.session[" + std::to_string(i) + "].target: no target " +
                                     std::to_string(s.target));
        PreparedStep p;
        p.target = s.target;
        p.name = "step " + std::to_string(i + 1) + ": " + plan.targets[s.target].name;
        p.think_min_ms = s.think_min_ms;
        p.think_max_ms = s.think_max_ms;
        if (s.capture) {
            const auto var = std::find(plan.vars.begin(), plan.vars.end(), s.capture->name);
            p.capture =
                std::make_shared<const ValueCapture>(*s.capture, size_t(var - plan.vars.begin()));
        }
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace

std::vector<std::string> HttpPlan::names() const {
    std::vector<std::string> out;
    if (!steps.empty()) {
        for (const auto& s : steps)
            out.push_back(s.name);
        return out;
    }
    for (const auto& t : targets)
        out.push_back(t.name);
    return out;
}

bool HttpPlan::any_tls() const {
    return std::any_of(origins.begin(), origins.end(), [](const Url& u) { return u.tls; });
}

HttpPlan prepare_http(const HttpSpec& spec, const Environment& env) {
    if (spec.targets.empty()) throw std::runtime_error("http.targets: at least one target needed");
    HttpPlan plan;
    plan.spec = spec;
    plan.vars = capture_names(spec);
    ProgramBuilder::Files files;  // each CSV file read once, whichever targets use it
    for (size_t i = 0; i < spec.targets.size(); ++i) {
        plan.targets.push_back(
            prepare(spec.targets[i], i, spec.keepalive, plan.origins, files, env, plan.vars));
        if (const auto& program = plan.targets.back().program) {
            plan.max_request_bytes = std::max(plan.max_request_bytes, program->max_bytes());
            plan.csv_sources = std::max(plan.csv_sources, program->csv_sources());
        }
    }
    plan.steps = prepare_steps(plan);
    return plan;
}

}  // namespace perflab
