// SPDX-License-Identifier: MIT
#include "server_picker.h"

#include <libmemcached/memcached.h>

#include <stdexcept>

namespace perflab {

void ServerPicker::Free::operator()(memcached_st* mc) const noexcept {
    memcached_free(mc);
}

ServerPicker::ServerPicker(const CacheSpec& cache) {
    if (cache.servers.size() < 2) return;
    mc_.reset(memcached_create(nullptr));
    if (!mc_) throw std::runtime_error("libmemcached: cannot create a handle");
    memcached_behavior_set(mc_.get(), MEMCACHED_BEHAVIOR_KETAMA, 1);
    for (const auto& s : cache.servers) {
        const auto rc = memcached_server_add(mc_.get(), s.host.c_str(), s.port);
        if (rc != MEMCACHED_SUCCESS)
            throw std::runtime_error("cache.servers: cannot add " + s.text() + ": " +
                                     memcached_strerror(mc_.get(), rc));
    }
    // libmemcached may keep its servers in another order than the spec's (sorting): map
    // its positions back by host and port.
    const uint32_t n = memcached_server_count(mc_.get());
    for (uint32_t i = 0; i < n; ++i) {
        const auto* inst = memcached_server_instance_by_position(mc_.get(), i);
        const std::string_view host = memcached_server_name(inst);
        const auto port = memcached_server_port(inst);
        size_t found = 0;
        for (size_t j = 0; j < cache.servers.size(); ++j)
            if (cache.servers[j].host == host && cache.servers[j].port == port) found = j;
        spec_index_.push_back(found);
    }
}

ServerPicker::~ServerPicker() = default;

size_t ServerPicker::pick(std::string_view key) const noexcept {
    if (!mc_) return 0;
    const uint32_t position = memcached_generate_hash(mc_.get(), key.data(), key.size());
    return position < spec_index_.size() ? spec_index_[position] : 0;
}

}  // namespace perflab
