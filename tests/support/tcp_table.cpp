// SPDX-License-Identifier: MIT
#include "tcp_table.h"

#include <fstream>
#include <sstream>
#include <string>

namespace perflab::test {

namespace {

uint16_t port_of(const std::string& address) {
    return uint16_t(std::stoul(address.substr(address.find(':') + 1), nullptr, 16));
}

}  // namespace

std::vector<TcpRow> tcp_table() {
    std::ifstream table("/proc/net/tcp");
    std::string line;
    std::getline(table, line);  // the header
    std::vector<TcpRow> rows;
    while (std::getline(table, line)) {
        std::istringstream fields(line);
        std::string slot, local, remote, state, queues;
        fields >> slot >> local >> remote >> state >> queues;
        rows.push_back({port_of(local), port_of(remote), int(std::stoul(state, nullptr, 16)),
                        std::stoull(queues.substr(0, queues.find(':')), nullptr, 16)});
    }
    return rows;
}

}  // namespace perflab::test
