// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "model/spec.h"

struct memcached_st;

namespace perflab {

// Which of the spec's servers holds a key, decided by libmemcached's own hashing (ketama,
// configured like the libmemcached driver), so keys land where a libmemcached-based
// application puts them. Not thread-safe: one per worker thread.
class ServerPicker {
  public:
    explicit ServerPicker(const CacheSpec& cache);
    ~ServerPicker();
    ServerPicker(const ServerPicker&) = delete;
    ServerPicker& operator=(const ServerPicker&) = delete;

    // Index into cache.servers.
    size_t pick(std::string_view key) const noexcept;

  private:
    struct Free {
        void operator()(memcached_st* mc) const noexcept;
    };
    std::unique_ptr<memcached_st, Free> mc_;
    std::vector<size_t> spec_index_;  // libmemcached's server position -> cache.servers index
};

}  // namespace perflab
