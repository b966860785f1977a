// SPDX-License-Identifier: MIT
#include "host_check.h"

#include "remote/ssh_session.h"
#include "ssh_probe.h"

namespace perflab {

namespace {

HostCheck::Outcome outcome_of(SshError::Kind kind) {
    switch (kind) {
        case SshError::Kind::unknown_host:
            return HostCheck::Outcome::unknown_host;
        case SshError::Kind::changed_host:
            return HostCheck::Outcome::changed_host;
        case SshError::Kind::key:
            return HostCheck::Outcome::key;
        default:
            return HostCheck::Outcome::failed;
    }
}

}  // namespace

HostCheck check_host(const SavedHost& host, const std::string& known_hosts,
                     const std::string& passphrase, const std::string& trusted_fingerprint) {
    HostCheck check;
    const auto target = parse_ssh_target(host.target);
    if (!target) {
        check.outcome = HostCheck::Outcome::bad_target;
        check.message = "target: \"" + host.target + "\" is not user@host[:port]";
        return check;
    }
    SshOptions options;
    options.key_file = host.key_file;
    options.passphrase = passphrase;
    options.known_hosts = known_hosts;
    try {
        if (!trusted_fingerprint.empty())
            trust_host(*target, options, TrustMode::accepted, trusted_fingerprint);
        SshSession session(*target, options);
        session.connect();
        check.profile = remote_hardware_profile(session);
        check.outcome = HostCheck::Outcome::ok;
    } catch (const SshError& e) {
        check.outcome = outcome_of(e.kind());
        check.message = e.what();
        check.fingerprint = e.fingerprint();
    } catch (const std::exception& e) {
        check.message = e.what();
    }
    return check;
}

}  // namespace perflab
