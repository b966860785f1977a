// SPDX-License-Identifier: MIT
// The spec's "http" section.
#include <algorithm>
#include <regex>

#include "json_path.h"
#include "json_reader.h"
#include "regex_limits.h"
#include "secrets.h"
#include "session_spec.h"
#include "spec_parse_sections.h"
#include "template_syntax.h"

namespace perflab {

namespace {

using spec_detail::index_path;

bool same_name(const std::string& a, const char* b) {
    return std::equal(a.begin(), a.end(), b, b + std::char_traits<char>::length(b),
                      [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}

bool check_template(const std::string& text, const std::string& path, JsonReader& r) {
    if (!looks_templated(text)) return true;
    std::string error;
    parse_template(text, error);
    if (!error.empty()) r.error(path, error);
    return error.empty();
}

// Connections are made per origin, so templates may vary the path and query alone.
void check_url_template(const std::string& url, JsonReader& r) {
    if (!check_template(url, r.path("url"), r)) return;
    const size_t open = url.find("{{");
    if (open == std::string::npos) return;
    const size_t path_at = url.find_first_of("/?", url.find("://") + 3);
    if (path_at == std::string::npos || open < path_at)
        r.error(r.path("url"), "templates may vary the path and query, not the host or port");
}

HttpExpect parse_expect(const nlohmann::json& json, const std::string& path,
                        std::vector<SpecError>& errors) {
    JsonReader r(json, path, errors);
    HttpExpect e;
    if (!r.is_object()) {
        r.error(path, "expected an object such as {\"status\": [200]}");
        return e;
    }
    r.allow_only({"status", "body_contains", "body_regex", "json", "max_bytes"});
    if (const auto* s = r.child("status")) {
        const auto code = [](const nlohmann::json& v) {
            return v.is_number_integer() && v.get<int64_t>() >= 100 && v.get<int64_t>() <= 599;
        };
        if (code(*s))
            e.status.push_back(s->get<int>());
        else if (s->is_array() && !s->empty() && std::all_of(s->begin(), s->end(), code))
            for (const auto& v : *s)
                e.status.push_back(v.get<int>());
        else
            r.error(r.path("status"), "expected status codes 100..599, such as [200, 201]");
    }
    if (auto v = r.string("body_contains")) {
        if (v->empty())
            r.error(r.path("body_contains"), "must not be empty");
        else
            e.body_contains = *v;
    }
    if (auto v = r.string("body_regex")) {
        if (const auto refused = regex_refusal(*v)) {
            r.error(r.path("body_regex"), *refused);
        } else {
            try {
                std::regex check(*v);
                e.body_regex = *v;
            } catch (const std::regex_error& x) {
                r.error(r.path("body_regex"), std::string("not a regular expression: ") + x.what());
            }
        }
    }
    if (const auto* j = r.child("json")) {
        JsonReader jr(*j, r.path("json"), errors);
        if (!jr.is_object()) {
            r.error(r.path("json"), "expected {\"path\": \"$.ok\", \"equals\": true}");
        } else {
            jr.allow_only({"path", "equals"});
            std::string why;
            if (auto p = jr.string("path")) {
                if (parse_json_path(*p, why))
                    e.json_path = *p;
                else
                    jr.error(jr.path("path"), why);
            } else if (!jr.has("path")) {
                jr.error(jr.path("path"), "required");
            }
            if (const auto* eq = jr.child("equals")) e.json_equals = eq->dump();
        }
    }
    if (auto v = r.count("max_bytes", 0, UINT64_MAX)) e.max_bytes = *v;
    return e;
}

HttpTarget parse_target(const nlohmann::json& json, const std::string& path,
                        std::vector<SpecError>& errors) {
    JsonReader r(json, path, errors);
    HttpTarget t;
    if (!r.is_object()) return t;
    r.allow_only({"method", "url", "headers", "body", "body_file", "body_template", "content_type",
                  "weight", "expect"});
    if (auto v = r.integer("weight", 1, 1'000'000)) t.weight = uint32_t(*v);
    if (auto v = r.string("method")) {
        if (v->empty() || v->find_first_of(" \t\r\n") != std::string::npos)
            r.error(r.path("method"), "not an HTTP method");
        else
            t.method = *v;
    }
    if (auto v = r.string("url"))
        t.url = *v;
    else if (!r.has("url"))
        r.error(r.path("url"), "required");
    if (!t.url.empty() && t.url.rfind("http://", 0) != 0 && t.url.rfind("https://", 0) != 0)
        r.error(r.path("url"), "\"" + t.url + "\": scheme must be http:// or https://");
    else if (!t.url.empty())
        check_url_template(t.url, r);
    if (const auto* h = r.child("headers")) {
        if (!h->is_object())
            r.error(r.path("headers"), "expected an object of name: value");
        else
            for (const auto& [k, v] : h->items()) {
                if (!v.is_string())
                    r.error(r.path("headers") + "." + k, "expected a string");
                else if (auto e = reference_syntax_error(v.get<std::string>()); !e.empty())
                    r.error(r.path("headers") + "." + k, e);
                else if (check_template(v.get<std::string>(), r.path("headers") + "." + k, r))
                    t.headers.emplace_back(k, v.get<std::string>());
            }
    }
    if (auto v = r.string("body")) {
        if (auto e = reference_syntax_error(*v); !e.empty())
            r.error(r.path("body"), e);
        else
            t.body = *v;
    }
    if (auto v = r.string("body_file")) t.body_file = *v;
    if (auto v = r.string("body_template")) {
        if (auto e = reference_syntax_error(*v); !e.empty())
            r.error(r.path("body_template"), e);
        else if (check_template(*v, r.path("body_template"), r))
            t.body_template = *v;
    }
    if (int(r.has("body")) + int(r.has("body_file")) + int(r.has("body_template")) > 1)
        r.error(path, "give one of \"body\", \"body_file\" and \"body_template\"");
    if (auto v = r.string("content_type")) {
        if (v->empty() || v->find_first_of("\r\n") != std::string::npos)
            r.error(r.path("content_type"), "not a header value");
        else
            t.content_type = *v;
    }
    for (const auto& [name, value] : t.headers)
        if (!t.content_type.empty() && same_name(name, "content-type"))
            r.error(r.path("content_type"), "given twice: here and in \"headers\"");
    if (const auto* e = r.child("expect")) t.expect = parse_expect(*e, r.path("expect"), errors);
    return t;
}

}  // namespace

HttpSpec spec_detail::parse_http(const nlohmann::json& json, std::vector<SpecError>& errors) {
    JsonReader r(json, "http", errors);
    HttpSpec h;
    if (!r.is_object()) return h;
    r.allow_only({"targets", "threads", "max_connections", "timeout_ms", "connect_timeout_ms",
                  "keepalive", "tls_verify", "http2", "max_streams", "session"});
    const auto* targets = r.child("targets");
    if (!targets || !targets->is_array() || targets->empty())
        r.error("http.targets", "expected a non-empty array of targets");
    else
        for (size_t i = 0; i < targets->size(); ++i)
            h.targets.push_back(parse_target((*targets)[i], index_path("http.targets", i), errors));
    if (auto v = r.integer("threads", 1, 256)) h.threads = int(*v);
    if (auto v = r.integer("max_connections", 1, 1'000'000)) h.max_connections = int(*v);
    if (auto v = r.integer("timeout_ms", 1, 3'600'000)) h.timeout_ms = int(*v);
    if (auto v = r.integer("connect_timeout_ms", 1, 3'600'000)) h.connect_timeout_ms = int(*v);
    if (auto v = r.boolean("keepalive")) h.keepalive = *v;
    if (auto v = r.boolean("tls_verify")) h.tls_verify = *v;
    if (auto v = r.boolean("http2")) h.http2 = *v;
    if (auto v = r.integer("max_streams", 1, 1000)) h.max_streams = int(*v);
    if (h.http2 && !h.keepalive)
        r.error(r.path("http2"), "HTTP/2 keeps its connections open: needs \"keepalive\": true");
    if (const auto* v = r.child("session")) h.session = parse_session(*v, errors);
    if (h.http2 && !h.session.empty())
        r.error(r.path("session"), "sessions run over HTTP/1.1 for now: remove \"http2\"");
    return h;
}

}  // namespace perflab
