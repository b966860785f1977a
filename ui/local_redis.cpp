// SPDX-License-Identifier: MIT
#include "local_redis.h"

#include <unistd.h>

#include <stdexcept>
#include <vector>

#include "local_memcached.h"

namespace perflab {

namespace {

const char* find_redis_server() {
    for (const char* path : {"/usr/bin/redis-server", "/usr/local/bin/redis-server"})
        if (access(path, X_OK) == 0) return path;
    return nullptr;
}

}  // namespace

bool redis_server_installed() {
    return find_redis_server() != nullptr;
}

LocalRedis::LocalRedis(int memory_mb) {
    const char* binary = find_redis_server();
    if (!binary)
        throw std::runtime_error("redis-server is not installed (apt-get install redis-server)");
    port_ = free_loopback_port();
    // Its working directory stays where it is: with nothing persisted, nothing is written there.
    pid_ = start_local_server(
        {binary, "--bind", "127.0.0.1", "--port", std::to_string(port_), "--save", "",
         "--appendonly", "no", "--maxmemory", std::to_string(memory_mb) + "mb",
         "--maxmemory-policy", "allkeys-lru", "--loglevel", "warning"},
        port_, "redis-server");
}

LocalRedis::~LocalRedis() {
    stop_local_server(pid_);
}

}  // namespace perflab
