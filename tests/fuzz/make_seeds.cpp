// SPDX-License-Identifier: MIT
// Writes the seeds an editor cannot: our histogram encoding, HdrHistogram's compressed one (as
// PerfLab and memtier_benchmark write it), an agent's tick lines, an interval log as `perflab
// export --format hlog` writes it, and the streams whose first byte sets the read size.
// Run by hand when a format changes: `cmake --build --preset fuzz --target fuzz_make_seeds`,
// then build/fuzz/tests/fuzz/fuzz_make_seeds writes into tests/fuzz/corpus.
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agent_protocol.h"
#include "hdr_encoding.h"
#include "hlog_export.h"
#include "model/base64.h"

namespace perflab {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& dir, const std::string& name, const std::string& bytes) {
    fs::create_directories(dir);
    std::ofstream(dir / name, std::ios::binary) << bytes;
}

std::vector<Histogram> histograms() {
    std::vector<Histogram> out(5);
    out[1].record(0);
    for (const int64_t v : {int64_t{1}, int64_t{5}, int64_t{2047}, int64_t{2048}, int64_t{4097},
                            int64_t{1'000'000}, Histogram::kHighest})
        out[2].record(v);
    for (int64_t i = 1; i <= 1000; ++i)
        out[3].record(i * i % 50'000 + 100);
    out[4].record_n(3000, 1'000'000'000'000);
    return out;
}

// The compressed histograms of memtier_benchmark's JSON fixture: HdrHistogram's C library's.
std::vector<std::string> memtier_histograms(const fs::path& fixture) {
    std::ifstream in(fixture);
    const auto doc = nlohmann::json::parse(in);
    std::vector<std::string> out;
    for (const char* op : {"Gets", "Sets"}) {
        const auto& text = doc["ALL STATS"][op]["Percentile Latencies"]["Histogram log format"]
                              ["Compressed Histogram"];
        if (const auto bytes = base64_decode(text.get<std::string>())) out.push_back(*bytes);
    }
    return out;
}

// The V2 encoding inside a compressed one (its cookie and length, then zlib's stream).
std::string inflated(const std::string& compressed) {
    std::string plain(1 << 16, '\0');
    uLongf size = uLongf(plain.size());
    uncompress(reinterpret_cast<Bytef*>(plain.data()), &size,
               reinterpret_cast<const Bytef*>(compressed.data() + 8), uLong(compressed.size() - 8));
    plain.resize(size);
    return plain;
}

IntervalSample sample(int phase, int64_t t_ms) {
    IntervalSample s;
    s.t_ms = t_ms;
    s.interval_ms = 1000;
    s.phase = phase;
    s.planned_rate = 500;
    s.connections = 4;
    for (const char* name : {"get", "set"}) {
        OpSample& op = s.ops[name];
        for (int64_t i = 1; i <= 50; ++i) {
            op.latency.record(i * 37 + t_ms);
            op.service.record(i * 29);
        }
        op.count = 50;
        op.errors = 2;
    }
    s.ops["get"].check_failures = 1;
    s.ops["get"].checks_failed["status"] = 1;
    s.hits = 45;
    s.misses = 5;
    s.bytes_in = 4096;
    s.bytes_out = 512;
    s.sent = 100;
    s.add_sends(100, t_ms * 1000 - 990'000, t_ms * 1000 - 10'000);
    s.add_reply_time(t_ms * 1000);
    s.errors["timeout"] = 2;
    s.status_codes[200] = 97;
    s.status_codes[503] = 1;
    return s;
}

// A stream read `read_size` bytes at a time (memcache_reply, http_response).
std::string cut(int read_size, const std::string& stream) {
    return char(read_size - 1) + stream;
}

void write_all(const fs::path& source) {
    const fs::path corpus = source / "tests/fuzz/corpus";
    const auto hs = histograms();
    // hdr_decompress: a first byte 0 for the compressed form as it is, 1 for its inflated
    // encoding, which the target deflates.
    for (size_t i = 0; i < hs.size(); ++i) {
        const std::string n = std::to_string(i);
        write(corpus / "histogram_decode", "h" + n, hs[i].encode());
        write(corpus / "hdr_decompress", "perflab" + n, '\0' + hdr::compressed(hs[i]));
        write(corpus / "hdr_decompress", "plain" + n, '\1' + inflated(hdr::compressed(hs[i])));
    }
    const auto memtier = memtier_histograms(source / "tests/fixtures/memtier/real-3s.json");
    for (size_t i = 0; i < memtier.size(); ++i)
        write(corpus / "hdr_decompress", "memtier" + std::to_string(i), '\0' + memtier[i]);

    for (int i = 0; i < 2; ++i)
        write(corpus / "agent_protocol", "tick" + std::to_string(i),
              record_line({{"type", "tick"},
                           {"sample", sample_json(sample(i, 1000 * (i + 1)))},
                           {"cpu_pct", 37.5}}));

    RunInfo run;
    run.id = 7;
    run.started_at_ms = 1'772'366'400'000;  // 2026-03-01 12:00:00 UTC
    write(corpus / "hlog", "perflab.hlog", hlog_text(run, {sample(0, 1000), sample(0, 2000)}));
    // As HdrHistogram's own writer logs: untagged, times relative to its BaseTime.
    write(corpus / "hlog", "untagged.hlog",
          "#[Histogram log format version 1.3]\n#[BaseTime: 1772366400.000 (seconds since "
          "epoch)]\n\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_"
          "Compressed_Histogram\"\r\n0.127,1.007,1000.000," +
              base64_encode(hdr::compressed(hs[2])) + "\r\n1.134,0.993,0.000," +
              base64_encode(hdr::compressed(hs[0])) + "\r\n");

    const std::string text =
        "VALUE k:1 0 5\r\nhello\r\nEND\r\nEND\r\nSTORED\r\nNOT_STORED\r\n"
        "VALUE a 0 2\r\nab\r\nVALUE b 0 0\r\n\r\nEND\r\nSERVER_ERROR out of memory\r\n";
    const std::string meta =
        "VA 5 f0\r\nhello\r\nEN\r\nHD\r\nNS\r\nEX\r\nNF\r\nVA 2\r\nab\r\nMN\r\n";
    write(corpus / "memcache_reply", "text-1", cut(1, text));
    write(corpus / "memcache_reply", "text-7", cut(7, text));
    write(corpus / "memcache_reply", "meta-3", cut(3, meta));
    write(corpus / "memcache_reply", "meta-whole", cut(128, meta + "CLIENT_ERROR bad\r\n"));

    const std::string json = R"({"status":"ok","token":"abc123","items":[{"id":7}]})";
    const std::string sized =
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
        std::to_string(json.size()) + "\r\n\r\n" + json;
    const std::string chunked =
        "HTTP/1.1 201 Created\r\nLocation: /orders/42\r\nTransfer-Encoding: chunked\r\n\r\n"
        "a\r\ntoken=xyz9\r\n6\r\n \"ok\" \r\n0\r\n\r\n";
    write(corpus / "http_response", "keepalive-5", cut(5, sized + chunked));
    write(corpus / "http_response", "chunked-1", cut(1, chunked));
    write(
        corpus / "http_response", "close-64",
        cut(64, "HTTP/1.0 503 Service Unavailable\r\nConnection: close\r\n\r\nbusy, \"ok\" later"));
    // Two responses to HEADs: a length and no body, then a 204.
    write(corpus / "http_response", "head-128",
          std::string(1, char(0x80 | 127)) + "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" +
              "HTTP/1.1 204 No Content\r\n\r\n");
}

}  // namespace
}  // namespace perflab

int main() {
    perflab::write_all(PERFLAB_SOURCE_DIR);
    return 0;
}
