// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

namespace perflab::test {

// An IPv4 socket as the kernel's /proc/net/tcp lists it.
struct TcpRow {
    uint16_t local_port = 0;
    uint16_t remote_port = 0;
    int state = 0;            // 1: established
    uint64_t send_queue = 0;  // bytes not yet acknowledged by the peer
};

std::vector<TcpRow> tcp_table();

}  // namespace perflab::test
