// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace perflab {

// RFC 4180 records read from a stream, one at a time: fields split by one delimiter character;
// a field that begins with a quote runs to its closing quote, across line ends (JMeter's
// assertion messages span lines), a doubled quote inside it standing for one. A quote inside
// an unquoted field is an ordinary character. Line ends are read as LF or CRLF.
class CsvRecords {
  public:
    // `lines_before`: the lines of the stream already read, so that line numbers are the file's.
    CsvRecords(std::istream& in, char delimiter, int64_t lines_before = 0);

    // The next record's fields, skipping empty lines between records; false at the end.
    // Throws ImportError naming the record's first line for a quoted field the file ends in,
    // or a record longer than kMaxRecordBytes (a quote never closed, in a large file).
    bool next(std::vector<std::string>& fields);

    // The line the last record began on.
    int64_t line() const { return start_; }
    // The last line read ended the file without a line end: a record that does not read there
    // was cut short, as a killed tool leaves it.
    bool cut() const { return cut_; }

    static constexpr size_t kMaxRecordBytes = size_t{64} << 20;

  private:
    bool read_line(std::string& line);

    std::istream& in_;
    char delimiter_;
    int64_t lines_;
    int64_t start_ = 0;
    bool cut_ = false;
};

}  // namespace perflab
