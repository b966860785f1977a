// SPDX-License-Identifier: MIT
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <string>
#include <vector>

#include "cluster_map.h"
#include "model/spec.h"

namespace perflab {

class TlsContext;

// The slot map of a Redis Cluster, from CLUSTER SLOTS of the first seed that answers (after
// AUTH when the spec has a password), before any op; over TLS when `tls` is given, each
// seed's certificate checked against its name in `hosts` (as the spec gave it). Throws
// std::runtime_error, naming the seed and what it said, when a seed refuses (a server not
// in cluster mode, a wrong password, a certificate), when its map leaves a slot without a
// master, or when no seed answers within `timeout_ms`.
ClusterMap discover_cluster(const std::vector<boost::asio::ip::tcp::endpoint>& seeds,
                            const std::vector<std::string>& hosts, const RedisHandshake& login,
                            const TlsContext* tls, int timeout_ms);

}  // namespace perflab
