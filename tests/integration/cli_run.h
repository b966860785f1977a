// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "process.h"

namespace perflab::test {

// `perflab run SPEC --no-store FLAGS...`, the spec written to a file of its own.
inline Output perflab_run(const nlohmann::json& spec, const std::vector<std::string>& flags = {}) {
    TempDir dir;
    dir.write("spec.json", spec.dump());
    std::vector<std::string> argv = {PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    return run(argv);
}

}  // namespace perflab::test
