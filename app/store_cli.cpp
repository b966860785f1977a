// SPDX-License-Identifier: MIT
#include "store_cli.h"

#include <CLI/CLI.hpp>

#include "commands.h"

namespace perflab {

struct StoreCommands::Parsed {
    RunsOptions runs;
    ShowOptions show;
    CompareOptions compare;
    ExportOptions export_;
    EditOptions remove, note, tag, baseline;
    CLI::App* runs_cmd = nullptr;
    CLI::App* show_cmd = nullptr;
    CLI::App* compare_cmd = nullptr;
    CLI::App* export_cmd = nullptr;
    CLI::App* delete_cmd = nullptr;
    CLI::App* note_cmd = nullptr;
    CLI::App* tag_cmd = nullptr;
    CLI::App* baseline_cmd = nullptr;
};

namespace {

void add_db(CLI::App* cmd, std::string& db) {
    cmd->add_option("--db", db, "Run database (default: the user's PerfLab database)");
}

CLI::App* add_edit(CLI::App& app, const char* name, const char* help, EditOptions& o,
                   const char* text_name, const char* text_help) {
    auto* cmd = app.add_subcommand(name, help);
    cmd->add_option("id", o.id, "Run id")->required();
    if (text_name) cmd->add_option(text_name, o.text, text_help)->required();
    add_db(cmd, o.db);
    return cmd;
}

}  // namespace

StoreCommands::StoreCommands(CLI::App& app) : parsed_(std::make_unique<Parsed>()) {
    Parsed& p = *parsed_;
    p.runs_cmd = app.add_subcommand("runs", "The stored runs, newest first, with key figures");
    p.runs_cmd->add_option("--kind", p.runs.kind, "Only runs of this kind")
        ->check(CLI::IsMember({"cache", "http"}));
    p.runs_cmd->add_option("--tag", p.runs.tag, "Only runs with this tag");
    p.runs_cmd->add_option("--name", p.runs.name, "Only runs whose name contains TEXT");
    p.runs_cmd->add_flag("--json", p.runs.json, "As JSON");
    add_db(p.runs_cmd, p.runs.db);

    p.show_cmd = app.add_subcommand("show", "The report of a stored run");
    p.show_cmd->add_option("id", p.show.id, "Run id")->required();
    p.show_cmd->add_option("--from", p.show.from, "Window start on the run's clock (10s, 1m)");
    p.show_cmd->add_option("--to", p.show.to, "Window end on the run's clock (60s, 2m)");
    p.show_cmd->add_flag("--json", p.show.json, "As JSON");
    add_db(p.show_cmd, p.show.db);

    p.compare_cmd = app.add_subcommand("compare", "Stored runs side by side");
    p.compare_cmd
        ->add_option("runs", p.compare.sides,
                     "Run ids, the first the one to compare with; ID1,ID2,ID3 pools a series")
        ->required()
        ->expected(1, 64);
    p.compare_cmd->add_flag("--json", p.compare.json, "As JSON");
    p.compare_cmd->add_flag("--check", p.compare.check,
                            "Exit 3 when a figure of --figures is worse than the first run's");
    p.compare_cmd->add_flag("--baseline", p.compare.baseline,
                            "Compare the run(s) given with the baseline of their name");
    p.compare_cmd
        ->add_option("--threshold", p.compare.threshold,
                     "A change under this % is the same, whatever the noise (default 5)")
        ->check(CLI::Range(0.0, 1000.0));
    p.compare_cmd->add_option("--figures", p.compare.figures,
                              "The figures --check judges (default throughput,p50,p99,error_rate)");
    add_db(p.compare_cmd, p.compare.db);

    p.export_cmd = app.add_subcommand("export", "Export a stored run");
    p.export_cmd->add_option("id", p.export_.ids, "Run id (a bundle: ID,ID,... too)")->required();
    p.export_cmd
        ->add_option("--format", p.export_.format,
                     "md, html, pdf, csv, probes-csv, json, hgrm, hlog or bundle (a .perflab file "
                     "another history imports)")
        ->required()
        ->check(CLI::IsMember(
            {"md", "html", "pdf", "csv", "probes-csv", "json", "hgrm", "hlog", "bundle"}));
    p.export_cmd->add_option("-o,--output", p.export_.output, "File to write (default: stdout)");
    add_db(p.export_cmd, p.export_.db);

    p.delete_cmd = add_edit(app, "delete", "Delete a stored run", p.remove, nullptr, nullptr);
    p.note_cmd = add_edit(app, "note", "Add a note to a stored run", p.note, "text", "The note");
    p.note_cmd->add_option("--at", p.note.at,
                           "A note at this time on the run's clock (42s, 1m): on its time axis");
    p.tag_cmd = add_edit(app, "tag", "Tag a stored run", p.tag, "tag", "The tag");
    p.baseline_cmd =
        add_edit(app, "baseline", "Make a stored run the baseline of the runs named as it is",
                 p.baseline, nullptr, nullptr);
}

StoreCommands::~StoreCommands() = default;
StoreCommands::StoreCommands(StoreCommands&&) noexcept = default;

int StoreCommands::dispatch() const {
    const Parsed& p = *parsed_;
    if (*p.runs_cmd) return runs_command(p.runs);
    if (*p.show_cmd) return show_command(p.show);
    if (*p.compare_cmd) return compare_command(p.compare);
    if (*p.export_cmd) return export_command(p.export_);
    if (*p.delete_cmd) return delete_command(p.remove);
    if (*p.note_cmd) return note_command(p.note);
    if (*p.tag_cmd) return tag_command(p.tag);
    if (*p.baseline_cmd) return baseline_command(p.baseline);
    return -1;
}

}  // namespace perflab
