// SPDX-License-Identifier: MIT
#include "import_jtl.h"

#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace perflab {

namespace {

// One CSV line's fields; JMeter quotes a field holding the delimiter or a quote, doubling
// the quotes inside.
std::vector<std::string> fields_of(const std::string& line, int64_t n) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c != '"')
                fields.back() += c;
            else if (i + 1 < line.size() && line[i + 1] == '"')
                fields.back() += '"', ++i;
            else
                quoted = false;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    if (quoted) throw ImportError(n, "", "a quoted field does not end on its line");
    return fields;
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
    if (!r.ok) {
        const std::string* failure = c.get(row, "failureMessage");
        const std::string* message = c.get(row, "responseMessage");
        r.error = failure && !failure->empty()   ? *failure
                  : message && !message->empty() ? *message
                                                 : code;
    }
    r.bytes_in = optional_bytes(c, row, "bytes", n);
    r.bytes_out = optional_bytes(c, row, "sentBytes", n);
    return r;
}

}  // namespace

void read_jtl(std::istream& in, const RecordSink& sink, const WarningSink& warn) {
    std::string line;
    if (!std::getline(in, line)) throw ImportError(1, "", "empty file");
    const Columns columns(fields_of(line, 1));
    for (int64_t n = 2; std::getline(in, line); ++n) {
        if (line.empty() || line == "\r") continue;
        ImportRecord r;
        try {
            r = record_of(columns, fields_of(line, n), n);
        } catch (const ImportError&) {
            if (skip_cut_last_line(in, n, warn)) return;
            throw;
        }
        sink(std::move(r));
    }
}

}  // namespace perflab
