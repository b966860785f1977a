// SPDX-License-Identifier: MIT
#include <cstdio>

#include "commands.h"
#include "ssh_session.h"

namespace perflab {

int hosts_trust_command(const HostsTrustOptions& o) {
    const auto target = parse_ssh_target(o.target);
    if (!target) {
        std::fprintf(stderr, "perflab hosts trust: bad target \"%s\": expected user@host[:port]\n",
                     o.target.c_str());
        return kExitBadInput;
    }
    SshOptions options;
    options.known_hosts = o.known_hosts.empty() ? default_known_hosts_path() : o.known_hosts;
    try {
        const TrustResult r = trust_host(*target, options, true);
        std::printf("%s:%d %s\n%s %s\n", target->host.c_str(), target->port, r.fingerprint.c_str(),
                    r.already_known ? "already trusted in" : "recorded in",
                    options.known_hosts.c_str());
    } catch (const SshError& e) {
        std::fprintf(stderr, "perflab hosts trust: %s\n", e.what());
        return kExitBadInput;
    }
    return kExitOk;
}

}  // namespace perflab
