// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <regex>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "prom_text.h"

namespace perflab {

// An instant vector selector as a Prometheus user writes it: `name`, `name{label="v"}`,
// with the matchers =, !=, =~ and !~, several separated by commas, or `{__name__=~"..."}`.
// Regular expressions match the whole value (Prometheus anchors them: RE2 semantics, here
// std::regex's ECMAScript, which agrees on the common syntax); a label the sample lacks has
// the value "", as in Prometheus.
struct PromMatcher {
    enum class Op { eq, ne, re, nre };
    std::string label;
    Op op = Op::eq;
    std::string value;
    std::shared_ptr<const std::regex> regex;  // for =~ and !~
    bool matches(const PromLabels& labels, const std::string& metric_name) const;
};

struct PromSelector {
    std::string text;  // as written
    std::string name;  // may be empty when a __name__ matcher names the metric
    std::vector<PromMatcher> matchers;
    bool matches(const std::string& metric_name, const PromLabels& labels) const;
};

// The selector, or why it is not one ("line 1: expected ..."), naming the position.
std::variant<PromSelector, std::string> parse_prom_selector(std::string_view text);

}  // namespace perflab
