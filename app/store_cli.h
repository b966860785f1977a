// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

namespace CLI {
class App;
}

namespace perflab {

// The run store's subcommands (runs, show, compare, export, delete, note, tag), declared on
// the app next to main's own; the commands themselves know nothing of CLI11.
class StoreCommands {
  public:
    explicit StoreCommands(CLI::App& app);
    ~StoreCommands();
    StoreCommands(StoreCommands&&) noexcept;
    // The exit code of the store command that was parsed, or -1 when none was.
    int dispatch() const;

  private:
    struct Parsed;
    std::unique_ptr<Parsed> parsed_;
};

inline StoreCommands add_store_commands(CLI::App& app) {
    return StoreCommands(app);
}

}  // namespace perflab
