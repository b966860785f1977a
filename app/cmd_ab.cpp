// SPDX-License-Identifier: MIT
// `perflab ab A.json B.json --repeat N`: two specs run interleaved, each run in a process of its
// own, then compared as two series. Interleaving (A B B A A B ...) spreads a machine's drift
// (a neighbour's load, a warming cache, thermal throttling) evenly over both sides, and a fresh
// process per run keeps one run's heap and connections out of the next: what a careful
// benchmarker does by hand.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "commands.h"
#include "run_store.h"
#include "store_access.h"

extern char** environ;

namespace perflab {

namespace {

// This program's own path, so that a run goes through the very binary the user started.
std::string own_binary() {
    std::vector<char> path(4096);
    const ssize_t n = readlink("/proc/self/exe", path.data(), path.size() - 1);
    return n > 0 ? std::string(path.data(), size_t(n)) : std::string("perflab");
}

// The run in progress, and whether the user asked the experiment to stop. A child runs in a
// process group of its own, so a terminal's Ctrl-C reaches only us, and we hand it on once:
// the run stops as `perflab run` does on one Ctrl-C, and stores what it measured.
volatile sig_atomic_t g_child = 0;
volatile sig_atomic_t g_stop = 0;

void hand_on(int) {
    g_stop = 1;
    if (g_child > 0) kill(pid_t(g_child), SIGINT);
}

// The child's exit code; 128 + N when a signal N ended it; -1 when it could not start.
// `to_stderr`: its standard output goes to our standard error (ours carries JSON).
int run_child(const std::vector<std::string>& args, bool to_stderr) {
    std::vector<char*> argv;
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (to_stderr) posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (spawned != 0) return -1;
    g_child = pid;
    if (g_stop) kill(pid, SIGINT);  // asked before the child existed
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    g_child = 0;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

// The run the child stored: the one tagged `tag` that is not among `known`.
int64_t new_run(const std::string& db, const std::string& tag, const std::vector<int64_t>& known) {
    RunStore store(db, Access::read);
    for (const auto& r : store.list({"", tag, ""}))
        if (std::find(known.begin(), known.end(), r.id) == known.end()) return r.id;
    return 0;
}

std::string id_list(const std::vector<int64_t>& ids) {
    std::string s;
    for (const int64_t id : ids)
        s += (s.empty() ? "" : ",") + std::to_string(id);
    return s;
}

// The k-th run (from 0) of an A/B experiment is B when k is in an odd pair of an ABBA
// pattern: A B, B A, A B, B A...
bool ab_run_is_b(int k) {
    return (k % 2 == 1) != ((k / 2) % 2 == 1);
}

}  // namespace

int ab_command(const AbOptions& o) {
    for (const auto* path : {&o.spec_a, &o.spec_b}) {
        const SpecResult parsed = load_spec_file(*path);
        if (!parsed) {
            std::fprintf(stderr, "perflab: invalid spec %s:\n%s", path->c_str(),
                         parsed.error_text().c_str());
            return kExitBadInput;
        }
    }
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    std::strftime(stamp, sizeof stamp, "ab-%Y%m%dT%H%M%SZ", &utc);
    const std::string db = database_path(o.db);
    const std::string self = own_binary();
    FILE* const progress = o.compare.json ? stderr : stdout;
    struct sigaction action = {};
    action.sa_handler = hand_on;
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    std::vector<int64_t> ids[2];
    for (int k = 0; k < 2 * o.repeat; ++k) {
        const bool b = ab_run_is_b(k);
        const std::string side = b ? "B" : "A";
        const std::string side_tag = std::string(stamp) + "-" + side;
        std::fprintf(progress, "== %s: %s run %zu of %d (%s)\n", stamp, side.c_str(),
                     ids[b].size() + 1, o.repeat, (b ? o.spec_b : o.spec_a).c_str());
        std::fflush(progress);
        const int code = run_child({self, "run", b ? o.spec_b : o.spec_a, "--db", db, "--quiet",
                                    "--tag", stamp, "--tag", side_tag},
                                   o.compare.json);
        if (code == -1) {
            std::fprintf(stderr, "perflab: ab: cannot start %s\n", self.c_str());
            return kExitFailed;
        }
        if (g_stop) {
            std::fprintf(
                stderr, "perflab: ab: stopped at %s run %zu; runs stored so far: A %s, B %s\n",
                side.c_str(), ids[b].size() + 1, id_list(ids[0]).c_str(), id_list(ids[1]).c_str());
            return kExitFailed;
        }
        if (code != kExitOk && code != kExitSloFailed) {
            std::fprintf(stderr,
                         "perflab: ab: %s run %zu ended with exit %d; the experiment stops\n",
                         side.c_str(), ids[b].size() + 1, code);
            return code == kExitBadInput ? kExitBadInput : kExitFailed;
        }
        const int64_t id = new_run(db, side_tag, ids[b]);
        if (id == 0) {
            std::fprintf(stderr, "perflab: ab: the %s run was not stored in %s\n", side.c_str(),
                         db.c_str());
            return kExitFailed;
        }
        ids[b].push_back(id);
    }
    std::fprintf(progress, "%s: A runs %s, B runs %s (tags %s-A, %s-B)\n\n", stamp,
                 id_list(ids[0]).c_str(), id_list(ids[1]).c_str(), stamp, stamp);
    std::fflush(progress);
    CompareOptions compare = o.compare;
    compare.db = db;
    compare.sides = {id_list(ids[0]), id_list(ids[1])};
    return compare_command(compare);
}

}  // namespace perflab
