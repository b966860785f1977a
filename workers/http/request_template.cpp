// SPDX-License-Identifier: MIT
#include "request_template.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "model/format.h"

namespace perflab {

namespace {

constexpr size_t kNumberBytes = 20;  // the longest 64-bit integer, sign included
constexpr size_t kNone = SIZE_MAX;

// RFC 4180: fields split on commas, double quotes around a field that holds commas, quotes
// or line breaks, a doubled quote for a quote; lines end with CRLF or LF.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
    std::vector<std::vector<std::string>> lines;
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false, any = false;
    const auto end_line = [&] {
        if (any || !field.empty() || !fields.empty()) {
            fields.push_back(std::move(field));
            lines.push_back(std::move(fields));
        }
        fields.clear();
        field.clear();
        any = false;
    };
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = any = true;
        } else if (c == ',') {
            fields.push_back(std::move(field));
            field.clear();
            any = true;
        } else if (c == '\n') {
            end_line();
        } else if (c != '\r') {
            field += c;
        }
    }
    end_line();
    return lines;
}

void append_number(std::string& out, uint64_t v) {
    char digits[kNumberBytes];
    const auto r = std::to_chars(digits, digits + sizeof digits, v);
    out.append(digits, size_t(r.ptr - digits));
}

void append_number(std::string& out, int64_t v) {
    char digits[kNumberBytes];
    const auto r = std::to_chars(digits, digits + sizeof digits, v);
    out.append(digits, size_t(r.ptr - digits));
}

void append_uuid(std::string& out, Rng& rng) {
    char text[kUuidChars];
    format_uuid(text, rng);
    out.append(text, kUuidChars);
}

int64_t to_int(const std::string& s) {
    return std::strtoll(s.c_str(), nullptr, 10);
}

}  // namespace

std::shared_ptr<const CsvTable> load_csv(const std::string& path, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot read CSV file \"" + path + "\"";
        return nullptr;
    }
    std::stringstream text;
    text << in.rdbuf();
    auto lines = parse_csv(text.str());
    if (lines.size() < 2) {
        error = "CSV file \"" + path + "\" has no data row under its header line";
        return nullptr;
    }
    auto table = std::make_shared<CsvTable>();
    table->header = std::move(lines.front());
    for (size_t i = 1; i < lines.size(); ++i) {
        if (lines[i].size() != table->header.size()) {
            error = "CSV file \"" + path + "\", line " + std::to_string(i + 1) + ": " +
                    std::to_string(lines[i].size()) + " fields, the header has " +
                    std::to_string(table->header.size());
            return nullptr;
        }
        table->rows.push_back(std::move(lines[i]));
    }
    return table;
}

size_t RequestProgram::row(uint32_t source, RenderState& state, uint64_t seq) const {
    size_t& r = state.rows[source];
    if (r == kNone) {
        const Source& s = sources_[source];
        const size_t n = s.table->rows.size();
        r = s.random ? size_t(state.rng.below(n)) : size_t(seq % n);
    }
    return r;
}

void RequestProgram::run(const Part& part, std::string& out, RenderState& state,
                         uint64_t seq) const {
    for (const Op& op : part.ops) {
        switch (op.kind) {
            case Op::Kind::literal:
                out.append(text_, op.begin, op.size);
                break;
            case Op::Kind::seq:
                append_number(out, seq);
                break;
            case Op::Kind::uniform:
                append_number(out, int64_t(uint64_t(op.low) + state.rng.below(op.span)));
                break;
            case Op::Kind::zipf:
                append_number(out, zipfs_[op.index].sample(state.rng));
                break;
            case Op::Kind::uuid:
                append_uuid(out, state.rng);
                break;
            case Op::Kind::now_ms:
                append_number(out, int64_t(std::chrono::duration_cast<std::chrono::milliseconds>(
                                               std::chrono::system_clock::now().time_since_epoch())
                                               .count()));
                break;
            case Op::Kind::csv:
                out += sources_[op.index].table->rows[row(op.index, state, seq)][op.column];
                break;
            case Op::Kind::pick: {
                const auto [begin, size] = choices_[op.begin + state.rng.below(op.size)];
                out.append(text_, begin, size);
                break;
            }
            case Op::Kind::var:
                out += state.values[op.index];
                break;
        }
    }
}

size_t RequestProgram::render(std::string& out, std::string& body, RenderState& state,
                              uint64_t seq) const {
    std::fill_n(state.rows.begin(), sources_.size(), kNone);
    out.clear();
    run(head_, out, state, seq);
    body.clear();
    run(body_, body, state, seq);
    if (content_length_ || !body.empty()) {
        out += "Content-Length: ";
        append_number(out, uint64_t(body.size()));
        out += "\r\n";
    }
    out += "\r\n";
    out += body;
    return body.size();
}

void ProgramBuilder::literal(RequestProgram::Part& part, const std::string& text) {
    if (text.empty()) return;
    auto& p = *program_;
    // Adjacent literals are one span.
    if (!part.ops.empty() && part.ops.back().kind == RequestProgram::Op::Kind::literal &&
        part.ops.back().begin + part.ops.back().size == p.text_.size()) {
        part.ops.back().size += uint32_t(text.size());
    } else {
        RequestProgram::Op op;
        op.begin = uint32_t(p.text_.size());
        op.size = uint32_t(text.size());
        part.ops.push_back(op);
    }
    p.text_ += text;
    part.max += text.size();
}

bool ProgramBuilder::csv(RequestProgram::Part& part, const TemplatePiece& piece,
                         std::string& error) {
    const std::string& path = piece.args[0];
    auto& table = files_[path];
    if (!table) table = load_csv(path, error);
    if (!table) {
        files_.erase(path);
        return false;
    }
    const auto& header = table->header;
    const std::string& name = piece.args[1];
    size_t column = size_t(std::find(header.begin(), header.end(), name) - header.begin());
    // Not a header's name: a column number, counted from 1.
    if (column == header.size() && !name.empty() &&
        name.find_first_not_of("0123456789") == std::string::npos) {
        const auto n = size_t(std::strtoull(name.c_str(), nullptr, 10));
        if (n >= 1 && n <= header.size()) column = n - 1;
    }
    if (column == header.size()) {
        std::string names;
        for (const auto& h : header)
            names += (names.empty() ? "" : ", ") + h;
        error = "CSV file \"" + path + "\" has no column \"" + name + "\" (it has " + names + ")";
        return false;
    }
    auto& p = *program_;
    const bool random = piece.args.size() == 3;
    uint32_t source = 0;
    while (source < p.sources_.size() &&
           (p.sources_[source].table != table || p.sources_[source].random != random))
        ++source;
    if (source == p.sources_.size()) p.sources_.push_back({table, random});
    RequestProgram::Op op;
    op.kind = RequestProgram::Op::Kind::csv;
    op.index = source;
    op.column = uint32_t(column);
    part.ops.push_back(op);
    size_t widest = 0;
    for (size_t r = 0; r < table->rows.size(); ++r) {
        const std::string& value = table->rows[r][column];
        // In the head, a line break would end the request line or header early.
        if (&part == &p.head_ && value.find_first_of("\r\n") != std::string::npos) {
            error = "CSV file \"" + path + "\", row " + std::to_string(r + 1) + ", column \"" +
                    header[column] + "\": a line break cannot go into a URL or header";
            return false;
        }
        widest = std::max(widest, value.size());
    }
    part.max += widest;
    return true;
}

bool ProgramBuilder::variable(RequestProgram::Part& part, const TemplatePiece& piece,
                              std::string& error) {
    using Kind = RequestProgram::Op::Kind;
    auto& p = *program_;
    RequestProgram::Op op;
    switch (piece.var) {
        case TemplateVar::env: {
            const auto value = env_(piece.args[0]);
            if (!value) {
                error = "environment variable " + piece.args[0] + " is not set";
                return false;
            }
            if (&part == &p.head_ && value->find_first_of("\r\n") != std::string::npos) {
                error = "environment variable " + piece.args[0] +
                        " holds a line break, which cannot go into a URL or header";
                return false;
            }
            literal(part, *value);
            return true;
        }
        case TemplateVar::csv:
            return csv(part, piece, error);
        case TemplateVar::key:
        case TemplateVar::value:
            // parse_template refuses them in an HTTP request: a cache run's alone.
            error = "{{key}} and {{value}} are for a cache run's Redis commands";
            return false;
        case TemplateVar::var: {
            const auto at = vars_ ? std::find(vars_->begin(), vars_->end(), piece.args[0])
                                  : std::vector<std::string>::const_iterator();
            if (!vars_ || at == vars_->end()) {
                error = "{{var " + piece.args[0] + "}}: no session step captures it";
                return false;
            }
            op.kind = Kind::var;
            op.index = uint32_t(at - vars_->begin());
            part.max += kMaxCaptureBytes;
            break;
        }
        case TemplateVar::seq:
            op.kind = Kind::seq;
            part.max += kNumberBytes;
            break;
        case TemplateVar::now_ms:
            op.kind = Kind::now_ms;
            part.max += kNumberBytes;
            break;
        case TemplateVar::uuid:
            op.kind = Kind::uuid;
            part.max += kUuidChars;
            break;
        case TemplateVar::uniform:
            op.kind = Kind::uniform;
            op.low = to_int(piece.args[0]);
            // B − A + 1 wraps to 0 only for the whole int64 range, where below(0) gives 0;
            // the syntax check bounds A and B to int64, so that is the one case.
            op.span = uint64_t(to_int(piece.args[1])) - uint64_t(op.low) + 1;
            part.max += kNumberBytes;
            break;
        case TemplateVar::zipf:
            op.kind = Kind::zipf;
            op.index = uint32_t(p.zipfs_.size());
            p.zipfs_.emplace_back(uint64_t(to_int(piece.args[0])),
                                  parse_number(piece.args[1]).value_or(0));
            part.max += kNumberBytes;
            break;
        case TemplateVar::pick: {
            op.kind = Kind::pick;
            op.begin = uint32_t(p.choices_.size());
            op.size = uint32_t(piece.args.size());
            size_t widest = 0;
            for (const auto& choice : piece.args) {
                p.choices_.emplace_back(uint32_t(p.text_.size()), uint32_t(choice.size()));
                p.text_ += choice;
                widest = std::max(widest, choice.size());
            }
            part.max += widest;
            break;
        }
    }
    part.ops.push_back(op);
    return true;
}

bool ProgramBuilder::add(RequestProgram::Part& part, const std::string& text, std::string& error) {
    const ParsedTemplate parsed = parse_template(text, error);
    if (!error.empty()) return false;
    for (const auto& piece : parsed.pieces) {
        if (piece.literal)
            literal(part, piece.text);
        else if (!variable(part, piece, error))
            return false;
    }
    return true;
}

void ProgramBuilder::head_text(const std::string& text) {
    literal(program_->head_, text);
}

bool ProgramBuilder::head(const std::string& text, std::string& error) {
    return add(program_->head_, text, error);
}

void ProgramBuilder::body_text(const std::string& text) {
    literal(program_->body_, text);
}

bool ProgramBuilder::body(const std::string& text, std::string& error) {
    return add(program_->body_, text, error);
}

}  // namespace perflab
