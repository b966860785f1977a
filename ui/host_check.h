// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "host_book.h"
#include "remote/hardware_profile.h"

namespace perflab {

// What "Test connection" found, for the view to act on: an unknown key is a question for the
// user, a changed one a warning, a key that cannot be read may want a passphrase.
struct HostCheck {
    enum class Outcome { ok, bad_target, unknown_host, changed_host, key, failed };
    Outcome outcome = Outcome::failed;
    std::string message;
    std::string fingerprint;  // "SHA256:...", when the host's key was seen
    HardwareProfile profile;  // when ok
};

// Connects to the host (blocking: call it on a pool thread), checks its key against
// known_hosts and reads its hardware profile. With a non-empty `trusted_fingerprint` (the one
// the user accepted) the host's key is first recorded in known_hosts if it is that very key;
// any other key is refused as a changed one and nothing is recorded.
HostCheck check_host(const SavedHost& host, const std::string& known_hosts,
                     const std::string& passphrase, const std::string& trusted_fingerprint = {});

}  // namespace perflab
