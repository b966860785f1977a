// SPDX-License-Identifier: MIT
#include "tls_filter.h"

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <climits>
#include <stdexcept>

namespace perflab {

namespace {

std::string ssl_reason() {
    const unsigned long e = ERR_get_error();
    ERR_clear_error();
    if (e == 0) return "the connection ended";
    char text[256];
    ERR_error_string_n(e, text, sizeof text);
    return text;
}

bool is_address(const std::string& host) {
    unsigned char buf[16];
    return inet_pton(AF_INET, host.c_str(), buf) == 1 ||
           inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

}  // namespace

TlsContext::TlsContext(const CacheTls& tls) : ctx_(SSL_CTX_new(TLS_client_method())), spec_(tls) {
    if (!ctx_) throw std::runtime_error("TLS: " + ssl_reason());
    SSL_CTX_set_min_proto_version(ctx_, TLS1_2_VERSION);
    const auto fail = [&](const std::string& what) {
        const std::string reason = ssl_reason();
        SSL_CTX_free(ctx_);
        throw std::runtime_error(what + ": " + reason);
    };
    if (tls.verify) {
        SSL_CTX_set_verify(ctx_, SSL_VERIFY_PEER, nullptr);
        const bool loaded = tls.ca.empty()
                                ? SSL_CTX_set_default_verify_paths(ctx_) == 1
                                : SSL_CTX_load_verify_locations(ctx_, tls.ca.c_str(), nullptr) == 1;
        if (!loaded) fail("cache.redis.tls.ca: " + (tls.ca.empty() ? "the system's CAs" : tls.ca));
    }
    if (!tls.cert.empty() && SSL_CTX_use_certificate_chain_file(ctx_, tls.cert.c_str()) != 1)
        fail("cache.redis.tls.cert: " + tls.cert);
    if (!tls.key.empty()) {
        if (SSL_CTX_use_PrivateKey_file(ctx_, tls.key.c_str(), SSL_FILETYPE_PEM) != 1)
            fail("cache.redis.tls.key: " + tls.key);
        if (SSL_CTX_check_private_key(ctx_) != 1)
            fail("cache.redis.tls.key: " + tls.key + " is not the key of " + tls.cert);
    }
    // Writes may move: the link seals into buffers that grow.
    SSL_CTX_set_mode(ctx_, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_ENABLE_PARTIAL_WRITE);
}

TlsContext::~TlsContext() {
    SSL_CTX_free(ctx_);
}

TlsFilter::TlsFilter(const TlsContext& context, const std::string& host)
    : ssl_(SSL_new(context.native())), in_(BIO_new(BIO_s_mem())), out_(BIO_new(BIO_s_mem())) {
    if (!ssl_ || !in_ || !out_) throw std::runtime_error("TLS: " + ssl_reason());
    // A read of an empty memory BIO is "retry", not end of file.
    BIO_set_mem_eof_return(in_, -1);
    SSL_set_bio(ssl_, in_, out_);
    SSL_set_connect_state(ssl_);
    const CacheTls& tls = context.spec();
    const std::string& name = tls.server_name.empty() ? host : tls.server_name;
    if (!is_address(name)) SSL_set_tlsext_host_name(ssl_, name.c_str());
    if (tls.verify) {
        X509_VERIFY_PARAM* param = SSL_get0_param(ssl_);
        if (is_address(name))
            X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str());
        else
            X509_VERIFY_PARAM_set1_host(param, name.c_str(), name.size());
    }
}

TlsFilter::~TlsFilter() {
    SSL_free(ssl_);  // and both BIOs
}

void TlsFilter::fail(const char* what, int code) {
    if (code == SSL_ERROR_SSL && SSL_get_verify_result(ssl_) != X509_V_OK) {
        error_ = std::string(what) + ": certificate verify failed: " +
                 X509_verify_cert_error_string(SSL_get_verify_result(ssl_));
        ERR_clear_error();
        return;
    }
    error_ = std::string(what) + ": " + ssl_reason();
}

void TlsFilter::drain(OutBuffer& wire) {
    char chunk[16 * 1024];
    for (int n; (n = BIO_read(out_, chunk, sizeof chunk)) > 0;)
        wire.append({chunk, size_t(n)});
}

TlsFilter::Handshake TlsFilter::handshake(std::string_view received, OutBuffer& wire) {
    if (!received.empty() && !feed(received)) return Handshake::failed;
    const int r = SSL_do_handshake(ssl_);
    drain(wire);
    if (r == 1) return Handshake::done;
    const int code = SSL_get_error(ssl_, r);
    if (code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE) return Handshake::more;
    fail("TLS handshake", code);
    return Handshake::failed;
}

bool TlsFilter::seal(std::string_view plain, OutBuffer& wire) {
    while (!plain.empty()) {
        const int chunk = int(std::min<size_t>(plain.size(), INT_MAX));
        const int n = SSL_write(ssl_, plain.data(), chunk);
        if (n <= 0) {
            fail("TLS write", SSL_get_error(ssl_, n));
            return false;
        }
        plain.remove_prefix(size_t(n));
    }
    drain(wire);
    return true;
}

bool TlsFilter::feed(std::string_view received) {
    while (!received.empty()) {
        const int n =
            BIO_write(in_, received.data(), int(std::min<size_t>(received.size(), INT_MAX)));
        if (n <= 0) {
            error_ = "TLS: " + ssl_reason();
            return false;
        }
        received.remove_prefix(size_t(n));
    }
    return true;
}

long TlsFilter::open(char* to, size_t space) {
    if (space == 0) return 0;
    const int n = SSL_read(ssl_, to, int(std::min<size_t>(space, INT_MAX)));
    if (n > 0) return n;
    const int code = SSL_get_error(ssl_, n);
    if (code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE) return 0;
    if (code == SSL_ERROR_ZERO_RETURN) {
        error_ = "the server closed the TLS session";
        return -1;
    }
    fail("TLS read", code);
    return -1;
}

void TlsFilter::pending(OutBuffer& wire) {
    drain(wire);
}

}  // namespace perflab
