// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace perflab::test {

// Another host, as far as the network goes: a network namespace joined to this one by a veth
// pair, with its own address on a /30 of 10.231.0.0/16 and a default route back through this
// side, so it reaches every address of this host (made as root; removed on destruction).
class NetNamespace {
  public:
    NetNamespace();
    ~NetNamespace();
    NetNamespace(const NetNamespace&) = delete;
    NetNamespace& operator=(const NetNamespace&) = delete;

    const std::string& name() const { return name_; }
    const std::string& address() const { return address_; }         // inside the namespace
    const std::string& host_address() const { return host_; }       // this side of the pair
    const std::string& host_interface() const { return outside_; }  // ... and its name
    // `argv` run inside the namespace (`ip netns exec NAME ...`, which execs it: same pid).
    std::vector<std::string> command(std::vector<std::string> argv) const;

  private:
    std::string name_, outside_, address_, host_;
};

}  // namespace perflab::test
