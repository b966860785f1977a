// SPDX-License-Identifier: MIT
#include "net_namespace.h"

#include <unistd.h>

#include <stdexcept>

#include "process.h"

namespace perflab::test {

namespace {

void ip(const std::vector<std::string>& args) {
    std::vector<std::string> argv{"ip"};
    argv.insert(argv.end(), args.begin(), args.end());
    const Output o = run(argv);
    if (o.code != 0) {
        std::string line;
        for (const auto& a : argv)
            line += a + " ";
        throw std::runtime_error(line + "failed: " + o.err);
    }
}

}  // namespace

// Named and addressed by this process's pid and a count, so that concurrent test programs do
// not meet; one left behind by a crashed program of the same numbers is removed first.
NetNamespace::NetNamespace() {
    static int made = 0;
    const int block = int(getpid() % 250);
    const int index = made++ % 60;
    const std::string id = std::to_string(block) + "x" + std::to_string(index);
    name_ = "perflab" + id;
    outside_ = "plv" + id;
    const std::string prefix = "10.231." + std::to_string(block) + ".";
    host_ = prefix + std::to_string(index * 4 + 1);
    address_ = prefix + std::to_string(index * 4 + 2);
    run({"ip", "netns", "del", name_});
    run({"ip", "link", "del", outside_});
    ip({"netns", "add", name_});
    ip({"link", "add", outside_, "type", "veth", "peer", "name", "eth0", "netns", name_});
    ip({"addr", "add", host_ + "/30", "dev", outside_});
    ip({"link", "set", outside_, "up"});
    ip({"-n", name_, "addr", "add", address_ + "/30", "dev", "eth0"});
    ip({"-n", name_, "link", "set", "eth0", "up"});
    ip({"-n", name_, "link", "set", "lo", "up"});
    ip({"-n", name_, "route", "add", "default", "via", host_});
}

// The namespace's end of the pair goes with it, and the pair with its end.
NetNamespace::~NetNamespace() {
    run({"ip", "netns", "del", name_});
}

std::vector<std::string> NetNamespace::command(std::vector<std::string> argv) const {
    argv.insert(argv.begin(), {"ip", "netns", "exec", name_});
    return argv;
}

}  // namespace perflab::test
