// SPDX-License-Identifier: MIT
#include "prom_text.h"

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace perflab {

namespace {

bool name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

bool name_char(char c) {
    return name_start(c) || (c >= '0' && c <= '9');
}

void skip_blanks(std::string_view& s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
}

// A metric or label name ([a-zA-Z_:][a-zA-Z0-9_:]*; label names have no ':' but accepting
// it costs nothing); empty when there is none.
std::string take_name(std::string_view& s) {
    size_t n = 0;
    if (!s.empty() && name_start(s[0]))
        while (n < s.size() && name_char(s[n]))
            ++n;
    std::string out(s.substr(0, n));
    s.remove_prefix(n);
    return out;
}

std::string take_token(std::string_view& s) {
    size_t n = 0;
    while (n < s.size() && s[n] != ' ' && s[n] != '\t')
        ++n;
    std::string out(s.substr(0, n));
    s.remove_prefix(n);
    return out;
}

std::optional<double> parse_value(const std::string& token) {
    if (token == "+Inf" || token == "Inf" || token == "+inf" || token == "inf") return HUGE_VAL;
    if (token == "-Inf" || token == "-inf") return -HUGE_VAL;
    if (token == "NaN" || token == "nan") return std::nan("");
    if (token.empty()) return std::nullopt;
    // strtod also reads "infinity", hex floats and "nan(...)", none of which the format has.
    for (char c : token)
        if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
            return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(token.c_str(), &end);
    if (end != token.c_str() + token.size()) return std::nullopt;
    return v;
}

// `{a="x",b="y"}` into labels; the error names what is wrong.
std::optional<std::string> take_labels(std::string_view& s, PromLabels& labels) {
    s.remove_prefix(1);  // '{'
    for (;;) {
        skip_blanks(s);
        if (s.empty()) return "unterminated label set";
        if (s.front() == '}') {
            s.remove_prefix(1);
            return std::nullopt;
        }
        std::string label = take_name(s);
        if (label.empty()) return "expected a label name";
        skip_blanks(s);
        if (s.empty() || s.front() != '=') return "expected '=' after label " + label;
        s.remove_prefix(1);
        skip_blanks(s);
        if (s.empty() || s.front() != '"') return "expected a quoted value for label " + label;
        s.remove_prefix(1);
        std::string value;
        for (;;) {
            if (s.empty()) return "unterminated value of label " + label;
            const char c = s.front();
            s.remove_prefix(1);
            if (c == '"') break;
            if (c != '\\') {
                value += c;
                continue;
            }
            if (s.empty()) return "unterminated value of label " + label;
            const char e = s.front();
            s.remove_prefix(1);
            // The format escapes \\, \" and \n; anything else after a backslash is kept as it
            // is, as Prometheus' own parser does.
            if (e == 'n')
                value += '\n';
            else if (e == '\\' || e == '"')
                value += e;
            else {
                value += '\\';
                value += e;
            }
        }
        labels.emplace_back(std::move(label), std::move(value));
        skip_blanks(s);
        if (!s.empty() && s.front() == ',')
            s.remove_prefix(1);
        else if (s.empty() || s.front() != '}')
            return "expected ',' or '}' after a label value";
    }
}

std::optional<PromType> type_named(std::string_view t) {
    static constexpr std::array<std::pair<std::string_view, PromType>, 9> names{{
        {"counter", PromType::counter},
        {"gauge", PromType::gauge},
        {"histogram", PromType::histogram},
        {"gaugehistogram", PromType::gaugehistogram},
        {"summary", PromType::summary},
        {"untyped", PromType::untyped},
        {"unknown", PromType::untyped},
        {"info", PromType::info},
        {"stateset", PromType::stateset},
    }};
    for (const auto& [n, type] : names)
        if (n == t) return type;
    return std::nullopt;
}

// `# TYPE name type`, `# UNIT name unit`, `# HELP ...`, `# EOF` or any other comment.
std::optional<std::string> read_comment(std::string_view line, PromScrape& out) {
    line.remove_prefix(1);
    skip_blanks(line);
    const std::string keyword = take_token(line);
    if (keyword == "EOF") {
        out.eof = true;
        return std::nullopt;
    }
    if (keyword != "TYPE" && keyword != "UNIT") return std::nullopt;
    skip_blanks(line);
    const std::string name = take_name(line);
    if (name.empty()) return "# " + keyword + " without a metric name";
    skip_blanks(line);
    std::string word = take_token(line);
    if (keyword == "UNIT") {
        out.units[name] = std::move(word);
        return std::nullopt;
    }
    const auto type = type_named(word);
    if (!type) return "unknown metric type \"" + word + "\" for " + name;
    out.types[name] = *type;
    return std::nullopt;
}

std::optional<std::string> read_sample(std::string_view line, PromScrape& out) {
    PromSample s;
    s.name = take_name(line);
    if (s.name.empty()) return "expected a metric name";
    skip_blanks(line);
    if (!line.empty() && line.front() == '{')
        if (auto e = take_labels(line, s.labels)) return *e;
    skip_blanks(line);
    const std::string token = take_token(line);
    const auto v = parse_value(token);
    if (!v) return "\"" + token + "\" is no value for " + s.name;
    s.value = *v;
    skip_blanks(line);
    if (!line.empty() && line.front() != '#') {
        const std::string ts = take_token(line);
        if (!parse_value(ts)) return "\"" + ts + "\" is no timestamp for " + s.name;
        skip_blanks(line);
    }
    if (!line.empty() && line.front() != '#')
        return "unexpected \"" + std::string(line.substr(0, 40)) + "\" after " + s.name;
    out.samples.push_back(std::move(s));
    return std::nullopt;
}

}  // namespace

std::string prom_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const size_t n = c < 0x80           ? 1
                         : (c >> 5) == 0x6  ? 2
                         : (c >> 4) == 0xE  ? 3
                         : (c >> 3) == 0x1E ? 4
                                            : 0;
        bool ok = n > 0 && i + n <= text.size();
        for (size_t k = 1; ok && k < n; ++k)
            ok = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
        if (ok && n > 1) {
            // Overlong forms and surrogates are no UTF-8 either.
            uint32_t cp = c & (0xFF >> (n + 1));
            for (size_t k = 1; k < n; ++k)
                cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
            static constexpr uint32_t kLeast[] = {0, 0, 0x80, 0x800, 0x10000};
            ok = cp >= kLeast[n] && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
        }
        if (!ok) {
            out += "\xEF\xBF\xBD";
            ++i;
            continue;
        }
        out.append(text.substr(i, n));
        i += n;
    }
    return out;
}

PromParseResult parse_prom_text(std::string_view text) {
    PromParseResult r;
    size_t number = 0;
    while (!text.empty() && !r.scrape.eof) {
        ++number;
        const size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        skip_blanks(line);
        if (line.empty()) continue;
        auto error =
            line.front() == '#' ? read_comment(line, r.scrape) : read_sample(line, r.scrape);
        if (error) {
            r.error = "line " + std::to_string(number) + ": " + prom_utf8(*error);
            return r;
        }
    }
    return r;
}

std::pair<std::string, PromType> prom_family(const PromScrape& scrape, const std::string& name) {
    if (const auto it = scrape.types.find(name); it != scrape.types.end()) return *it;
    struct Suffix {
        std::string_view suffix;
        std::vector<PromType> types;
    };
    static const std::array<Suffix, 8> suffixes{{
        {"_total", {PromType::counter}},
        {"_created", {PromType::counter, PromType::histogram, PromType::summary}},
        {"_bucket", {PromType::histogram, PromType::gaugehistogram}},
        {"_count", {PromType::histogram, PromType::summary}},
        {"_sum", {PromType::histogram, PromType::summary}},
        {"_gcount", {PromType::gaugehistogram}},
        {"_gsum", {PromType::gaugehistogram}},
        {"_info", {PromType::info}},
    }};
    for (const auto& s : suffixes) {
        if (!name.ends_with(s.suffix)) continue;
        const std::string family = name.substr(0, name.size() - s.suffix.size());
        const auto it = scrape.types.find(family);
        if (it == scrape.types.end()) continue;
        for (const auto t : s.types)
            if (t == it->second) return *it;
    }
    return {name, PromType::untyped};
}

}  // namespace perflab
