// SPDX-License-Identifier: MIT
#include "search_result.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "format.h"

namespace perflab {

namespace {

template <class T>
nlohmann::json or_null(const std::optional<T>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

template <class T>
std::optional<T> optional_at(const nlohmann::json& j, const char* key) {
    if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
    return j.at(key).get<T>();
}

std::string ms_text(const std::optional<double>& v) {
    return v ? format_fixed(*v, 2) : "-";
}

std::optional<double> old_gen_figure(const SearchStep& s, double OldGenSpan::*figure) {
    if (!s.old_gen) return std::nullopt;
    return (*s.old_gen).*figure;
}

// "12->57% +3.1/s": where the old generation went over the step, and how fast.
std::string old_gen_text(const std::optional<OldGenSpan>& g) {
    if (!g) return "-";
    // A flat old generation reads +0.0, never -0.0.
    const double growth = std::abs(g->growth_pct_per_s) < 0.05 ? 0 : g->growth_pct_per_s;
    return format_fixed(g->start_pct, 0) + "->" + format_fixed(g->end_pct, 0) + "% " +
           (growth >= 0 ? "+" : "") + format_fixed(growth, 1) + "/s";
}

}  // namespace

nlohmann::json to_json(const SearchResult& r) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& s : r.steps) {
        nlohmann::json failed = nlohmann::json::array();
        for (const auto& c : s.failed)
            failed.push_back(c.name);
        steps.push_back({{"phase", s.phase},
                         {"rate", s.rate},
                         {"throughput", s.throughput},
                         {"p50_ms", or_null(s.p50_ms)},
                         {"p99_ms", or_null(s.p99_ms)},
                         {"p999_ms", or_null(s.p999_ms)},
                         {"error_rate", s.error_rate},
                         {"hit_rate", or_null(s.hit_rate)},
                         {"full_gcs", or_null(s.full_gcs)},
                         {"passed", s.passed},
                         {"failed", failed},
                         {"confirm", s.confirm},
                         {"marginal", s.marginal},
                         {"old_gen_start_pct", or_null(old_gen_figure(s, &OldGenSpan::start_pct))},
                         {"old_gen_end_pct", or_null(old_gen_figure(s, &OldGenSpan::end_pct))},
                         {"old_gen_growth_pct_per_s",
                          or_null(old_gen_figure(s, &OldGenSpan::growth_pct_per_s))}});
    }
    nlohmann::json check = nullptr;
    if (r.failed_check) {
        SloVerdict one;
        one.checks.push_back(*r.failed_check);
        check = to_json(one).at("checks").at(0);
    }
    return {
        {"max_rate", or_null(r.max_rate)}, {"first_failing_rate", or_null(r.first_failing_rate)},
        {"failed_check", check},           {"finished", r.finished},
        {"confirmed", r.confirmed},        {"steps", steps}};
}

std::optional<SearchResult> search_result_from_json(const nlohmann::json& j) {
    if (!j.is_object() || !j.contains("steps")) return std::nullopt;
    try {
        SearchResult r;
        r.max_rate = optional_at<double>(j, "max_rate");
        r.first_failing_rate = optional_at<double>(j, "first_failing_rate");
        r.finished = j.value("finished", false);
        r.confirmed = j.value("confirmed", false);
        if (j.contains("failed_check") && !j.at("failed_check").is_null()) {
            const auto v = slo_verdict_from_json(
                {{"passed", false}, {"checks", nlohmann::json::array({j.at("failed_check")})}});
            if (v) r.failed_check = v->checks.front();
        }
        for (const auto& s : j.at("steps")) {
            SearchStep step;
            step.phase = s.at("phase").get<int>();
            step.rate = s.at("rate").get<double>();
            step.throughput = s.at("throughput").get<double>();
            step.p50_ms = optional_at<double>(s, "p50_ms");
            step.p99_ms = optional_at<double>(s, "p99_ms");
            step.p999_ms = optional_at<double>(s, "p999_ms");
            step.error_rate = s.at("error_rate").get<double>();
            step.hit_rate = optional_at<double>(s, "hit_rate");
            step.full_gcs = optional_at<uint64_t>(s, "full_gcs");
            step.passed = s.at("passed").get<bool>();
            step.confirm = s.value("confirm", false);
            step.marginal = s.value("marginal", false);
            const auto start = optional_at<double>(s, "old_gen_start_pct");
            const auto end = optional_at<double>(s, "old_gen_end_pct");
            const auto growth = optional_at<double>(s, "old_gen_growth_pct_per_s");
            if (start && end && growth) step.old_gen = OldGenSpan{*start, *end, *growth};
            for (const auto& name : s.at("failed")) {
                SloCheck c;
                c.name = name.get<std::string>();
                step.failed.push_back(std::move(c));
            }
            r.steps.push_back(std::move(step));
        }
        return r;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

std::string search_headline(const SearchResult& r) {
    std::string out = "Search: ";
    out +=
        r.max_rate ? "max rate " + format_fixed(*r.max_rate, 0) + "/s" : "no rate met every check";
    if (r.first_failing_rate) {
        out += "; first failing " + format_fixed(*r.first_failing_rate, 0) + "/s";
        if (r.failed_check) out += " (" + r.failed_check->text() + ")";
    } else if (r.max_rate && r.finished) {
        out += "; no step failed up to rate_to";
    }
    if (r.confirmed) out += "; confirmed by a hold";
    const bool held =
        std::any_of(r.steps.begin(), r.steps.end(), [](const SearchStep& s) { return s.confirm; });
    if (held && !r.confirmed && r.finished) out += "; no confirmation hold passed";
    const bool marginal = r.max_rate && std::any_of(r.steps.begin(), r.steps.end(), [&](auto& s) {
                              return s.marginal && s.passed && s.rate == *r.max_rate;
                          });
    if (marginal) out += "; marginal: the old generation would fill within 2 steps at max rate";
    if (!r.finished) out += " [stopped before the search ended]";
    return out;
}

std::vector<std::string> search_columns() {
    return {"phase",  "rate/s", "throughput/s", "p50 ms",  "p99 ms", "p99.9 ms",
            "errors", "hits",   "full GCs",     "old gen", "verdict"};
}

std::vector<std::string> search_row(const SearchStep& s) {
    std::string verdict = std::string(s.confirm ? "hold " : "") + (s.passed ? "pass" : "FAIL");
    if (s.marginal) verdict += " (marginal)";
    for (size_t i = 0; i < s.failed.size(); ++i)
        verdict += (i ? ", " : ": ") + s.failed[i].name;
    return {std::to_string(s.phase + 1),
            format_fixed(s.rate, 0),
            format_fixed(s.throughput, 1),
            ms_text(s.p50_ms),
            ms_text(s.p99_ms),
            ms_text(s.p999_ms),
            format_fixed(s.error_rate * 100, 2) + "%",
            s.hit_rate ? format_fixed(*s.hit_rate * 100, 1) + "%" : "-",
            s.full_gcs ? std::to_string(*s.full_gcs) : "-",
            old_gen_text(s.old_gen),
            verdict};
}

std::string search_text(const SearchResult& r) {
    std::vector<std::vector<std::string>> rows = {search_columns()};
    for (const auto& s : r.steps)
        rows.push_back(search_row(s));
    // Columns a cache-less, probe-less search has no figure for are left out.
    const bool hits = std::any_of(r.steps.begin(), r.steps.end(),
                                  [](const SearchStep& s) { return s.hit_rate.has_value(); });
    const bool gcs = std::any_of(r.steps.begin(), r.steps.end(),
                                 [](const SearchStep& s) { return s.full_gcs.has_value(); });
    const bool old_gen = std::any_of(r.steps.begin(), r.steps.end(),
                                     [](const SearchStep& s) { return s.old_gen.has_value(); });
    std::vector<size_t> widths(rows.front().size(), 0);
    for (const auto& row : rows)
        for (size_t c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], row[c].size());
    std::ostringstream out;
    out << search_headline(r) << "\n";
    for (const auto& row : rows) {
        for (size_t c = 0; c + 1 < row.size(); ++c) {
            if ((c == 7 && !hits) || (c == 8 && !gcs) || (c == 9 && !old_gen)) continue;
            // The phase left, figures right-aligned under their headers.
            if (c == 0)
                out << std::left << std::setw(int(widths[c]) + 2) << row[c];
            else
                out << std::right << std::setw(int(widths[c])) << row[c] << "  ";
        }
        out << row.back() << "\n";
    }
    return out.str();
}

}  // namespace perflab
