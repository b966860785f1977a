// SPDX-License-Identifier: MIT
#pragma once

// The syntax of request templates ("/item/{{uniform 1 1000}}?u={{csv users.csv name}}"):
// text with {{name args}} variables. Only the syntax lives here, so a spec is validated
// without touching files or the environment; workers/http/request_template compiles it.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace perflab {

enum class TemplateVar { seq, uniform, zipf, uuid, now_ms, env, csv, pick, var, key, value };

// Where a template is rendered: an HTTP request (with the environment, CSV files and a
// session's captured values), or a Redis command of a cache run (cache.commands, with the
// run's key and value: {{key}}, {{value}}).
enum class TemplateUse { http, redis_command };

struct TemplatePiece {
    bool literal = true;
    std::string text;  // the literal text
    TemplateVar var = TemplateVar::seq;
    // Checked arguments: uniform "A", "B" (integers, A ≤ B); zipf "N", "S"; env "NAME";
    // csv "FILE", "COLUMN" and optionally "random"; pick its options; var "NAME" (a value an
    // earlier session step captured).
    std::vector<std::string> args;
};

struct ParsedTemplate {
    std::vector<TemplatePiece> pieces;
};

// The pieces of `text`; empty `error` when well formed, else why not ("unknown template
// \"foo\"", "unclosed \"{{\"", "uniform: expected two integers A ≤ B", "{{csv}} is not
// available in a Redis command").
ParsedTemplate parse_template(std::string_view text, std::string& error,
                              TemplateUse use = TemplateUse::http);

// The names of the {{var NAME}} in `text` (none when it does not parse).
std::vector<std::string> template_var_names(std::string_view text);

// Whether `text` holds a "{{" (a template, well formed or not).
bool looks_templated(std::string_view text);

}  // namespace perflab
