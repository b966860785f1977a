// SPDX-License-Identifier: MIT
// The lean HTTP/1 response parser against Beast's, the parser PerfLab used before: on a corpus
// of responses (lengths, chunks with extensions and trailers, bodies ended by the close,
// HEAD, 204/304, interim 1xx, HTTP/1.0, captures), each read in every read size, both must
// read the same responses: status, body bytes, keep-alive, the captured header, and where the
// next response starts.
#include "http/response_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/response_readers.h"

namespace perflab {
namespace {

using testing::lean_read;
using testing::ParsedResponse;

constexpr size_t kCap = 16;

// Every response of `stream` read by both, in every read size; the number read.
size_t read_alike(std::string_view stream, bool head, std::string_view wanted = "Location") {
    size_t responses = 0;
    for (size_t read_size = 1; read_size <= stream.size(); ++read_size) {
        size_t beast_pos = 0, lean_pos = 0, n = 0;
        for (;;) {
            const auto want = testing::beast_read(stream, beast_pos, read_size, head, wanted, kCap);
            const auto got = lean_read(stream, lean_pos, read_size, head, wanted, kCap);
            EXPECT_TRUE(want.complete) << "the corpus holds only what Beast reads: " << stream;
            EXPECT_EQ(got, want) << "read size " << read_size << ", response " << n << ": "
                                 << stream;
            EXPECT_EQ(lean_pos, beast_pos) << "read size " << read_size;
            if (got != want || !want.complete) return 0;
            ++n;
            if (!want.keep_alive || beast_pos >= stream.size()) break;
        }
        responses = n;
    }
    return responses;
}

TEST(ResponseParser, ReadsWhatBeastReadsInEveryReadSize) {
    const std::vector<std::string> corpus = {
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
        "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Length: 0\r\n\r\n"
        "HTTP/1.1 404 Not Found\r\ncontent-length: 3\r\n\r\nnah",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        "5;name=value\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Trailer: 1\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end",
        "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nhi",
        "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nhi"
        "HTTP/1.0 204 No Content\r\nConnection: keep-alive\r\n\r\n",
        "HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n"
        "HTTP/1.1 304 Not Modified\r\nContent-Length: 99\r\n\r\n",
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
        "HTTP/1.1 201 Created\r\nLocation:   /items/7  \r\nContent-Length: 1\r\n\r\nx",
        "HTTP/1.1 302 Found\r\nlocation: /a-location-far-longer-than-the-cap\r\n"
        "Content-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\nConnection: keep-alive, close\r\n\r\nabc",
        "HTTP/1.1 500 Internal Server Error\r\nProxy-Connection: close\r\n"
        "Content-Length: 4\r\n\r\noops",
        "HTTP/1.1 200 \r\nX-Empty:\r\nX-Tab:\tv\t\r\nContent-Length: 1\r\n\r\n!",
    };
    for (const auto& stream : corpus)
        EXPECT_GT(read_alike(stream, false), 0u) << stream;
    EXPECT_EQ(read_alike("HTTP/1.1 200 OK\r\nContent-Length: 6262\r\n\r\n"
                         "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n",
                         true),
              2u);
}

TEST(ResponseParser, CountsWhatTheResponseSays) {
    ResponseParser p;
    std::string header;
    p.start(false, nullptr, "x-id", &header, kCap);
    const std::string_view first = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nX-I";
    EXPECT_EQ(p.feed(first), first.size());
    EXPECT_FALSE(p.done());
    const std::string_view rest = "d: 42 \r\nContent-Length: 3\r\n\r\nabcHTTP/1.1";
    EXPECT_EQ(p.feed(rest), rest.size() - 8);  // the next response's bytes are left
    EXPECT_TRUE(p.done());
    EXPECT_EQ(p.status(), 201);
    EXPECT_EQ(p.body(), 3u);
    EXPECT_EQ(header, "42");
    EXPECT_TRUE(p.keep_alive());
}

TEST(ResponseParser, NamesWhatIsWrong) {
    const auto error = [](std::string_view bytes, bool close = false) {
        ResponseParser p;
        p.start(false);
        p.feed(bytes);
        if (close) p.end_of_stream();
        return p.error();
    };
    using E = ResponseParser::Error;
    EXPECT_EQ(error("SSH-2.0-OpenSSH\r\n"), E::syntax);
    EXPECT_EQ(error("HTTP/1.1 2x0 OK\r\n"), E::syntax);
    EXPECT_EQ(error("HTTP/1.1 200 OK\r\nBad Name: v\r\n"), E::syntax);
    EXPECT_EQ(error("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n"),
              E::content_length);
    EXPECT_EQ(error("HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n"), E::content_length);
    EXPECT_EQ(error("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
              E::content_length);
    EXPECT_EQ(error("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n"),
              E::content_length);
    EXPECT_EQ(error("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"), E::chunk_size);
    EXPECT_EQ(error("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", true), E::cut);
    EXPECT_EQ(error("HTTP/1.1 200 OK\r\nX: " + std::string(ResponseParser::kHeaderLimit, 'v')),
              E::header_too_large);
    // A body delimited by the close is whole at the close.
    EXPECT_EQ(error("HTTP/1.1 200 OK\r\n\r\nbody", true), E::none);
}

}  // namespace
}  // namespace perflab
