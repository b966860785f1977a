// SPDX-License-Identifier: MIT
#include "template_syntax.h"

#include <cctype>
#include <charconv>
#include <cstdlib>

#include "format.h"

namespace perflab {

namespace {

std::vector<std::string> words(std::string_view s) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
            ++i;
        const size_t from = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t')
            ++i;
        if (i > from) out.emplace_back(s.substr(from, i - from));
    }
    return out;
}

bool is_integer(const std::string& s, int64_t& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size();
}

bool is_env_name(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (const char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

// "" when `args` suit `var`.
std::string check_args(TemplateVar var, const std::vector<std::string>& args) {
    int64_t a = 0, b = 0;
    switch (var) {
        case TemplateVar::seq:
        case TemplateVar::uuid:
        case TemplateVar::now_ms:
        case TemplateVar::key:
        case TemplateVar::value:
            return args.empty() ? "" : "takes no arguments";
        case TemplateVar::uniform:
            if (args.size() != 2 || !is_integer(args[0], a) || !is_integer(args[1], b) || a > b)
                return "expected two integers A ≤ B";
            return "";
        case TemplateVar::zipf: {
            const auto s = args.size() == 2 ? parse_number(args[1]) : std::nullopt;
            if (args.size() != 2 || !is_integer(args[0], a) || a < 1 || !s || *s <= 0 || *s > 10)
                return "expected N ≥ 1 and an exponent S in (0, 10]";
            return "";
        }
        case TemplateVar::env:
        case TemplateVar::var:
            return args.size() == 1 && is_env_name(args[0]) ? "" : "expected a variable name";
        case TemplateVar::csv:
            if (args.size() < 2 || args.size() > 3 || (args.size() == 3 && args[2] != "random"))
                return "expected FILE COLUMN, optionally followed by \"random\"";
            return "";
        case TemplateVar::pick:
            return args.empty() ? "expected options a|b|c" : "";
    }
    return "";
}

struct Name {
    const char* text;
    TemplateVar var;
};
constexpr Name kNames[] = {
    {"seq", TemplateVar::seq},   {"uniform", TemplateVar::uniform}, {"zipf", TemplateVar::zipf},
    {"uuid", TemplateVar::uuid}, {"now_ms", TemplateVar::now_ms},   {"env", TemplateVar::env},
    {"csv", TemplateVar::csv},   {"pick", TemplateVar::pick},       {"var", TemplateVar::var},
    {"key", TemplateVar::key},   {"value", TemplateVar::value}};

// What a use has no source for: an HTTP request knows no cache key or value; a Redis command
// runs without a session, CSV files or a resolved environment. Empty when `var` suits `use`.
std::string unavailable(TemplateVar var, const char* name, TemplateUse use) {
    const bool cache_only = var == TemplateVar::key || var == TemplateVar::value;
    const bool http_only =
        var == TemplateVar::env || var == TemplateVar::csv || var == TemplateVar::var;
    if (use == TemplateUse::http && cache_only)
        return "{{" + std::string(name) + "}} is for a cache run's Redis commands";
    if (use == TemplateUse::redis_command && http_only)
        return "{{" + std::string(name) + "}} is not available in a Redis command";
    return "";
}

// One variable's text between the braces.
bool parse_variable(std::string_view inner, TemplateUse use, TemplatePiece& piece,
                    std::string& error) {
    const auto all = words(inner);
    if (all.empty()) {
        error = "empty template \"{{}}\"";
        return false;
    }
    const Name* name = nullptr;
    for (const auto& n : kNames)
        if (all[0] == n.text) name = &n;
    if (!name) {
        error = "unknown template \"" + all[0] + "\"";
        return false;
    }
    if (std::string why = unavailable(name->var, name->text, use); !why.empty()) {
        error = std::move(why);
        return false;
    }
    piece.literal = false;
    piece.var = name->var;
    if (name->var == TemplateVar::pick) {
        // Options are split on '|' alone, so they may hold spaces.
        std::string_view rest = inner.substr(inner.find("pick") + 4);
        while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t'))
            rest.remove_prefix(1);
        while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t'))
            rest.remove_suffix(1);
        for (size_t from = 0; !rest.empty();) {
            const size_t bar = rest.find('|', from);
            piece.args.emplace_back(rest.substr(from, bar - from));
            if (bar == std::string_view::npos) break;
            from = bar + 1;
        }
    } else {
        piece.args.assign(all.begin() + 1, all.end());
    }
    if (const std::string why = check_args(name->var, piece.args); !why.empty()) {
        error = std::string(name->text) + ": " + why;
        return false;
    }
    return true;
}

}  // namespace

bool looks_templated(std::string_view text) {
    return text.find("{{") != std::string_view::npos;
}

std::vector<std::string> template_var_names(std::string_view text) {
    std::vector<std::string> out;
    if (!looks_templated(text)) return out;
    std::string error;
    for (const auto& piece : parse_template(text, error).pieces)
        if (!piece.literal && piece.var == TemplateVar::var) out.push_back(piece.args[0]);
    return out;
}

ParsedTemplate parse_template(std::string_view text, std::string& error, TemplateUse use) {
    error.clear();
    ParsedTemplate out;
    size_t at = 0;
    while (at < text.size()) {
        const size_t open = text.find("{{", at);
        const size_t literal_end = open == std::string_view::npos ? text.size() : open;
        if (literal_end > at) {
            TemplatePiece literal;
            literal.text = text.substr(at, literal_end - at);
            out.pieces.push_back(std::move(literal));
        }
        if (open == std::string_view::npos) break;
        const size_t close = text.find("}}", open + 2);
        if (close == std::string_view::npos) {
            error = "unclosed \"{{\"";
            return {};
        }
        TemplatePiece piece;
        if (!parse_variable(text.substr(open + 2, close - open - 2), use, piece, error)) return {};
        out.pieces.push_back(std::move(piece));
        at = close + 2;
    }
    return out;
}

}  // namespace perflab
