// SPDX-License-Identifier: MIT
#include <CLI/CLI.hpp>

#include "commands.h"

int main(int argc, char** argv) {
    using namespace perflab;
    CLI::App app{"PerfLab: load tests for caches and HTTP services, with every run kept"};
    app.require_subcommand(1);

    RunOptions run;
    auto* run_cmd = app.add_subcommand("run", "Run a spec file headless");
    run_cmd->add_option("spec", run.spec_path, "Run spec (JSON)")->required();
    run_cmd->add_flag("--json", run.json, "Print the summary as JSON on stdout (ticks on stderr)");
    run_cmd->add_flag("-q,--quiet", run.quiet, "No per-tick lines");

    DemoOptions demo;
    auto* demo_cmd =
        app.add_subcommand("demo", "Short cache run against a memcached PerfLab starts itself");
    demo_cmd->add_option("--seconds", demo.seconds, "Length of the demo")
        ->check(CLI::Range(2, 3600));

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
    return kExitBadInput;
}
