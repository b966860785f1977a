// SPDX-License-Identifier: MIT
#include "csv_records.h"

#include "import_record.h"

namespace perflab {

CsvRecords::CsvRecords(std::istream& in, char delimiter, int64_t lines_before)
    : in_(in), delimiter_(delimiter), lines_(lines_before) {}

bool CsvRecords::read_line(std::string& line) {
    if (!std::getline(in_, line)) return false;
    ++lines_;
    // getline stops at the end of the stream as well as at a line end, and says which.
    cut_ = in_.eof();
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
}

bool CsvRecords::next(std::vector<std::string>& fields) {
    std::string line;
    do {
        if (!read_line(line)) return false;
    } while (line.empty());
    start_ = lines_;
    fields.assign(1, std::string());
    bool quoted = false;
    bool field_start = true;
    size_t bytes = 0;
    for (;;) {
        for (size_t i = 0; i < line.size(); ++i) {
            const char c = line[i];
            if (quoted) {
                if (c != '"')
                    fields.back() += c;
                else if (i + 1 < line.size() && line[i + 1] == '"')
                    fields.back() += '"', ++i;
                else
                    quoted = false;
            } else if (c == delimiter_) {
                fields.emplace_back();
                field_start = true;
                continue;
            } else if (c == '"' && field_start) {
                quoted = true;
            } else {
                fields.back() += c;
            }
            field_start = false;
        }
        if (!quoted) return true;
        bytes += line.size() + 1;
        if (bytes > kMaxRecordBytes)
            throw ImportError(start_, "",
                              "a quoted field runs over " + std::to_string(kMaxRecordBytes >> 20) +
                                  " MiB (a quote that is never closed?)");
        if (!read_line(line))
            throw ImportError(start_, "",
                              "a quoted field begun here is not closed by the end of "
                              "the file");
        fields.back() += '\n';
    }
}

}  // namespace perflab
