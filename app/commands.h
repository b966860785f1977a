// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/spec.h"
#include "run_import.h"

namespace perflab {

// Exit codes of every command.
constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;       // the run itself failed (server unreachable at start...)
constexpr int kExitBadInput = 2;     // a bad spec, option, file or id: nothing was run
constexpr int kExitSloFailed = 3;    // the run ran, and a check of its spec's slo failed
constexpr int kExitCheckFailed = 3;  // compare --check: a figure is worse

struct RunOptions {
    std::string spec_path;
    bool json = false;              // summary as JSON on stdout; ticks go to stderr
    bool quiet = false;             // no tick lines
    std::string db;                 // --db PATH; empty: the default database
    bool no_store = false;          // --no-store: keep nothing
    int repeat = 1;                 // --repeat N: N runs tagged as one series
    std::vector<std::string> tags;  // --tag: added to the spec's
    std::string metrics_listen;     // --metrics-listen HOST:PORT: a Prometheus endpoint
};

int run_command(const RunOptions& options);
// Runs an already parsed spec with the console observer; shared by `run` and `demo`.
// `stored`, if given, gets the stored run's id (0 when none was stored).
int run_spec(const RunSpec& spec, const RunOptions& options, int64_t* stored = nullptr);

struct DemoOptions {
    int seconds = 10;
    bool redis = false;  // against a redis-server PerfLab starts, in place of memcached
};

int demo_command(const DemoOptions& options);

// `perflab probe TARGET`: probes alone, one line per tick.
struct ProbeCommandOptions {
    std::string target;  // local, user@host[:port], memcached:host:port, jvm:PID|PATTERN
    int count = 0;       // samples to print; 0: until interrupted
    bool json = false;
    int interval_ms = 1000;
    bool per_core = false;
    std::string key;          // ssh private key; empty: ssh-agent
    std::string known_hosts;  // empty: PerfLab's own file
    std::string via;          // jvm: user@host[:port] to reach it over SSH
};
int probe_command(const ProbeCommandOptions& options);

// `perflab hosts trust user@host[:port]`: shows the host key's fingerprint; records it with
// --fingerprint (the one the user checked, compared on the connection whose key is written)
// or --yes (scripts: the key shown). With neither it records nothing and exits 2.
struct HostsTrustOptions {
    std::string target;
    std::string known_hosts;
    std::string fingerprint;  // "SHA256:..."
    bool yes = false;
};
int hosts_trust_command(const HostsTrustOptions& options);

// `perflab hosts list|add|remove`: the saved SSH hosts the desktop app offers for probing.
struct SavedHostOptions {
    std::string db;
    std::string name;
    std::string target;
    std::string key;
    bool per_core = false;
    std::string notes;
    bool json = false;
};
int hosts_list_command(const SavedHostOptions& options);
int hosts_add_command(const SavedHostOptions& options);
int hosts_remove_command(const SavedHostOptions& options);

// The run store's commands; every one takes --db PATH (empty: the default database).
struct RunsOptions {
    std::string db, kind, tag, name;
    bool json = false;
};
struct ShowOptions {
    std::string db;
    int64_t id = 0;
    std::string from, to;  // a window: "10s", "1m"
    bool json = false;
};
struct CompareOptions {
    std::string db;
    std::vector<std::string> sides;  // "12", or "12,13,14" pooled
    bool json = false;
    bool check = false;     // exit 3 when a figure of `figures` is worse
    bool baseline = false;  // compare with the baseline of the (one) side's name
    double threshold = 5;   // %: a smaller change is the same
    std::string figures = "throughput,p50,p99,error_rate";
};
struct ExportOptions {
    std::string db;
    std::string ids;     // a run's id; a bundle takes "12,13,14"
    std::string format;  // md, html, pdf, csv, probes-csv, json, hgrm, hlog, bundle
    std::string output;  // empty: stdout
};
struct EditOptions {  // delete, note, tag
    std::string db;
    int64_t id = 0;
    std::string text;
    std::string at;  // note --at 42s: a note at that time on the run's clock
};

// `perflab ab A.json B.json --repeat N`: N runs of each spec, interleaved A B B A A B...,
// each in a process of its own, tagged as one experiment; then `compare` of the two series
// with `compare`'s options (its exit: 3 when --check finds a figure worse).
struct AbOptions {
    std::string spec_a, spec_b;
    std::string db;
    int repeat = 3;
    CompareOptions compare;
};
int ab_command(const AbOptions& options);

int runs_command(const RunsOptions& options);
int show_command(const ShowOptions& options);
int compare_command(const CompareOptions& options);
int baseline_command(const EditOptions& options);
int export_command(const ExportOptions& options);
int delete_command(const EditOptions& options);
int note_command(const EditOptions& options);
int tag_command(const EditOptions& options);

// `perflab import FILE`: another tool's results stored as a run.
struct ImportCommandOptions {
    std::string db;
    ImportOptions import;
    std::string max_span;  // a duration ("45d", "90d12h"); empty: import_span.h's default
};
int import_command(const ImportCommandOptions& options);

// `perflab import-host FILE --run ID`: a host's capture (nmon) added to a stored run.
struct ImportHostOptions {
    std::string db;
    std::string file;
    int64_t run = 0;
    std::string host;  // the samples' source; empty: "nmon HOSTNAME"
};
int import_host_command(const ImportHostOptions& options);

}  // namespace perflab
