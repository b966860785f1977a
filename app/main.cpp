// SPDX-License-Identifier: MIT
#include <CLI/CLI.hpp>

#include "commands.h"
#include "store_cli.h"

int main(int argc, char** argv) {
    using namespace perflab;
    CLI::App app{"PerfLab: load tests for caches and HTTP services, with every run kept"};
    app.require_subcommand(1);

    RunOptions run;
    auto* run_cmd = app.add_subcommand("run", "Run a spec file headless");
    run_cmd->add_option("spec", run.spec_path, "Run spec (JSON)")->required();
    run_cmd->add_flag("--json", run.json, "Print the summary as JSON on stdout (ticks on stderr)");
    run_cmd->add_flag("-q,--quiet", run.quiet, "No per-tick lines");
    run_cmd->add_option("--db", run.db, "Run database (default: the user's PerfLab database)");
    run_cmd->add_flag("--no-store", run.no_store, "Do not store the run");

    DemoOptions demo;
    auto* demo_cmd =
        app.add_subcommand("demo", "Short cache run against a memcached PerfLab starts itself");
    demo_cmd->add_option("--seconds", demo.seconds, "Length of the demo")
        ->check(CLI::Range(2, 3600));

    const StoreCommands store = add_store_commands(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kExitBadInput;
    }
    if (*run_cmd) return run_command(run);
    if (*demo_cmd) return demo_command(demo);
    if (const int code = store.dispatch(); code >= 0) return code;
    return kExitBadInput;
}
