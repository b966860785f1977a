// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace perflab {

class BodyReader;

// An HTTP/1 response parsed as its bytes arrive, keeping only what a run counts: the status,
// the body's length (its bytes handed to a BodyReader), whether the connection stays open, and
// one header's value for a capture. The header is read a byte at a time through a state
// machine, so a read cut anywhere needs no buffer; the body is taken in runs. Interim responses
// (1xx but 101) are skipped, as a client does: the final response is the one counted.
class ResponseParser {
  public:
    enum class Error { none, syntax, header_too_large, content_length, chunk_size, cut };
    // The status line and fields: no server sends more, and Beast's limit is 8 KiB.
    static constexpr size_t kHeaderLimit = 64 * 1024;

    // A new response. `head`: it answers a HEAD request, so its header is all of it.
    // `reader`: given the body (null: only its length counts); `wanted`: a field whose value
    // goes to `header` (empty: none), cut at `header_cap` bytes.
    void start(bool head, BodyReader* reader = nullptr, std::string_view wanted = {},
               std::string* header = nullptr, size_t header_cap = 0);
    // Takes `data` up to the response's end (or an error); returns how much it used.
    size_t feed(std::string_view data);
    // The connection closed: a response delimited by the close is complete, any other cut.
    void end_of_stream();

    bool done() const noexcept { return state_ == State::done; }
    Error error() const noexcept { return error_; }
    bool got_some() const noexcept { return got_some_; }
    int status() const noexcept { return status_; }
    uint64_t body() const noexcept { return body_; }
    // After done(): the server keeps the connection open for another request.
    bool keep_alive() const noexcept;

  private:
    enum class State : uint8_t {
        version,
        code,
        reason,
        status_lf,
        field_start,
        name,
        value_ows,
        value,
        field_lf,
        field_next,
        header_lf,
        length_body,
        eof_body,
        chunk_size,
        chunk_ext,
        chunk_size_lf,
        chunk_data,
        chunk_data_cr,
        chunk_data_lf,
        done,
        failed,
    };
    enum class Field : uint8_t { other, content_length, transfer_encoding, connection };

    size_t fail(Error e, size_t used) noexcept;
    bool header_byte(char c);
    size_t header_run(const char* p, size_t n);
    void fold();
    bool end_field();
    bool end_header();
    void start_message();
    size_t take_counted(std::string_view rest, State then);
    void take_body(std::string_view run);
    void append_value(std::string_view run);

    State state_ = State::version;
    Error error_ = Error::none;
    bool head_ = false;
    bool got_some_ = false;
    BodyReader* reader_ = nullptr;
    std::string_view wanted_;
    std::string* header_ = nullptr;
    size_t header_cap_ = 0;

    int status_ = 0;
    int version_ = 0;  // 10 * major + minor
    size_t header_bytes_ = 0;
    size_t version_pos_ = 0;
    int code_digits_ = 0;
    // The field being read: its name (lowercase, as long as a field we read can be).
    char name_[20] = {};
    size_t name_len_ = 0;
    bool wanted_match_ = false;  // the name so far is the wanted field's, case aside
    bool capturing_ = false;     // this field's value goes to header_
    bool capture_cut_ = false;   // ...and was longer than header_cap_
    bool folded_ = false;        // a folded line's text is next
    Field field_ = Field::other;
    static constexpr size_t kValueReserve = 256;  // grown only by an unusual field
    std::string value_;                           // of a field above, lowercase
    size_t value_trim_ = 0;                       // where its trailing whitespace begins
    bool has_length_ = false;
    uint64_t length_ = 0;
    bool chunked_ = false;
    bool close_ = false;
    bool keep_alive_token_ = false;
    bool until_close_ = false;  // the body ends with the connection
    bool in_trailer_ = false;   // the fields being read follow the last chunk
    uint64_t remaining_ = 0;
    int chunk_digits_ = 0;
    uint64_t body_ = 0;
};

}  // namespace perflab
