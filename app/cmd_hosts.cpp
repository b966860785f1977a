// SPDX-License-Identifier: MIT
#include <cstdio>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "host_book.h"
#include "remote/ssh_session.h"
#include "store_access.h"

namespace perflab {

namespace {

// Throws StoreError: a database that is not ours, newer, unreadable, or a bad field.
template <class F>
int with_book(const SavedHostOptions& o, Access access, F&& f) {
    try {
        HostBook book(database_path(o.db), access);
        return f(book);
    } catch (const StoreError& e) {
        return bad_input(e.what());
    }
}

const SavedHost* find_by_name(const std::vector<SavedHost>& hosts, const std::string& name) {
    for (const auto& h : hosts)
        if (h.name == name) return &h;
    return nullptr;
}

TrustMode trust_mode(const HostsTrustOptions& o) {
    if (o.yes) return TrustMode::shown;
    return o.fingerprint.empty() ? TrustMode::look : TrustMode::accepted;
}

}  // namespace

int hosts_trust_command(const HostsTrustOptions& o) {
    const auto target = parse_ssh_target(o.target);
    if (!target) {
        std::fprintf(stderr, "perflab hosts trust: bad target \"%s\": expected user@host[:port]\n",
                     o.target.c_str());
        return kExitBadInput;
    }
    if (!o.fingerprint.empty() && !o.fingerprint.starts_with("SHA256:")) {
        std::fprintf(stderr,
                     "perflab hosts trust: --fingerprint \"%s\": expected SHA256:... as "
                     "`perflab hosts trust` or `ssh-keygen -l` prints it\n",
                     o.fingerprint.c_str());
        return kExitBadInput;
    }
    SshOptions options;
    options.known_hosts = o.known_hosts.empty() ? default_known_hosts_path() : o.known_hosts;
    try {
        const TrustResult r = trust_host(*target, options, trust_mode(o), o.fingerprint);
        std::printf("%s:%d %s\n", target->host.c_str(), target->port, r.fingerprint.c_str());
        if (r.already_known || r.recorded) {
            std::printf("%s %s\n", r.already_known ? "already trusted in" : "recorded in",
                        options.known_hosts.c_str());
            return kExitOk;
        }
        std::fprintf(stderr,
                     "perflab hosts trust: nothing recorded. Check the fingerprint above with the "
                     "host's administrator (ssh-keygen -l -f on its host key), then run again "
                     "with --fingerprint %s; --yes records the key shown, unchecked\n",
                     r.fingerprint.c_str());
    } catch (const SshError& e) {
        std::fprintf(stderr, "perflab hosts trust: %s\n", e.what());
    }
    return kExitBadInput;
}

int hosts_list_command(const SavedHostOptions& o) {
    return with_book(o, Access::write, [&](HostBook& book) {
        const auto hosts = book.list();
        if (o.json) {
            nlohmann::json out = nlohmann::json::array();
            for (const auto& h : hosts)
                out.push_back({{"id", h.id},
                               {"name", h.name},
                               {"target", h.target},
                               {"key", h.key_file},
                               {"per_core", h.per_core},
                               {"notes", h.notes}});
            std::printf("%s\n", out.dump(2).c_str());
            return kExitOk;
        }
        for (const auto& h : hosts)
            std::printf("%-20s %-30s %s%s\n", h.name.c_str(), h.target.c_str(),
                        h.key_file.empty() ? "ssh-agent" : h.key_file.c_str(),
                        h.per_core ? ", per core" : "");
        return kExitOk;
    });
}

int hosts_add_command(const SavedHostOptions& o) {
    return with_book(o, Access::write, [&](HostBook& book) {
        SavedHost host;
        host.name = o.name;
        host.target = o.target;
        host.key_file = o.key;
        host.per_core = o.per_core;
        host.notes = o.notes;
        const int64_t id = book.add(host);
        std::printf("saved host %lld: %s (%s)\n", static_cast<long long>(id), o.name.c_str(),
                    o.target.c_str());
        return kExitOk;
    });
}

int hosts_remove_command(const SavedHostOptions& o) {
    return with_book(o, Access::write, [&](HostBook& book) {
        const auto hosts = book.list();
        const SavedHost* host = find_by_name(hosts, o.name);
        if (!host) return bad_input("no saved host named \"" + o.name + "\"");
        book.remove(host->id);
        std::printf("removed saved host %s\n", o.name.c_str());
        return kExitOk;
    });
}

}  // namespace perflab
