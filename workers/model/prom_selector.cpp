// SPDX-License-Identifier: MIT
#include "prom_selector.h"

#include <optional>

#include "regex_limits.h"

namespace perflab {

namespace {

bool name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

bool name_char(char c) {
    return name_start(c) || (c >= '0' && c <= '9');
}

struct Reader {
    std::string_view s;
    size_t at = 0;

    void blanks() {
        while (at < s.size() && (s[at] == ' ' || s[at] == '\t'))
            ++at;
    }
    bool done() const { return at >= s.size(); }
    char peek() const { return done() ? '\0' : s[at]; }
    std::string name() {
        const size_t from = at;
        if (!done() && name_start(s[at]))
            while (!done() && name_char(s[at]))
                ++at;
        return std::string(s.substr(from, at - from));
    }
    std::string where() const {
        return done() ? "at the end" : "at column " + std::to_string(at + 1);
    }
};

const std::string& label_value(const PromLabels& labels, const std::string& name) {
    static const std::string none;
    for (const auto& [k, v] : labels)
        if (k == name) return v;
    return none;
}

// A PromQL string: "..." or '...' with backslash escapes, or `...` taken as it is; the error
// if there is none.
std::optional<std::string> quoted(Reader& r, std::string& out) {
    const char q = r.peek();
    if (q != '"' && q != '\'' && q != '`') return "expected a quoted value " + r.where();
    ++r.at;
    while (!r.done() && r.peek() != q) {
        char c = r.s[r.at++];
        if (c == '\\' && q != '`') {
            if (r.done()) break;
            c = r.s[r.at++];
            if (c == 'n')
                c = '\n';
            else if (c == 't')
                c = '\t';
            else if (c != '\\' && c != '"' && c != '\'')
                out += '\\';
        }
        out += c;
    }
    if (r.done()) return std::string("unterminated quoted value");
    ++r.at;
    return std::nullopt;
}

}  // namespace

bool PromMatcher::matches(const PromLabels& labels, const std::string& metric_name) const {
    const std::string& v = label == "__name__" ? metric_name : label_value(labels, label);
    switch (op) {
        case Op::eq:
            return v == value;
        case Op::ne:
            return v != value;
        case Op::re:
            return std::regex_match(v, *regex);
        case Op::nre:
            return !std::regex_match(v, *regex);
    }
    return false;
}

bool PromSelector::matches(const std::string& metric_name, const PromLabels& labels) const {
    if (!name.empty() && name != metric_name) return false;
    for (const auto& m : matchers)
        if (!m.matches(labels, metric_name)) return false;
    return true;
}

std::variant<PromSelector, std::string> parse_prom_selector(std::string_view text) {
    PromSelector sel;
    sel.text = std::string(text);
    Reader r{text};
    r.blanks();
    sel.name = r.name();
    r.blanks();
    if (r.peek() == '{') {
        ++r.at;
        for (;;) {
            r.blanks();
            if (r.peek() == '}') {
                ++r.at;
                break;
            }
            PromMatcher m;
            m.label = r.name();
            if (m.label.empty()) return "expected a label name " + r.where();
            r.blanks();
            const std::string_view rest = r.s.substr(std::min(r.at, r.s.size()));
            if (rest.starts_with("=~"))
                m.op = PromMatcher::Op::re;
            else if (rest.starts_with("!~"))
                m.op = PromMatcher::Op::nre;
            else if (rest.starts_with("!="))
                m.op = PromMatcher::Op::ne;
            else if (rest.starts_with("="))
                m.op = PromMatcher::Op::eq;
            else
                return "expected =, !=, =~ or !~ after " + m.label + " " + r.where();
            r.at += m.op == PromMatcher::Op::eq ? 1 : 2;
            r.blanks();
            if (auto e = quoted(r, m.value)) return *e + " for label " + m.label;
            if (m.op == PromMatcher::Op::re || m.op == PromMatcher::Op::nre) {
                if (auto why = regex_refusal(m.value)) return "label " + m.label + ": " + *why;
                try {
                    m.regex = std::make_shared<const std::regex>(m.value, std::regex::ECMAScript);
                } catch (const std::regex_error& e) {
                    return "label " + m.label + ": bad regular expression \"" + m.value +
                           "\": " + e.what();
                }
            }
            sel.matchers.push_back(std::move(m));
            r.blanks();
            if (r.peek() == ',')
                ++r.at;
            else if (r.peek() != '}')
                return "expected ',' or '}' " + r.where();
        }
    }
    r.blanks();
    if (!r.done()) return "unexpected \"" + std::string(r.s.substr(r.at, 20)) + "\" " + r.where();
    if (sel.name.empty()) {
        // As Prometheus requires: a selector names its metric, or at least one matcher
        // excludes the empty label set.
        bool names = false;
        for (const auto& m : sel.matchers)
            names = names || !m.matches({}, "");
        if (!names)
            return std::string("needs a metric name, or a matcher that rules out empty labels");
    }
    return sel;
}

}  // namespace perflab
