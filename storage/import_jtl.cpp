// SPDX-License-Identifier: MIT
#include "import_jtl.h"

#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "csv_records.h"

namespace perflab {

namespace {

constexpr const char* kTransactionMessage = "Number of samples in transaction";

// JMeter writes the header with its default_delimiter (a comma unless set; "\t" for tabs), so
// the character beside timeStamp is the file's.
char delimiter_of(const std::string& header) {
    constexpr std::string_view kFirst = "timeStamp";
    const size_t at = header.find(kFirst);
    if (at == std::string::npos) return ',';
    const auto usable = [](char c) {
        return !std::isalnum(static_cast<unsigned char>(c)) && c != '"' && c != '_';
    };
    if (at > 0 && usable(header[at - 1])) return header[at - 1];
    const size_t after = at + kFirst.size();
    if (after < header.size() && usable(header[after])) return header[after];
    return ',';
}

std::optional<int64_t> integer(const std::string& text) {
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

// Columns by name, from the header line.
class Columns {
  public:
    Columns(const std::vector<std::string>& header) {
        for (size_t i = 0; i < header.size(); ++i)
            index_[header[i]] = i;
        for (const char* name : {"timeStamp", "elapsed", "label", "responseCode", "success"})
            if (!index_.count(name))
                throw ImportError(1, name,
                                  "missing from the header (a JTL in CSV needs timeStamp, "
                                  "elapsed, label, responseCode and success)");
        width_ = header.size();
    }
    size_t width() const { return width_; }
    bool has(const char* name) const { return index_.count(name) > 0; }
    const std::string* get(const std::vector<std::string>& row, const char* name) const {
        const auto it = index_.find(name);
        return it == index_.end() ? nullptr : &row[it->second];
    }

  private:
    std::map<std::string, size_t> index_;
    size_t width_ = 0;
};

int64_t whole(const Columns& c, const std::vector<std::string>& row, const char* name, int64_t n) {
    const std::string& text = *c.get(row, name);
    const auto v = integer(text);
    if (!v || *v < 0) throw ImportError(n, name, "\"" + text + "\" is not a whole number");
    return *v;
}

int64_t ms_as_us(const Columns& c, const std::vector<std::string>& row, const char* name,
                 int64_t n) {
    int64_t us = 0;
    if (__builtin_mul_overflow(whole(c, row, name, n), 1000, &us))
        throw ImportError(n, name, "\"" + *c.get(row, name) + "\" ms is too large");
    return us;
}

uint64_t optional_bytes(const Columns& c, const std::vector<std::string>& row, const char* name,
                        int64_t n) {
    const std::string* text = c.get(row, name);
    if (!text || text->empty()) return 0;
    return uint64_t(whole(c, row, name, n));
}

ImportRecord record_of(const Columns& c, const std::vector<std::string>& row, int64_t n) {
    if (row.size() != c.width())
        throw ImportError(n, "",
                          std::to_string(row.size()) + " fields where the header has " +
                              std::to_string(c.width()));
    ImportRecord r;
    r.line = n;
    r.time_field = "timeStamp";
    r.sent_us = ms_as_us(c, row, "timeStamp", n);
    r.latency_us = ms_as_us(c, row, "elapsed", n);
    r.op = *c.get(row, "label");
    const std::string& success = *c.get(row, "success");
    if (success != "true" && success != "false")
        throw ImportError(n, "success", "\"" + success + "\" is not true or false");
    r.ok = success == "true";
    // A sample that got no response has JMeter's "Non HTTP response code: ..." here.
    const std::string& code = *c.get(row, "responseCode");
    if (const auto v = integer(code); v && *v >= 100 && *v <= 999) r.code = int(*v);
    const std::string* message = c.get(row, "responseMessage");
    r.transaction = code.empty() && message && message->rfind(kTransactionMessage, 0) == 0;
    if (!r.ok) {
        const std::string* failure = c.get(row, "failureMessage");
        r.error = failure && !failure->empty()   ? *failure
                  : message && !message->empty() ? *message
                                                 : code;
    }
    r.bytes_in = optional_bytes(c, row, "bytes", n);
    r.bytes_out = optional_bytes(c, row, "sentBytes", n);
    r.bytes_in_known = c.has("bytes");
    r.bytes_out_known = c.has("sentBytes");
    return r;
}

}  // namespace

void read_jtl(std::istream& in, const RecordSink& sink, const WarningSink& warn) {
    std::string header;
    if (!std::getline(in, header)) throw ImportError(1, "", "empty file");
    if (header.rfind("\xEF\xBB\xBF", 0) == 0) header.erase(0, 3);
    if (const size_t at = header.find_first_not_of(" \t");
        at != std::string::npos && header[at] == '<')
        throw ImportError(1, "",
                          "XML results are not supported; save as CSV "
                          "(jmeter.save.saveservice.output_format=csv)");
    const char delimiter = delimiter_of(header);
    std::istringstream header_line(header);
    std::vector<std::string> names;
    CsvRecords(header_line, delimiter).next(names);
    const Columns columns(names);
    CsvRecords rows(in, delimiter, 1);
    std::vector<std::string> row;
    for (;;) {
        ImportRecord r;
        try {
            if (!rows.next(row)) return;
            r = record_of(columns, row, rows.line());
        } catch (const ImportError&) {
            if (rows.cut() && skip_cut_last_line(in, rows.line(), warn)) return;
            throw;
        }
        sink(std::move(r));
    }
}

}  // namespace perflab
