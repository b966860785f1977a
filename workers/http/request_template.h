// SPDX-License-Identifier: MIT
#pragma once

// Templated requests (model/template_syntax.h), compiled once when the run starts into a
// program of literal spans and generators. Rendering a request parses nothing and, into a
// buffer reserved for max_bytes(), allocates nothing.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cache/rng.h"
#include "cache/zipf.h"
#include "model/secrets.h"
#include "model/template_syntax.h"

namespace perflab {

// A CSV data file: a header line, then rows. Loaded once per run, shared read-only by every
// worker thread.
struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;  // each as wide as the header
};
// Null, with `error` set, when the file cannot be read or holds no data row.
std::shared_ptr<const CsvTable> load_csv(const std::string& path, std::string& error);

// The longest value a session step may capture: each user's buffers are reserved this long,
// so capturing and rendering a value allocate nothing; a longer one fails its capture.
constexpr size_t kMaxCaptureBytes = 4096;

// One worker thread's random stream and scratch for rendering; never shared.
struct RenderState {
    explicit RenderState(uint64_t seed) : rng(seed) {}
    Rng rng;
    std::vector<size_t> rows;  // the CSV row each source of the request took, sized by the plan
    // The session user's captured values, by the plan's variable index ({{var NAME}}).
    const std::string* values = nullptr;
};

// A whole request: the head up to its Content-Length, and the body.
class RequestProgram {
  public:
    // The upper bound of a rendered request, for the connection's buffers: the parts at
    // their longest, the Content-Length line and the blank line.
    size_t max_bytes() const { return head_.max + body_.max + kLengthLine; }
    size_t csv_sources() const { return sources_.size(); }

    // Renders request number `seq` of its target into `out` (`body` is scratch for the body
    // before its length is known); returns the body's size.
    size_t render(std::string& out, std::string& body, RenderState& state, uint64_t seq) const;

  private:
    friend class ProgramBuilder;
    static constexpr size_t kLengthLine = 64;  // "Content-Length: " + 20 digits + 2 CRLFs

    struct Op {
        enum class Kind : uint8_t { literal, seq, uniform, zipf, uuid, now_ms, csv, pick, var };
        Kind kind = Kind::literal;
        uint32_t begin = 0;  // literal: offset into text_; pick: first choice in choices_
        uint32_t size = 0;   // literal: length; pick: choices
        uint32_t index = 0;  // zipf: sampler; csv: source; var: variable
        uint32_t column = 0;
        int64_t low = 0;  // uniform: low + [0, span)
        uint64_t span = 0;
    };
    struct Part {
        std::vector<Op> ops;
        size_t max = 0;
    };
    struct Source {
        std::shared_ptr<const CsvTable> table;
        bool random = false;
    };

    void run(const Part& part, std::string& out, RenderState& state, uint64_t seq) const;
    size_t row(uint32_t source, RenderState& state, uint64_t seq) const;

    std::string text_;  // every literal, env value and choice, back to back
    std::vector<std::pair<uint32_t, uint32_t>> choices_;
    std::vector<ZipfSampler> zipfs_;
    std::vector<Source> sources_;
    Part head_;
    Part body_;
    bool content_length_ = false;
};

// Builds one target's program; CSV files are loaded once per builder's `files` cache.
class ProgramBuilder {
  public:
    using Files = std::map<std::string, std::shared_ptr<const CsvTable>>;
    // `vars`: the names a session captures, in the plan's order ({{var NAME}} renders the
    // user's value of (*vars)[i]); null without a session.
    ProgramBuilder(Files& files, const Environment& env,
                   const std::vector<std::string>* vars = nullptr)
        : files_(files), env_(env), vars_(vars) {}

    // Appends literal text to the head.
    void head_text(const std::string& text);
    // Appends a template to the head, or to the body; false, with `error` set (an unset
    // variable, an unreadable CSV file, a missing column), when it cannot be compiled.
    bool head(const std::string& text, std::string& error);
    bool body(const std::string& text, std::string& error);
    void body_text(const std::string& text);
    void content_length(bool send) { program_->content_length_ = send; }
    std::shared_ptr<const RequestProgram> finish() { return std::move(program_); }

  private:
    bool add(RequestProgram::Part& part, const std::string& text, std::string& error);
    void literal(RequestProgram::Part& part, const std::string& text);
    bool variable(RequestProgram::Part& part, const TemplatePiece& piece, std::string& error);
    bool csv(RequestProgram::Part& part, const TemplatePiece& piece, std::string& error);

    Files& files_;
    const Environment& env_;
    const std::vector<std::string>* vars_;
    std::shared_ptr<RequestProgram> program_ = std::make_shared<RequestProgram>();
};

}  // namespace perflab
