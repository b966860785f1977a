// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "memcache_codec.h"
#include "model/spec.h"

struct ssl_ctx_st;
struct ssl_st;
struct bio_st;

namespace perflab {

// What every TLS link of a run shares: the CA to verify servers with, the client's
// certificate (Redis asks for one by default), the protocol versions. Made once per worker
// thread at start; throws std::runtime_error naming a file that cannot be read.
class TlsContext {
  public:
    explicit TlsContext(const CacheTls& tls);
    ~TlsContext();
    TlsContext(const TlsContext&) = delete;
    TlsContext& operator=(const TlsContext&) = delete;

    ssl_ctx_st* native() const noexcept { return ctx_; }
    const CacheTls& spec() const noexcept { return spec_; }

  private:
    ssl_ctx_st* ctx_;
    CacheTls spec_;
};

// TLS over a socket its owner reads and writes itself: OpenSSL on memory BIOs, so the async
// driver's link keeps its own non-blocking reads and writes and only passes the bytes
// through here — plaintext in, ciphertext out, and back.
class TlsFilter {
  public:
    // `host` is the server's name or address as the spec gave it: its certificate must name
    // it (or the spec's server_name) when the spec verifies.
    TlsFilter(const TlsContext& context, const std::string& host);
    ~TlsFilter();
    TlsFilter(const TlsFilter&) = delete;
    TlsFilter& operator=(const TlsFilter&) = delete;

    enum class Handshake { more, done, failed };
    // Takes the server's bytes received so far (none at first) and appends what to send
    // next to `wire`; `failed` with error() saying why.
    Handshake handshake(std::string_view received, OutBuffer& wire);
    // Appends `plain` to `wire`, encrypted.
    bool seal(std::string_view plain, OutBuffer& wire);
    // Takes ciphertext read from the socket; its plaintext is then read with open().
    bool feed(std::string_view received);
    // Up to `space` bytes of plaintext fed so far; 0 when none is left. -1 on a broken
    // stream (error() says why). A close_notify from the server reads as -1 too.
    long open(char* to, size_t space);
    // What TLS itself must send after reading (a key update's answer), appended to `wire`.
    void pending(OutBuffer& wire);
    const std::string& error() const noexcept { return error_; }

  private:
    void drain(OutBuffer& wire);
    void fail(const char* what, int code);

    ssl_st* ssl_;
    bio_st* in_;   // ciphertext from the server, owned by ssl_
    bio_st* out_;  // ciphertext to the server, owned by ssl_
    std::string error_;
};

}  // namespace perflab
