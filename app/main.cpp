// SPDX-License-Identifier: MIT
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "agent_mode.h"
#include "commands.h"
#include "gui_main.h"
#include "store_cli.h"
#include "version.h"

int main(int argc, char** argv) {
    using namespace perflab;
    CLI::App app{"PerfLab: load tests for caches and HTTP services, with every run kept"};
    app.require_subcommand(0, 1);
    app.set_version_flag("--version", version_text,
                         "Print the version, commit, build type and libraries' versions");
    auto* gui_cmd = app.add_subcommand("gui", "Open the desktop app (the default)");
    gui_cmd->allow_extras();
    // Listed for --help; the window's own parser reads them (and Qt's, such as -platform).
    std::string ignored;
    for (const GuiOption& o : gui_options()) {
        const std::string name = std::string("--") + o.name;
        if (o.value)
            gui_cmd->add_option(name, ignored, o.help)->type_name(o.value);
        else
            gui_cmd->add_flag(name, o.help);
    }

    RunOptions run;
    auto* agent_cmd = app.add_subcommand(
        "agent", "Generate a share of a controller's run (started by it over SSH; JSON lines)");
    auto* run_cmd = app.add_subcommand("run", "Run a spec file headless");
    run_cmd->add_option("spec", run.spec_path, "Run spec (JSON)")->required();
    run_cmd->add_flag("--json", run.json, "Print the summary as JSON on stdout (ticks on stderr)");
    run_cmd->add_flag("-q,--quiet", run.quiet, "No per-tick lines");
    run_cmd->add_option("--db", run.db, "Run database (default: the user's PerfLab database)");
    run_cmd->add_flag("--no-store", run.no_store, "Do not store the run");
    run_cmd->add_option("--repeat", run.repeat, "Run the spec N times, tagged as one series")
        ->check(CLI::Range(1, 1000));
    run_cmd->add_option("--tag", run.tags, "Tag the run, beside its spec's tags (repeatable)");
    run_cmd->add_option("--metrics-listen", run.metrics_listen,
                        "Serve the run's live figures to Prometheus at HOST:PORT/metrics "
                        "(such as 127.0.0.1:9464)");

    AbOptions ab;
    auto* ab_cmd = app.add_subcommand(
        "ab", "Run two specs interleaved (A B B A...), each run its own process, and compare them");
    ab_cmd->add_option("a", ab.spec_a, "Spec A, the one compared with")->required();
    ab_cmd->add_option("b", ab.spec_b, "Spec B")->required();
    ab_cmd->add_option("--repeat", ab.repeat, "Runs of each spec (default 3)")
        ->check(CLI::Range(1, 100));
    ab_cmd->add_option("--db", ab.db, "Run database (default: the user's PerfLab database)");
    ab_cmd->add_flag("--json", ab.compare.json,
                     "The comparison as JSON on stdout (runs' on stderr)");
    ab_cmd->add_flag("--check", ab.compare.check,
                     "Exit 3 when a figure of --figures is worse in B");
    ab_cmd
        ->add_option("--threshold", ab.compare.threshold,
                     "A change under this % is the same, whatever the noise (default 5)")
        ->check(CLI::Range(0.0, 1000.0));
    ab_cmd->add_option("--figures", ab.compare.figures, "The figures --check judges");

    DemoOptions demo;
    auto* demo_cmd =
        app.add_subcommand("demo", "Short cache run against a memcached PerfLab starts itself");
    demo_cmd->add_option("--seconds", demo.seconds, "Length of the demo")
        ->check(CLI::Range(2, 3600));
    demo_cmd->add_flag("--redis", demo.redis,
                       "Against a redis-server PerfLab starts itself (probed), in place of "
                       "memcached");

    ProbeCommandOptions probe;
    auto* probe_cmd =
        app.add_subcommand("probe", "Sample a host, memcached, Redis or JVM, nmon-like");
    probe_cmd
        ->add_option("target", probe.target,
                     "local, user@host[:port], memcached:host:port, redis:host:port, jvm:PID or "
                     "jvm:PATTERN")
        ->required();
    probe_cmd->add_option("--count", probe.count, "Stop after N samples")
        ->check(CLI::Range(1, 1000000));
    probe_cmd->add_flag("--json", probe.json, "One JSON object per sample");
    probe_cmd->add_option("--interval-ms", probe.interval_ms, "Tick")
        ->check(CLI::Range(100, 600000));
    probe_cmd->add_flag("--per-core", probe.per_core, "CPU per core as well");
    probe_cmd->add_option("--key", probe.key, "SSH private key (default: ssh-agent)");
    probe_cmd->add_option("--known-hosts", probe.known_hosts, "Known hosts file");
    probe_cmd->add_option("--via", probe.via, "jvm, redis: reach it over SSH at user@host[:port]");

    HostsTrustOptions trust;
    auto* hosts_cmd = app.add_subcommand("hosts", "SSH hosts PerfLab probes");
    hosts_cmd->require_subcommand(1);
    auto* trust_cmd = hosts_cmd->add_subcommand("trust", "Show a host's key and trust it");
    trust_cmd->add_option("target", trust.target, "user@host[:port]")->required();
    trust_cmd->add_option("--known-hosts", trust.known_hosts, "Known hosts file");
    auto* fingerprint_opt = trust_cmd->add_option(
        "--fingerprint", trust.fingerprint,
        "Record the key only if it has this fingerprint (SHA256:..., the one you checked)");
    trust_cmd->add_flag("--yes", trust.yes, "Record the key the host shows, unchecked (scripts)")
        ->excludes(fingerprint_opt);
    SavedHostOptions saved;
    auto* list_cmd = hosts_cmd->add_subcommand("list", "The saved SSH hosts");
    list_cmd->add_flag("--json", saved.json, "JSON output");
    auto* add_cmd = hosts_cmd->add_subcommand("add", "Save an SSH host for probing");
    add_cmd->add_option("name", saved.name, "A name for the host")->required();
    add_cmd->add_option("target", saved.target, "user@host[:port]")->required();
    add_cmd->add_option("--key", saved.key, "SSH private key (default: ssh-agent)");
    add_cmd->add_flag("--per-core", saved.per_core, "Probe CPU per core as well");
    add_cmd->add_option("--notes", saved.notes, "Notes");
    auto* remove_cmd = hosts_cmd->add_subcommand("remove", "Forget a saved SSH host");
    remove_cmd->add_option("name", saved.name, "The host's name")->required();
    for (auto* cmd : {list_cmd, add_cmd, remove_cmd})
        cmd->add_option("--db", saved.db, "Database file (default: the user's)");

    ImportCommandOptions import;
    auto* import_cmd = app.add_subcommand(
        "import", "Store another tool's results as a run, or the runs of a PerfLab bundle");
    import_cmd
        ->add_option("file", import.import.file,
                     "JMeter JTL (CSV), vegeta or k6 JSON lines, memtier_benchmark JSON, .hlog, "
                     "or a .perflab bundle (perflab export --format bundle)")
        ->required();
    import_cmd->add_option("--name", import.import.name, "The run's name (default: the file's)");
    import_cmd->add_option("--tag", import.import.tags, "Tag the run (repeatable)");
    import_cmd
        ->add_option("--format", import.import.format,
                     "auto (default), jtl, vegeta, k6, memtier, hlog or bundle")
        ->check(CLI::IsMember({"auto", "jtl", "vegeta", "k6", "memtier", "hlog", "bundle"}));
    import_cmd->add_option("--max-span", import.max_span,
                           "Longest time the file's requests may spread over (default 31d)");
    import_cmd->add_option("--db", import.db, "Run database (default: the user's)");

    ImportHostOptions import_host;
    auto* import_host_cmd = app.add_subcommand(
        "import-host", "Add a host's nmon capture (nmon -F FILE) to a stored run, on its clock");
    import_host_cmd->add_option("file", import_host.file, "The nmon file")->required();
    import_host_cmd->add_option("--run", import_host.run, "The run's id")->required();
    import_host_cmd->add_option("--host", import_host.host,
                                "The samples' name (default: nmon HOSTNAME)");
    import_host_cmd->add_option("--db", import_host.db, "Run database (default: the user's)");

    const StoreCommands store = add_store_commands(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kExitBadInput;
    }
    if (*agent_cmd) return run_agent(STDIN_FILENO, STDOUT_FILENO);
    if (*run_cmd) return run_command(run);
    if (*ab_cmd) return ab_command(ab);
    if (*demo_cmd) return demo_command(demo);
    if (*probe_cmd) return probe_command(probe);
    if (*trust_cmd) return hosts_trust_command(trust);
    if (*list_cmd) return hosts_list_command(saved);
    if (*add_cmd) return hosts_add_command(saved);
    if (*remove_cmd) return hosts_remove_command(saved);
    if (*import_cmd) return import_command(import);
    if (*import_host_cmd) return import_host_command(import_host);
    if (const int code = store.dispatch(); code >= 0) return code;
    return gui_main(argc, argv);
}
