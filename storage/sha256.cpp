// SPDX-License-Identifier: MIT
#include "sha256.h"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace perflab {

namespace {

class Digest {
  public:
    Digest() : ctx_(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
        if (!ctx_ || !EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr))
            throw std::runtime_error("SHA-256 is not available");
    }
    void add(const char* data, size_t size) { EVP_DigestUpdate(ctx_.get(), data, size); }
    std::string hex() {
        unsigned char digest[EVP_MAX_MD_SIZE];
        unsigned int size = 0;
        EVP_DigestFinal_ex(ctx_.get(), digest, &size);
        static constexpr char kHex[] = "0123456789abcdef";
        std::string out;
        for (unsigned int i = 0; i < size; ++i)
            out += {kHex[digest[i] >> 4], kHex[digest[i] & 15]};
        return out;
    }

  private:
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx_;
};

}  // namespace

std::string sha256_hex(std::istream& in) {
    Digest d;
    std::string buffer(1 << 16, '\0');
    while (in.read(buffer.data(), std::streamsize(buffer.size())) || in.gcount() > 0)
        d.add(buffer.data(), size_t(in.gcount()));
    return d.hex();
}

std::string sha256_hex(std::string_view bytes) {
    Digest d;
    d.add(bytes.data(), bytes.size());
    return d.hex();
}

}  // namespace perflab
